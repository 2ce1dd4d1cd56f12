import { z } from 'zod';
import { DecimalString, Id, IsoDate, MoneyInput, OptionalText, PageQuery, Text, Timestamp } from './common';

/**
 * Selling: cash sessions, sales with the fiscal chain, returns (credit notes), parked carts, coupons, customers.
 * Request money is a number in the currency named by the request (default the base currency); response money is
 * a decimal string, except where the spec fixes numbers (vat_breakdown, payment_lines).
 */

const Qty = z
  .number({ message: 'must be a number' })
  .int({ message: 'must be a whole number' })
  .min(1, { message: 'must be at least 1' })
  .max(1_000_000, { message: 'is too large' });

const PositiveMoney = MoneyInput.refine((n) => n > 0, { message: 'must be above zero' });
const MutationId = z
  .string()
  .trim()
  .min(8, { message: 'must be at least 8 characters' })
  .max(100, { message: 'must be at most 100 characters' })
  .regex(/^[A-Za-z0-9._:-]+$/, { message: 'must be letters, digits, dots, dashes, colons or underscores' });
const CurrencyCodeInput = z.string().regex(/^[A-Z]{3}$/, { message: 'must be a three-letter ISO 4217 code' });
const CouponCode = z
  .string()
  .trim()
  .min(2, { message: 'must be at least 2 characters' })
  .max(40, { message: 'must be at most 40 characters' })
  .regex(/^[A-Za-z0-9_-]+$/, { message: 'must be letters, digits, dashes or underscores' });

// ---------------------------------------------------------------- sessions

export const SESSION_STATUSES = ['open', 'on_break', 'closed'] as const;
export const SessionStatus = z.enum(SESSION_STATUSES);

export const CashSession = z.object({
  id: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  branch_id: z.string(),
  device_id: z.string(),
  currency_code: z.string().describe('the base currency: every session figure is in it'),
  opening_float: DecimalString,
  status: SessionStatus,
  break_minutes: z.number().int(),
  break_started_at: Timestamp.nullable(),
  opened_at: Timestamp,
  closed_at: Timestamp.nullable(),
  total_sales: z.number().int(),
  total_revenue: DecimalString,
  total_vat: DecimalString,
  payment_breakdown: z
    .string()
    .describe(
      'JSON object {method: "amount"} of payments taken in the session (base currency, cash net of change)',
    ),
  expected_cash: DecimalString.nullable().describe(
    'float + cash taken - change given - cash refunds; set at close',
  ),
  counted_cash: DecimalString.nullable(),
  variance: DecimalString.nullable().describe('counted - expected; set at close'),
  z_number: z
    .number()
    .int()
    .nullable()
    .describe('sequential per branch and device (the till of the session), assigned at close'),
  notes: z.string(),
});
export type CashSession = z.infer<typeof CashSession>;

export const OpenSessionRequest = z.object({
  opening_float: MoneyInput,
  notes: OptionalText(500).default(''),
});
export const CloseSessionRequest = z.object({
  counted_cash: MoneyInput,
  notes: OptionalText(500).default(''),
});
export const Denomination = z.object({
  value: PositiveMoney,
  count: z.number().int().min(0).max(1_000_000),
});
export const TenderRequest = z
  .object({
    amount: MoneyInput.optional(),
    denominations: z.array(Denomination).max(50).optional(),
    notes: OptionalText(500).default(''),
  })
  .refine((v) => v.amount !== undefined || (v.denominations && v.denominations.length > 0), {
    message: 'give amount or denominations',
  });
export type TenderDeclaration = z.infer<typeof TenderDeclaration>;
export const TenderDeclaration = z.object({
  id: z.string(),
  session_id: z.string(),
  user_id: z.string(),
  branch_id: z.string(),
  amount: DecimalString,
  denominations: z.array(z.object({ value: DecimalString, count: z.number().int() })),
  notes: z.string(),
  declared_at: Timestamp,
});
export const TenderHistoryQuery = PageQuery.extend({ session_id: Id.optional() });
export const SessionHistoryQuery = PageQuery.extend({
  branch_id: Id.optional(),
  user_id: Id.optional(),
  from: IsoDate.optional(),
  to: IsoDate.optional(),
});
export const SessionParams = z.object({ sessionId: Id });

