import { z } from 'zod';
import { ApprovalKind, ApprovalStatus } from './approvals';
import { IsoDate, OptionalText, Text } from './common';
import { MOVEMENT_TYPES } from './medicines';
import { PURCHASE_ORDER_STATUSES } from './purchase-orders';
import { SALE_PAYMENT_METHODS } from './sales';
import { RegulatorStatus } from './stock';

/**
 * What central checks in a change a till pushes, before it decides anything else (modules/sync/gate.ts): the
 * same text, length, enum and number rules as the REST body that makes the row. A row travels as its table's
 * columns (money in integer minor units, booleans as 0/1), so these schemas are the row's shape with the REST
 * body's field rules; columns they do not name pass through and meet the table's own constraints.
 */

/** How deep a pushed payload may nest (a sale with its lines is 3): deeper is refused at parse. */
export const MAX_PAYLOAD_DEPTH = 16;
/** The longest text any pushed field may carry (the longest REST text is 10,000 characters). */
export const MAX_PAYLOAD_TEXT = 20_000;

// biome-ignore lint/suspicious/noControlCharactersInRegex: the point is to refuse control characters
const CONTROL_CHARACTERS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;

/** The depth of a JSON value, walked without recursion (a hostile payload may nest 200,000 deep). */
export function payloadDepth(value: unknown): number {
  let deepest = 0;
  const stack: Array<{ v: unknown; d: number }> = [{ v: value, d: 0 }];
  while (stack.length > 0) {
    const { v, d } = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    deepest = Math.max(deepest, d + 1);
    if (deepest > MAX_PAYLOAD_DEPTH) return deepest;
    for (const child of Array.isArray(v) ? v : Object.values(v)) stack.push({ v: child, d: d + 1 });
  }
  return deepest;
}

/**
 * The first text of a payload (at any depth) that no REST body would take: control characters (ESC/POS
 * commands on a receipt), or longer than MAX_PAYLOAD_TEXT. Null when every text is plain.
 */
export function payloadTextProblem(value: unknown): { path: string; message: string } | null {
  const stack: Array<{ v: unknown; path: string }> = [{ v: value, path: '' }];
  while (stack.length > 0) {
    const { v, path } = stack.pop()!;
    if (typeof v === 'string') {
      if (CONTROL_CHARACTERS.test(v)) return { path, message: 'must not contain control characters' };
      if (v.length > MAX_PAYLOAD_TEXT)
        return { path, message: `must be at most ${MAX_PAYLOAD_TEXT} characters` };
    } else if (v !== null && typeof v === 'object') {
      for (const [k, child] of Object.entries(v)) stack.push({ v: child, path: path ? `${path}.${k}` : k });
    }
  }
  return null;
}

/** A pushed change's payload: an object nested at most MAX_PAYLOAD_DEPTH deep. */
export const SyncPayload = z
  .record(z.string(), z.unknown())
  .refine((p) => payloadDepth(p) <= MAX_PAYLOAD_DEPTH, {
    message: `must not nest deeper than ${MAX_PAYLOAD_DEPTH} levels`,
  });

const RowId = z.string().min(1).max(200);
const Minor = z.number().int({ message: 'must be a whole number of minor units' });
const MinorAmount = Minor.min(0, { message: 'must not be negative' }).max(1e15, { message: 'is too large' });
const Flag = z.union([z.literal(0), z.literal(1)], { message: 'must be 0 or 1' });
const NullableId = RowId.nullable().optional();

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

/** An approval row: CreateApprovalRequest's kind and reason, a known status. */
export const ApprovalPayload = z.looseObject({
  id: RowId,
  branch_id: RowId,
  kind: ApprovalKind,
  status: ApprovalStatus,
  reason: OptionalText(500).optional(),
  decision_reason: OptionalText(500).nullable().optional(),
  requested_by: RowId,
  decided_by: NullableId,
  decided_at_device: NullableId,
});

