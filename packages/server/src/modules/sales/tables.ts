import type { Bool } from '../../db/types';

/** Kysely interfaces of migration 0003_selling (sessions, sales, fiscal chain, returns, parked, coupons, customers). */

export interface LocalStateTable {
  key: string;
  value: string;
}

export interface FiscalChainTable {
  device_id: string;
  icv: number;
  doc_type: 'invoice' | 'credit_note';
  doc_id: string;
  fiscal_hash: string;
  previous_hash: string;
  created_at: string;
}

export type SessionStatus = 'open' | 'on_break' | 'closed';

export interface CashSessionsTable {
  id: string;
  user_id: string;
  branch_id: string;
  device_id: string;
  currency_code: string;
  opening_float: number;
  status: SessionStatus;
  break_minutes: number;
  break_started_at: string | null;
  opened_at: string;
  closed_at: string | null;
  counted_cash: number | null;
  expected_cash: number | null;
  variance: number | null;
  z_number: number | null;
  notes: string;
  updated_at: string;
}

export interface TenderDeclarationsTable {
  id: string;
  session_id: string;
  user_id: string;
  branch_id: string;
  amount: number;
  denominations: string;
  notes: string;
  declared_at: string;
}

export interface CustomersTable {
  id: string;
  name: string;
  phone: string;
  national_id: string;
  notes: string;
  credit_limit: number;
  is_credit_allowed: Bool;
  /** Who last set credit_limit or is_credit_allowed (a branch manager or an admin); null when nobody did. */
  credit_terms_by: string | null;
  current_balance: number;
  created_at: string;
  updated_at: string;
}

export interface CustomerLedgerTable {
  id: string;
  customer_id: string;
  branch_id: string | null;
  transaction_type: string;
  amount: number;
  balance_after: number;
  reference_type: string | null;
  reference_id: string | null;
  notes: string;
  created_by: string | null;
  created_at: string;
}

export interface CouponsTable {
  id: string;
  code: string;
  description: string;
  discount_type: 'percent' | 'fixed';
  /** percent: hundredths of a percent (1250 = 12.5 %); fixed: minor units of the base currency. */
  discount_value: number;
  max_discount: number | null;
  min_subtotal: number;
  starts_at: string | null;
  ends_at: string | null;
  usage_limit: number | null;
  per_customer_limit: number | null;
  used_count: number;
  is_active: Bool;
  created_at: string;
  updated_at: string;
}

export interface CouponRedemptionsTable {
  id: string;
  coupon_id: string;
  sale_id: string;
  customer_id: string | null;
  amount: number;
  created_at: string;
}

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

export interface ReturnsTable {
  id: string;
  sale_id: string;
  branch_id: string;
  user_id: string;
  session_id: string | null;
  device_id: string;
  credit_note_number: string;
  uuid: string;
  icv: number;
  client_mutation_id: string;
  payload_hash: string;
  refund_method: string;
  reason: string;
  subtotal_amount: number;
  vat_amount: number;
  total_amount: number;
  currency_code: string;
  base_total_amount: number;
  customer_id: string | null;
  fiscal_status: string;
  fiscal_xml: string;
  fiscal_hash: string;
  previous_hash: string;
  sync_status: string;
  created_at: string;
}

export interface ReturnLinesTable {
  id: string;
  return_id: string;
  sale_line_id: string;
  medicine_id: string;
  medicine_name: string;
  quantity: number;
  condition: 'resaleable' | 'damaged' | 'expired';
  net_amount: number;
  vat_amount: number;
  refund_amount: number;
  vat_rate: string;
  /** JSON: [{batch_id, quantity, movement_ids}] */
  batches: string;
}

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

export interface SellingTables {
  local_state: LocalStateTable;
  fiscal_chain: FiscalChainTable;
  cash_sessions: CashSessionsTable;
  tender_declarations: TenderDeclarationsTable;
  customers: CustomersTable;
  customer_ledger: CustomerLedgerTable;
  coupons: CouponsTable;
  coupon_redemptions: CouponRedemptionsTable;
  sales: SalesTable;
  sale_lines: SaleLinesTable;
  sale_payments: SalePaymentsTable;
  returns: ReturnsTable;
  return_lines: ReturnLinesTable;
  parked_carts: ParkedCartsTable;
}