export const SessionSaleItem = z.object({
  id: z.string(),
  invoice_number: z.string(),
  payment_method: z.string(),
  pharmacist_name: z.string(),
  total_amount: DecimalString,
  vat_amount: DecimalString,
  sold_at: Timestamp,
});
export const SessionSales = z.object({ items: z.array(SessionSaleItem), session: CashSession });

const MoneyByKey = z.record(z.string(), DecimalString);
export type ZReport = z.infer<typeof ZReport>;
export const ZReport = z.object({
  session_id: z.string(),
  z_number: z
    .number()
    .int()
    .nullable()
    .describe('sequential per branch and device; null while the session is still open (an X-report)'),
  device_id: z.string().describe('the till (device) whose Z sequence the number belongs to'),
  is_final: z.boolean(),
  branch_id: z.string(),
  branch_name: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  currency_code: z.string(),
  opened_at: Timestamp,
  closed_at: Timestamp.nullable(),
  break_minutes: z.number().int(),
  sales_count: z.number().int(),
  gross_sales: DecimalString.describe('total of sales, VAT included'),
  net_sales: DecimalString.describe('gross sales minus refunds'),
  vat_total: DecimalString,
  by_payment: z.array(z.object({ method: z.string(), count: z.number().int(), amount: DecimalString })),
  vat_by_rate: z.array(
    z.object({ rate: z.number(), taxable_amount: DecimalString, vat_amount: DecimalString }),
  ),
  discounts: z.object({
    line: DecimalString,
    global: DecimalString,
    coupon: DecimalString,
    total: DecimalString,
  }),
  returns: z.object({
    count: z.number().int(),
    total: DecimalString,
    vat: DecimalString,
    by_method: MoneyByKey,
  }),
  opening_float: DecimalString,
  cash_sales: DecimalString.describe('cash tendered minus change given'),
  cash_refunds: DecimalString,
  expected_cash: DecimalString,
  counted_cash: DecimalString.nullable(),
  variance: DecimalString.nullable(),
  tender_declarations: z.number().int(),
  generated_at: Timestamp,
});

// ---------------------------------------------------------------- sales

export const SALE_PAYMENT_METHODS = [
  'cash',
  'card',
  'mobile_money',
  'bank_transfer',
  'credit',
  'voucher',
  'insurance',
] as const;
export const SalePaymentMethod = z.enum(SALE_PAYMENT_METHODS);

export const SaleItemInput = z.object({
  medicine_id: Id,
  quantity: Qty,
  unit_price: MoneyInput.optional().describe('override of the catalogue price, in the sale currency'),
  discount: MoneyInput.optional().describe('line discount amount, in the sale currency'),
});
export const PaymentLineInput = z.object({
  method: SalePaymentMethod,
  amount: PositiveMoney,
  reference: OptionalText(100).optional(),
});

export const CreateSaleRequest = z.object({
  items: z.array(SaleItemInput).min(1, { message: 'must have at least one line' }).max(500),
  payment_method: SalePaymentMethod.optional(),
  payment_lines: z.array(PaymentLineInput).min(1).max(10).optional(),
  customer_id: Id.nullish(),
  coupon_code: CouponCode.nullish(),
  global_discount: MoneyInput.optional(),
  currency_code: CurrencyCodeInput.optional(),
  notes: OptionalText(500).optional(),
  prescription_id: Id.nullish(),
  client_mutation_id: MutationId.optional(),
  approval_id: Id.nullish(),
  print_receipt: z
    .boolean()
    .optional()
    .describe('default true: enqueue the receipt on the branch default printer, if there is one'),
});
export type CreateSaleRequest = z.infer<typeof CreateSaleRequest>;

export const VatBreakdownRow = z.object({
  rate: z.number(),
  taxable_amount: z.number(),
  vat_amount: z.number(),
});
export const PaymentLine = z.object({ method: z.string(), amount: z.number() });

export const SaleLineBatch = z.object({
  batch_id: z.string(),
  batch_number: z.string(),
  expiry_date: z.string(),
  quantity: z.number().int(),
  movement_id: z.string(),
});
export type SaleLine = z.infer<typeof SaleLine>;
export const SaleLine = z.object({
  id: z.string(),
  line_no: z.number().int(),
  medicine_id: z.string(),
  medicine_name: z.string(),
  quantity: z.number().int(),
  unit_price: DecimalString,
  discount: DecimalString.describe('line discount plus its share of the global and coupon discounts'),
  line_discount: DecimalString,
  allocated_discount: DecimalString,
  net_amount: DecimalString,
  vat_amount: DecimalString,
  line_total: DecimalString.describe('what the customer pays for the line, VAT included'),
  vat_rate: z.number(),
  vat_category: z.string(),
  returned_quantity: z.number().int(),
  batches: z.array(SaleLineBatch),
});

