export interface ParkedCartsTable {
  id: string;
  branch_id: string;
  user_id: string;
  label: string;
  customer_id: string | null;
  items: string;
  notes: string;
  status: 'parked' | 'recalled' | 'voided';
  recalled_by: string | null;
  recalled_at: string | null;
  voided_by: string | null;
  voided_at: string | null;
  void_reason: string | null;
  created_at: string;
  updated_at: string;
}

export interface ParkedTables {
  parked_carts: ParkedCartsTable;
}
