import type { Bool } from '../../db/types';

export interface CategoriesTable {
  id: string;
  slug: string;
  name: string;
  created_at: string;
  updated_at: string;
}

export interface MedicinesTable {
  id: string;
  name: string;
  generic_name: string;
  barcode: string | null;
  /** The barcode normalised for lookup: a numeric GTIN without leading zeros, else the barcode itself. */
  barcode_key: string | null;
  category: string | null;
  form: string;
  strength: string;
  unit: string;
  /** Minor units of the base currency. */
  selling_price: number;
  max_public_price: number | null;
  low_stock_threshold: number;
  requires_prescription: Bool;
  is_controlled: Bool;
  requires_cold_chain: Bool;
  is_active: Bool;
  vat_category: string;
  regulator_registration_no: string;
  image_key: string | null;
  created_at: string;
  updated_at: string;
}

export interface SuppliersTable {
  id: string;
  name: string;
  tax_number: string;
  supplier_type: string;
  lead_time_days: number;
  reliability_score: number;
  contact_person: string;
  phone: string;
  email: string;
  address: string;
  notes: string;
  is_active: Bool;
  created_at: string;
  updated_at: string;
}

export interface BatchesTable {
  id: string;
  medicine_id: string;
  branch_id: string;
  batch_number: string;
  expiry_date: string;
  qty_received: number;
  qty_on_hand: number;
  /** Minor units of the base currency. */
  unit_cost: number;
  supplier_id: string | null;
  regulator_status: 'quarantined' | 'active' | 'recalled';
  received_at: string;
  received_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface StockMovementsTable {
  id: string;
  batch_id: string;
  branch_id: string;
  medicine_id: string;
  type: string;
  quantity: number;
  reference_type: string | null;
  reference_id: string | null;
  user_id: string | null;
  reason: string;
  created_at: string;
}

export interface TransfersTable {
  id: string;
  from_branch_id: string;
  to_branch_id: string;
  status: string;
  notes: string;
  created_by: string | null;
  created_at: string;
}

export interface TransferItemsTable {
  id: string;
  transfer_id: string;
  medicine_id: string;
  from_batch_id: string;
  to_batch_id: string;
  quantity: number;
  unit_cost: number;
}

export interface StockCountsTable {
  id: string;
  branch_id: string;
  counted_by: string;
  approval_id: string | null;
  notes: string;
  lines_counted: number;
  lines_with_variance: number;
  total_variance: number;
  created_at: string;
}

export interface StockCountLinesTable {
  id: string;
  stock_count_id: string;
  batch_id: string;
  medicine_id: string;
  expected_qty: number;
  counted_qty: number;
  variance: number;
}

export interface BrandingAssetsTable {
  name: string;
  image_key: string;
  updated_by: string | null;
  updated_at: string;
}

export interface CatalogueTables {
  categories: CategoriesTable;
  medicines: MedicinesTable;
  suppliers: SuppliersTable;
  batches: BatchesTable;
  stock_movements: StockMovementsTable;
  transfers: TransfersTable;
  transfer_items: TransferItemsTable;
  stock_counts: StockCountsTable;
  stock_count_lines: StockCountLinesTable;
  branding_assets: BrandingAssetsTable;
}