export const Sale = z.object({
  id: z.string(),
  branch_id: z.string(),
  user_id: z.string(),
  invoice_number: z.string(),
  uuid: z.string(),
  icv: z.number().int(),
  client_mutation_id: z.string(),
  payload_hash: z.string(),
  device_id: z.string(),
  sync_status: z.string(),
  subtotal_amount: DecimalString.describe('total excluding VAT, after discounts (subtotal + vat = total)'),
  vat_amount: DecimalString,
  total_amount: DecimalString,
  currency_code: z.string(),
  base_currency_code: z.string(),
  fx_rate_to_base: DecimalString,
  base_total_amount: DecimalString,
  vat_breakdown: z.array(VatBreakdownRow),
  payment_method: z.string(),
  payment_lines: z.array(PaymentLine),
  change_amount: DecimalString,
  notes: z.string(),
  session_id: z.string().nullable(),
  customer_id: z.string().nullable(),
  customer_name: z.string().nullable(),
  coupon_id: z.string().nullable(),
  global_discount: DecimalString,
  coupon_discount: DecimalString,
  line_discount_amount: DecimalString,
  prescription_id: z.string().nullable(),
  approval_id: z.string().nullable(),
  fiscal_status: z.string(),
  fiscal_xml: z.string(),
  fiscal_hash: z.string(),
  is_deleted: z.number().int(),
  sold_at: Timestamp,
  pharmacist_name: z.string(),
  customer_display_name: z.string(),
  branch_name: z.string(),
  branch_address: z.string(),
  branch_vat_number: z.string(),
  organization_name: z.string(),
  organization_legal_name: z.string(),
  organization_phone: z.string(),
  organization_email: z.string(),
  organization_address: z.string(),
  organization_tin: z.string(),
  organization_vat_number: z.string(),
  receipt_header: z.string(),
  receipt_footer: z.string(),
  return_policy: z.string(),
  has_return: z.boolean(),
});
export type Sale = z.infer<typeof Sale>;
export const SaleDetail = Sale.extend({ items: z.array(SaleLine) });
export type SaleDetail = z.infer<typeof SaleDetail>;

export const SaleListQuery = PageQuery.extend({
  branch_id: Id.optional(),
  session_id: Id.optional(),
  customer_id: Id.optional(),
  user_id: Id.optional(),
  invoice_number: z.string().trim().max(64).optional(),
  from: IsoDate.optional(),
  to: IsoDate.optional(),
});
export const SaleParams = z.object({ saleId: Id });

export const SaleInvoice = z.object({
  sale_id: z.string(),
  invoice_number: z.string(),
  uuid: z.string(),
  icv: z.number().int(),
  device_id: z.string(),
  fiscal_hash: z.string().describe('SHA-256, lowercase hex'),
  previous_hash: z.string(),
  fiscal_status: z.string(),
  sold_at: Timestamp,
  total_amount: DecimalString,
  vat_amount: DecimalString,
  currency_code: z.string(),
  qr_payload: z.string().describe('base64 TLV: 1 seller name, 2 VAT number, 3 timestamp, 4 total, 5 VAT'),
});

// ---------------------------------------------------------------- returns

