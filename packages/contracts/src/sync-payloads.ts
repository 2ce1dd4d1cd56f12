import { z } from 'zod';
import { ApprovalKind, ApprovalStatus } from './approvals';
import { IsoDate, OptionalText, Text } from './common';
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
