import type { Bool } from '../types';

export interface SalesTable {
  id: string;
  branch_id: string;
  user_id: string;
  session_id: string | null;
  device_id: string;
  invoice_number: string;
  uuid: string;
  icv: number;
  client_mutation_id: string;
  payload_hash: string;
  sync_status: string;
  subtotal_amount: number;
  line_discount_amount: number;
  global_discount: number;
  coupon_discount: number;
  vat_amount: number;
  total_amount: number;
  paid_amount: number;
  change_amount: number;
  currency_code: string;
  base_currency_code: string;
  fx_rate_to_base: string;
  base_total_amount: number;
  base_vat_amount: number;
  base_change_amount: number;
  /** The currency the change was given in: the sale's when the drawer holds it, else the base (null before 0025: the sale's). */
  change_currency_code: string | null;
  vat_breakdown: string;
  prices_include_vat: Bool;
  payment_method: string;
  notes: string;
  customer_id: string | null;
  customer_name: string | null;
  coupon_id: string | null;
  coupon_code: string | null;
  prescription_id: string | null;
  approval_id: string | null;
  seller_vat_number: string;
  seller_name: string;
  fiscal_status: string;
  fiscal_xml: string;
  fiscal_hash: string;
  previous_hash: string;
  is_deleted: Bool;
  has_return: Bool;
  sold_at: string;
  created_at: string;
}

export interface SaleLinesTable {
  id: string;
  sale_id: string;
  line_no: number;
  medicine_id: string;
  medicine_name: string;
  quantity: number;
  unit_price: number;
  catalogue_price: number;
  line_discount: number;
  allocated_discount: number;
  net_amount: number;
  vat_amount: number;
  line_total: number;
  vat_rate: string;
  vat_category: string;
  cost_amount: number;
  /** JSON: [{batch_id, batch_number, expiry_date, quantity, movement_id}] */
  batches: string;
  returned_quantity: number;
}

export interface SalePaymentsTable {
  id: string;
  sale_id: string;
  line_no: number;
  method: string;
  amount: number;
  base_amount: number;
  reference: string;
}

export interface SaleTables {
  sales: SalesTable;
  sale_lines: SaleLinesTable;
  sale_payments: SalePaymentsTable;
}
