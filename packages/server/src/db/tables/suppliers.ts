import type { Bool } from '../types';

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

export interface SupplierTables {
  suppliers: SuppliersTable;
}
