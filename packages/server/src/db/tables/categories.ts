export interface CategoriesTable {
  id: string;
  slug: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface CategoryTables {
  categories: CategoriesTable;
}
