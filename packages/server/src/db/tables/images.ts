export interface BrandingAssetsTable {
  name: string;
  image_key: string;
  updated_by: string | null;
  updated_at: string;
}

export interface ImageTables {
  branding_assets: BrandingAssetsTable;
}
