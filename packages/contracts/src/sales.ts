import { z } from 'zod';
import {
  BoolQuery,
  DecimalString,
  Id,
  IsoDate,
  MoneyInput,
  OptionalText,
  PageQuery,
  Text,
  Timestamp,
} from './common';
import { Collector } from './prescriptions';
import { CouponCode, CurrencyCodeInput, MutationId, PositiveMoney, Qty } from './selling-fields';

import { SALE_PAYMENT_METHODS } from './payment-methods';

export { SALE_PAYMENT_METHODS };
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

/**
 * An emergency supply: a prescription-only (never controlled) medicine handed out without a prescription, by a
 * pharmacist or admin, for the reason given. The sale records it as an emergency-supply prescription, listed in
 * the prescription book.
 */
export const EmergencySupply = z
  .object({
    reason: Text(500).describe('why the medicine is supplied without a prescription'),
    patient_name: Text(200).describe('who it is for'),
  })
  .describe('an emergency supply without a prescription (pharmacist or admin; not for controlled medicines)');

export const CreateSaleRequest = z.object({
  items: z.array(SaleItemInput).min(1, { message: 'must have at least one line' }).max(500),
  payment_method: SalePaymentMethod.optional(),
  payment_lines: z.array(PaymentLineInput).min(1).max(10).optional(),
  customer_id: Id.nullish(),
  coupon_code: CouponCode.nullish(),
  global_discount: MoneyInput.optional(),
  currency_code: CurrencyCodeInput.optional(),
  notes: OptionalText(500).optional(),
  prescription_id: Id.nullish().describe(
    'the prescription the sale dispenses against; required when a line is prescription-only or controlled',
  ),
  emergency_supply: EmergencySupply.nullish(),
  will_call_id: Id.nullish().describe(
    'a will-call pickup: the sale carries each of the entry’s medicines once at the prepared quantity, takes the units reserved at dispensing and hands the entry over (issue 27.1)',
  ),
  collected_by: Collector.nullish().describe(
    'who collects a will-call entry; the ID document number is required when it holds a controlled medicine',
  ),
  client_mutation_id: MutationId.optional(),
  approval_id: Id.nullish(),
  confirm_large_cash: z
    .boolean()
    .optional()
    .describe(
      'the cashier confirmed a cash tender above 20 times the total (never below one largest note, never above 100 of them); without it such a sale is 400 CASH_TENDER_UNCONFIRMED',
    ),
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
  change_currency_code: z
    .string()
    .describe(
      'the currency the change is given in: the sale’s when the branch’s drawers hold it, else the base currency (issue 27.4)',
    ),
  change_given: DecimalString.describe('the change in change_currency_code'),
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

export const SaleReceiptQuery = z.object({
  paper: z.enum(['58mm', '80mm']).default('80mm').describe('Paper width the text is laid out for'),
  copy: BoolQuery.optional().describe('true: the receipt marked COPY, as a reprint prints it'),
});
export const SaleReceiptText = z.object({
  sale_id: z.string(),
  text: z.string().describe('The receipt as the printer prints it, one line per printed line'),
});
export type SaleReceiptText = z.infer<typeof SaleReceiptText>;

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
