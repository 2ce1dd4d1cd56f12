import type { Bool } from '../types';

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

export interface MedicineTables {
  medicines: MedicinesTable;
}