export const RETURN_CONDITIONS = ['resaleable', 'damaged', 'expired'] as const;
export const ReturnLineInput = z.object({
  sale_line_id: Id,
  quantity: Qty,
  condition: z.enum(RETURN_CONDITIONS).default('resaleable'),
});
export const CreateReturnRequest = z.object({
  sale_id: Id,
  lines: z.array(ReturnLineInput).min(1).max(500),
  refund_method: SalePaymentMethod.optional(),
  reason: OptionalText(500).default(''),
  client_mutation_id: MutationId.optional(),
  approval_id: Id.optional().describe(
    'a refund_tender approval, needed to refund to another tender than the sale was paid with',
  ),
});
export const ReturnLine = z.object({
  id: z.string(),
  sale_line_id: z.string(),
  medicine_id: z.string(),
  medicine_name: z.string(),
  quantity: z.number().int(),
  condition: z.string(),
  net_amount: DecimalString,
  vat_amount: DecimalString,
  refund_amount: DecimalString,
  vat_rate: z.number(),
  batches: z.array(z.object({ batch_id: z.string(), quantity: z.number().int(), restocked: z.boolean() })),
});
export type SaleReturn = z.infer<typeof SaleReturn>;
export const SaleReturn = z.object({
  id: z.string(),
  sale_id: z.string(),
  invoice_number: z.string(),
  branch_id: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  session_id: z.string().nullable(),
  device_id: z.string(),
  credit_note_number: z.string(),
  uuid: z.string(),
  icv: z.number().int(),
  client_mutation_id: z.string(),
  refund_method: z.string(),
  reason: z.string(),
  subtotal_amount: DecimalString,
  vat_amount: DecimalString,
  total_amount: DecimalString,
  currency_code: z.string(),
  base_total_amount: DecimalString,
  customer_id: z.string().nullable(),
  fiscal_status: z.string(),
  fiscal_hash: z.string(),
  previous_hash: z.string(),
  fiscal_xml: z.string(),
  sync_status: z.string().describe('pending until head office has the return, then synced'),
  created_at: Timestamp,
  lines: z.array(ReturnLine),
});
export const ReturnListQuery = PageQuery.extend({
  branch_id: Id.optional(),
  sale_id: Id.optional(),
  from: IsoDate.optional(),
  to: IsoDate.optional(),
});
export const ReturnParams = z.object({ returnId: Id });
export const ReturnLookupParams = z.object({ invoiceNumber: z.string().trim().min(1).max(64) });
export const ReturnLookup = SaleDetail.extend({
  lines_returnable: z.array(
    z.object({
      sale_line_id: z.string(),
      medicine_id: z.string(),
      medicine_name: z.string(),
      quantity: z.number().int(),
      returned_quantity: z.number().int(),
      returnable_quantity: z.number().int(),
      unit_refund: DecimalString.describe('line total / quantity, for display'),
    }),
  ),
});

// ---------------------------------------------------------------- parked carts