/** A manager's sign-in at a till, backing a decision the till carries for them (issue 26 H2). */
export const DeviceSignInPayload = z.looseObject({
  id: RowId,
  branch_id: RowId,
  device_id: RowId,
  user_id: RowId,
  approval_id: NullableId,
  customer_id: NullableId,
  method: z.enum(['override', 'session'], { message: 'must be override or session' }),
  signed_in_at: z.string().min(1).max(40),
});

/** A batch row: ReceiveRequest's batch number, expiry and cost, a known regulator status. */
export const BatchPayload = z.looseObject({
  id: RowId,
  branch_id: RowId,
  medicine_id: RowId,
  batch_number: Text(100),
  expiry_date: IsoDate,
  unit_cost: MinorAmount.optional(),
  regulator_status: RegulatorStatus.optional(),
  received_by: NullableId,
});

/** A coupon redemption: the discount a pushed sale took, above zero. */
export const CouponRedemptionPayload = z.looseObject({
  id: RowId,
  coupon_id: RowId,
  sale_id: RowId,
  amount: MinorAmount.min(1, { message: 'must be above zero' }),
});

const Quantity = z
  .number()
  .int({ message: 'must be a whole number' })
  .min(1, { message: 'must be at least 1' });
const Count = z
  .number()
  .int({ message: 'must be a whole number' })
  .min(0, { message: 'must not be negative' });
const SignedQuantity = z.number().int({ message: 'must be a whole number' });
const Stamp = z.string().min(1).max(40);
const Notes = OptionalText(1000);
const PaymentMethod = z.enum(SALE_PAYMENT_METHODS, { message: 'must be a known payment method' });

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

/** A stock movement: a known type, a whole signed quantity, a plain reason. */
export const StockMovementPayload = z.looseObject({
  id: RowId,
  batch_id: RowId,
  branch_id: RowId,
  medicine_id: RowId,
  type: z.enum(MOVEMENT_TYPES, { message: 'must be a known movement type' }),
  quantity: SignedQuantity,
  reason: OptionalText(500).optional(),
  user_id: NullableId,
});

