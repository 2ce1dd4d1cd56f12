import { z } from 'zod';
import { OptionalText, Text } from './common';
import {
  RowId,
  Minor,
  MinorAmount,
  Flag,
  NullableId,
  Quantity,
  Count,
  Stamp,
  Notes,
  PaymentMethod,
} from './sync-payload-fields';

/**
 * The counter's rows as a till pushes them (sales with their lines and payments, returns, coupon redemptions,
 * cash sessions and tender declarations, parked carts, customers and their ledgers): see sync-payloads.ts.
 */

/** A coupon redemption: the discount a pushed sale took, above zero. */
export const CouponRedemptionPayload = z.looseObject({
  id: RowId,
  coupon_id: RowId,
  sale_id: RowId,
  amount: MinorAmount.min(1, { message: 'must be above zero' }),
});

/** A sale line as it travels inside its sale: positive quantity, amounts in minor units, returns within it. */
const SaleLinePayload = z
  .looseObject({
    id: RowId,
    sale_id: RowId,
    medicine_id: RowId,
    medicine_name: Text(300),
    quantity: Quantity,
    unit_price: MinorAmount,
    line_discount: MinorAmount.optional(),
    allocated_discount: MinorAmount.optional(),
    net_amount: MinorAmount,
    vat_amount: MinorAmount,
    line_total: MinorAmount,
    returned_quantity: Count.optional(),
  })
  .refine((l) => (l.returned_quantity ?? 0) <= l.quantity, {
    message: 'returns more than the line sold',
    path: ['returned_quantity'],
  });

/** A sale payment line: a known method, an amount in minor units. */
const SalePaymentLinePayload = z.looseObject({
  id: RowId,
  sale_id: RowId,
  method: PaymentMethod,
  amount: MinorAmount,
  base_amount: MinorAmount.optional(),
  reference: OptionalText(100).optional(),
});

/** A sale as a till pushes it: POST /sales's rules on its totals, lines and payments. */
export const SalePayload = z.looseObject({
  id: RowId,
  branch_id: RowId,
  user_id: RowId,
  device_id: RowId,
  session_id: NullableId,
  invoice_number: Text(60),
  icv: Count,
  subtotal_amount: MinorAmount,
  line_discount_amount: MinorAmount.optional(),
  global_discount: MinorAmount.optional(),
  coupon_discount: MinorAmount.optional(),
  vat_amount: MinorAmount,
  total_amount: MinorAmount,
  paid_amount: MinorAmount,
  change_amount: MinorAmount,
  currency_code: z.string().regex(/^[A-Z]{3}$/, { message: 'must be a currency code' }),
  payment_method: z.union([PaymentMethod, z.literal('split')], { message: 'must be a known payment method' }),
  notes: Notes.optional(),
  coupon_code: OptionalText(40).nullable().optional(),
  sold_at: Stamp,
  lines: z.array(SaleLinePayload).min(1, { message: 'must hold at least one line' }).max(500).optional(),
  payments: z.array(SalePaymentLinePayload).max(20).optional(),
});

/** A return (credit note) with its lines: a refund in minor units, a known refund method. */
export const ReturnPayload = z.looseObject({
  id: RowId,
  sale_id: RowId,
  branch_id: RowId,
  user_id: RowId,
  device_id: RowId,
  credit_note_number: Text(60),
  refund_method: PaymentMethod,
  reason: OptionalText(500).optional(),
  subtotal_amount: MinorAmount,
  vat_amount: MinorAmount,
  total_amount: MinorAmount,
  lines: z
    .array(
      z.looseObject({
        id: RowId,
        return_id: RowId,
        sale_line_id: RowId,
        quantity: Quantity,
        condition: z.enum(['resaleable', 'damaged', 'expired'], {
          message: 'must be resaleable, damaged or expired',
        }),
        refund_amount: MinorAmount,
      }),
    )
    .max(500)
    .optional(),
});

/** A cash session: a known status, float and counts in minor units. */
export const CashSessionPayload = z.looseObject({
  id: RowId,
  user_id: RowId,
  branch_id: RowId,
  device_id: RowId,
  opening_float: MinorAmount,
  status: z.enum(['open', 'on_break', 'closed'], { message: 'must be open, on_break or closed' }),
  break_minutes: Count.optional(),
  counted_cash: MinorAmount.nullable().optional(),
  expected_cash: Minor.nullable().optional(),
  variance: Minor.nullable().optional(),
  z_number: Count.nullable().optional(),
  notes: OptionalText(500).optional(),
});

/** A tender declaration (cash drop or count) of a session. */
export const TenderDeclarationPayload = z.looseObject({
  id: RowId,
  session_id: RowId,
  user_id: RowId,
  branch_id: RowId,
  amount: MinorAmount,
  notes: OptionalText(500).optional(),
});

/** A parked cart: a plain label and notes, a known status. */
export const ParkedCartPayload = z.looseObject({
  id: RowId,
  branch_id: RowId,
  user_id: RowId,
  label: Text(100),
  notes: OptionalText(500).optional(),
  status: z.enum(['parked', 'recalled', 'voided'], { message: 'must be parked, recalled or voided' }),
  void_reason: OptionalText(300).nullable().optional(),
});

/** A customer row as a till pushes it: CreateCustomerRequest's text rules, credit in minor units. */
export const CustomerPayload = z.looseObject({
  id: RowId,
  name: Text(200),
  phone: OptionalText(40).optional(),
  national_id: OptionalText(40).optional(),
  notes: OptionalText(1000).optional(),
  credit_limit: MinorAmount.optional(),
  is_credit_allowed: Flag.optional(),
  credit_terms_by: NullableId,
});

/** A customer ledger row: one charge (SALE), payment or refund, a positive amount. */
export const CustomerLedgerPayload = z.looseObject({
  id: RowId,
  customer_id: RowId,
  branch_id: RowId,
  transaction_type: z.enum(['SALE', 'PAYMENT', 'REFUND'], { message: 'must be SALE, PAYMENT or REFUND' }),
  amount: MinorAmount.min(1, { message: 'must be above zero' }),
  reference_type: z.enum(['sale', 'return']).nullable().optional(),
  reference_id: NullableId,
  notes: OptionalText(1000).optional(),
  created_by: NullableId,
});