export const ParkedItem = z.object({
  medicine_id: Id,
  quantity: Qty,
  unit_price: MoneyInput.optional(),
  discount: MoneyInput.optional(),
  name: OptionalText(200).optional(),
});
export const ParkCartRequest = z.object({
  label: Text(100),
  items: z.array(ParkedItem).min(1).max(500),
  customer_id: Id.nullish(),
  notes: OptionalText(500).default(''),
});
export type ParkedCart = z.infer<typeof ParkedCart>;
export const ParkedCart = z.object({
  id: z.string(),
  branch_id: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  label: z.string(),
  customer_id: z.string().nullable(),
  items: z.array(ParkedItem),
  notes: z.string(),
  status: z.enum(['parked', 'recalled', 'voided']),
  recalled_by: z.string().nullable(),
  recalled_at: Timestamp.nullable(),
  voided_by: z.string().nullable(),
  voided_at: Timestamp.nullable(),
  void_reason: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const ParkedListQuery = PageQuery.extend({
  status: z.enum(['parked', 'recalled', 'voided', 'all']).default('parked'),
  branch_id: Id.optional(),
});
export const ParkedParams = z.object({ parkedId: Id });
export const VoidParkedRequest = z.object({ reason: Text(300) });

// ---------------------------------------------------------------- coupons

const CouponFields = {
  code: CouponCode,
  description: OptionalText(300),
  discount_type: z.enum(['percent', 'fixed']),
  discount_value: PositiveMoney.describe(
    'percent (at most 2 decimals, at most 100) or a base-currency amount',
  ),
  max_discount: PositiveMoney.nullable().describe('cap of a percent coupon, base currency'),
  min_subtotal: MoneyInput.describe('minimum basket (after line discounts), base currency'),
  starts_at: Timestamp.nullable(),
  ends_at: Timestamp.nullable(),
  usage_limit: z.number().int().min(1).max(1_000_000_000).nullable(),
  per_customer_limit: z.number().int().min(1).max(1_000_000).nullable(),
  is_active: z.boolean(),
};
const IsoTimestampInput = z
  .string()
  .max(40)
  .refine((s) => !Number.isNaN(Date.parse(s)), { message: 'must be an ISO-8601 timestamp' });
export const CreateCouponRequest = z.object({
  ...CouponFields,
  description: CouponFields.description.default(''),
  max_discount: CouponFields.max_discount.optional(),
  min_subtotal: CouponFields.min_subtotal.default(0),
  starts_at: IsoTimestampInput.nullish(),
  ends_at: IsoTimestampInput.nullish(),
  usage_limit: CouponFields.usage_limit.optional(),
  per_customer_limit: CouponFields.per_customer_limit.optional(),
  is_active: CouponFields.is_active.default(true),
});
export const UpdateCouponRequest = z
  .object({
    ...CouponFields,
    starts_at: IsoTimestampInput.nullable(),
    ends_at: IsoTimestampInput.nullable(),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'No fields to update' });
export type Coupon = z.infer<typeof Coupon>;
export const Coupon = z.object({
  id: z.string(),
  code: z.string(),
  description: z.string(),
  discount_type: z.enum(['percent', 'fixed']),
  discount_value: DecimalString,
  max_discount: DecimalString.nullable(),
  min_subtotal: DecimalString,
  starts_at: Timestamp.nullable(),
  ends_at: Timestamp.nullable(),
  usage_limit: z.number().int().nullable(),
  per_customer_limit: z.number().int().nullable(),
  used_count: z.number().int(),
  is_active: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const CouponListQuery = PageQuery.extend({
  search: z.string().trim().max(40).optional(),
  active: z.enum(['true', 'false', 'all']).default('all'),
});
export const CouponParams = z.object({ couponId: Id });
export const CouponCodeParams = z.object({ code: z.string().trim().min(1).max(40) });
export const CouponValidateQuery = z.object({
  subtotal: z.coerce.number().finite().min(0).max(1_000_000_000_000).optional(),
  customer_id: Id.optional(),
});
export const CouponValidation = z.object({
  valid: z.boolean(),
  reason: z
    .string()
    .nullable()
    .describe(
      'why the coupon does not apply: INACTIVE, NOT_STARTED, EXPIRED, MIN_SUBTOTAL, USAGE_LIMIT, CUSTOMER_LIMIT',
    ),
  discount_amount: DecimalString.describe(
    'the discount on the given subtotal (0 when not valid or no subtotal)',
  ),
  coupon: Coupon,
});

// ---------------------------------------------------------------- customers

export type Customer = z.infer<typeof Customer>;
export const Customer = z.object({
  id: z.string(),
  name: z.string(),
  phone: z.string(),
  national_id: z.string(),
  notes: z.string(),
  credit_limit: DecimalString,
  is_credit_allowed: z.boolean(),
  current_balance: DecimalString,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const CreateCustomerRequest = z.object({
  name: Text(200),
  phone: OptionalText(40).default(''),
  national_id: OptionalText(40).default(''),
  notes: OptionalText(1000).default(''),
  credit_limit: MoneyInput.default(0),
  is_credit_allowed: z.boolean({ message: 'must be true or false' }).default(false),
});
export const UpdateCustomerRequest = z
  .object({
    name: Text(200),
    phone: OptionalText(40),
    national_id: OptionalText(40),
    notes: OptionalText(1000),
    credit_limit: MoneyInput,
    is_credit_allowed: z.boolean({ message: 'must be true or false' }),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'No fields to update' });
export const CustomerListQuery = PageQuery.extend({
  page_size: PageQuery.shape.page_size.default(20),
  search: z.string().trim().max(100).optional(),
});
export const CustomerParams = z.object({ customerId: Id });
export type CustomerLedgerRow = z.infer<typeof CustomerLedgerRow>;
export const CustomerLedgerRow = z.object({
  id: z.string(),
  customer_id: z.string(),
  branch_id: z.string().nullable(),
  transaction_type: z
    .string()
    .describe('SALE (charge), PAYMENT, REFUND; amount is positive, balance_after shows the effect'),
  amount: DecimalString,
  balance_after: DecimalString,
  reference_type: z.string().nullable(),
  reference_id: z.string().nullable(),
  notes: z.string(),
  created_by: z.string().nullable(),
  created_by_name: z.string().nullable(),
  created_at: Timestamp,
});
export const CustomerLedgerQuery = z.object({
  page: PageQuery.shape.page,
  page_size: PageQuery.shape.page_size.default(20),
});
export const CustomerPaymentRequest = z.object({
  amount: MoneyInput,
  notes: OptionalText(500).default(''),
});
export const CustomerPaymentResult = z.object({
  ledger_id: z.string(),
  amount_paid: DecimalString,
  previous_balance: DecimalString,
  new_balance: DecimalString,
});