/** A stock count with its lines: whole counted quantities, never negative. */
export const StockCountPayload = z.looseObject({
  id: RowId,
  branch_id: RowId,
  counted_by: RowId,
  notes: Notes.optional(),
  lines: z
    .array(
      z.looseObject({
        id: RowId,
        stock_count_id: RowId,
        batch_id: RowId,
        medicine_id: RowId,
        expected_qty: Count,
        counted_qty: Count,
        variance: SignedQuantity,
      }),
    )
    .max(10_000)
    .optional(),
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

/** A prescription: CreatePrescriptionRequest's patient and prescriber rules, real dates. */
export const PrescriptionPayload = z.looseObject({
  id: RowId,
  branch_id: RowId,
  patient_name: Text(200),
  patient_id_number: OptionalText(60).optional(),
  patient_phone: OptionalText(40).optional(),
  prescriber_name: Text(200),
  prescriber_licence_no: OptionalText(60).optional(),
  prescriber_facility: OptionalText(200).optional(),
  issue_date: IsoDate,
  valid_until: IsoDate,
  status: z.enum(['active', 'partially_dispensed', 'ready', 'dispensed', 'cancelled'], {
    message: 'must be a known prescription status',
  }),
  notes: Notes.optional(),
});

/** A prescription item: a whole quantity per fill, refills used never above those allowed. */
export const PrescriptionItemPayload = z
  .looseObject({
    id: RowId,
    prescription_id: RowId,
    branch_id: RowId,
    medicine_id: RowId,
    quantity: Quantity,
    dosage: OptionalText(500).optional(),
    refills_allowed: Count,
    refills_used: Count,
    dispensed_quantity: Count.optional(),
    total_dispensed: Count.optional(),
  })
  .refine((i) => i.refills_used <= i.refills_allowed, {
    message: 'uses more fills than the prescription allows',
    path: ['refills_used'],
  });

/** A dispensing (a line of the prescription book): a whole positive quantity. */
export const DispensingPayload = z.looseObject({
  id: RowId,
  prescription_id: RowId,
  prescription_item_id: RowId,
  branch_id: RowId,
  medicine_id: RowId,
  quantity: Quantity,
  fill_number: Count,
  notes: OptionalText(500).optional(),
});

/** A will-call bin entry and, once picked up, who collected it. */
export const WillCallPayload = z.looseObject({
  id: RowId,
  prescription_id: RowId,
  branch_id: RowId,
  bin_location: OptionalText(60).optional(),
  notes: OptionalText(500).optional(),
  collected_by_name: OptionalText(200).nullable().optional(),
  collector_relationship: OptionalText(60).nullable().optional(),
  collector_id_number: OptionalText(60).nullable().optional(),
});

/** A refill reminder: a real due date and a plain contact. */
export const RefillReminderPayload = z.looseObject({
  id: RowId,
  branch_id: RowId,
  medicine_id: RowId,
  patient_name: OptionalText(200).optional(),
  due_date: IsoDate,
  contact: OptionalText(200).optional(),
  notes: OptionalText(500).optional(),
});

/** A purchase order: a known status, plain notes. */
export const PurchaseOrderPayload = z.looseObject({
  id: RowId,
  supplier_id: RowId,
  branch_id: RowId,
  status: z.enum(PURCHASE_ORDER_STATUSES, { message: 'must be a known order status' }),
  expected_date: IsoDate.nullable().optional(),
  notes: Notes.optional(),
  cancel_reason: OptionalText(500).nullable().optional(),
});

/** A purchase order item: a whole quantity ordered, received never negative, a cost in minor units. */
export const PurchaseOrderItemPayload = z.looseObject({
  id: RowId,
  purchase_order_id: RowId,
  branch_id: RowId,
  medicine_id: RowId,
  ordered_qty: Quantity,
  received_qty: Count,
  agreed_unit_cost: MinorAmount,
});

/** A delivery line against an order: a whole positive quantity at a cost in minor units. */
export const PurchaseOrderReceiptPayload = z.looseObject({
  id: RowId,
  purchase_order_id: RowId,
  branch_id: RowId,
  item_id: RowId,
  batch_id: RowId,
  movement_id: RowId,
  quantity: Quantity,
  unit_cost: MinorAmount,
});

/** A transfer with its items: whole positive quantities of real batches. */
export const TransferPayload = z.looseObject({
  id: RowId,
  from_branch_id: RowId,
  to_branch_id: RowId,
  notes: Notes.optional(),
  cancel_reason: OptionalText(500).optional(),
  items: z
    .array(
      z.looseObject({
        id: RowId,
        transfer_id: RowId,
        medicine_id: RowId,
        from_batch_id: RowId,
        batch_number: Text(100),
        expiry_date: IsoDate,
        quantity: Quantity,
        unit_cost: MinorAmount,
      }),
    )
    .max(1000)
    .optional(),
  movements: z.array(StockMovementPayload).max(1000).optional(),
});

/** The destination's receipt of a transfer: received quantities never negative. */
export const TransferReceiptPayload = z.looseObject({
  id: RowId,
  transfer_id: RowId,
  branch_id: RowId,
  notes: Notes.optional(),
  lines: z
    .array(
      z.looseObject({
        id: RowId,
        receipt_id: RowId,
        transfer_item_id: RowId,
        received_quantity: Count,
        discrepancy_reason: z.enum(['short', 'damaged']).nullable().optional(),
      }),
    )
    .max(1000)
    .optional(),
  movements: z.array(StockMovementPayload).max(1000).optional(),
});

/** A will-call reservation: a whole positive quantity of a batch, held until sold or released. */
export const StockReservationPayload = z.looseObject({
  id: RowId,
  branch_id: RowId,
  batch_id: RowId,
  medicine_id: RowId,
  prescription_id: RowId,
  quantity: Quantity,
  status: z.enum(['held', 'sold', 'released'], { message: 'must be held, sold or released' }),
  sale_id: NullableId,
});
