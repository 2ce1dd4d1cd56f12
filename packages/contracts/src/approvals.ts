import { z } from 'zod';
import { Id, MoneyInput, OptionalText, PageQuery, Text, Timestamp } from './common';
import { SalePaymentMethod } from './sales';

export const APPROVAL_KINDS = [
  'price_override',
  'discount',
  'return_without_receipt',
  'void',
  'stock_variance',
  'refund_tender',
] as const;
export const ApprovalKind = z.enum(APPROVAL_KINDS);
export type ApprovalKind = z.infer<typeof ApprovalKind>;

export const APPROVAL_STATUSES = ['pending', 'approved', 'rejected', 'used'] as const;
export const ApprovalStatus = z.enum(APPROVAL_STATUSES);
export type ApprovalStatus = z.infer<typeof ApprovalStatus>;

// What an approval allows: one bounded payload per kind. The server refuses to use an approval for more
// (403 APPROVAL_MISMATCH).

const BoundQty = z
  .number({ message: 'must be a number' })
  .int({ message: 'must be a whole number' })
  .min(1, { message: 'must be at least 1' })
  .max(1_000_000, { message: 'is too large' });
const BoundCurrency = z
  .string()
  .regex(/^[A-Z]{3}$/, { message: 'must be a three-letter ISO 4217 code' })
  .optional()
  .describe("currency of the amounts; default (and recorded): the branch's selling currency");

export const PriceOverrideBounds = z
  .object({
    medicine_id: Id.describe('the medicine sold below its catalogue price'),
    quantity: BoundQty.describe('at most this many units of it, over all lines of the sale'),
    unit_price: MoneyInput.describe('the lowest unit price allowed'),
    currency_code: BoundCurrency,
  })
  .strict();

export const DiscountBounds = z
  .object({
    medicine_id: Id.optional().describe(
      'the medicine whose line discount is allowed; omit for a discount on the whole sale (global_discount)',
    ),
    quantity: BoundQty.optional().describe('with medicine_id (required then): at most this many units'),
    max_discount: MoneyInput.describe(
      'the largest discount allowed: on the lines of medicine_id together, or the global discount',
    ),
    currency_code: BoundCurrency,
  })
  .strict()
  .superRefine((b, ctx) => {
    if (b.medicine_id !== undefined && b.quantity === undefined)
      ctx.addIssue({ code: 'custom', path: ['quantity'], message: 'is required with medicine_id' });
    if (b.medicine_id === undefined && b.quantity !== undefined)
      ctx.addIssue({ code: 'custom', path: ['medicine_id'], message: 'is required with quantity' });
  });

export const ReturnWithoutReceiptBounds = z
  .object({
    medicine_id: Id,
    quantity: BoundQty,
    max_amount: MoneyInput.describe('the largest refund allowed'),
    currency_code: BoundCurrency,
  })
  .strict();

export const VoidBounds = z.object({ sale_id: Id.describe('the one sale that may be voided') }).strict();

export const StockVarianceBounds = z
  .object({
    batch_id: Id.describe('the batch whose count may differ from the books by more than the threshold'),
    variance: z
      .number({ message: 'must be a number' })
      .int({ message: 'must be a whole number' })
      .min(-1_000_000, { message: 'is too large' })
      .max(1_000_000, { message: 'is too large' })
      .refine((v) => v !== 0, { message: 'must not be zero' })
      .describe('counted minus expected units: the count may differ in this direction by at most this much'),
  })
  .strict();

export const RefundTenderBounds = z
  .object({
    sale_id: Id.describe('the sale refunded'),
    from_method: SalePaymentMethod.describe('a tender the sale was paid with'),
    to_method: SalePaymentMethod.describe('the tender the refund goes to'),
    max_amount: MoneyInput.describe("the largest refund allowed, in the sale's currency"),
  })
  .strict()
  .refine((b) => b.from_method !== b.to_method, {
    path: ['to_method'],
    message: 'must differ from from_method (a refund to the tender paid needs no approval)',
  });

export const APPROVAL_BOUNDS = {
  price_override: PriceOverrideBounds,
  discount: DiscountBounds,
  return_without_receipt: ReturnWithoutReceiptBounds,
  void: VoidBounds,
  stock_variance: StockVarianceBounds,
  refund_tender: RefundTenderBounds,
} as const satisfies Record<ApprovalKind, z.ZodType>;
export type ApprovalBounds<K extends ApprovalKind> = z.infer<(typeof APPROVAL_BOUNDS)[K]>;

export const Approval = z.object({
  id: z.string(),
  branch_id: z.string(),
  kind: ApprovalKind,
  payload: z.record(z.string(), z.unknown()),
  reason: z.string(),
  status: ApprovalStatus,
  is_expired: z
    .boolean()
    .describe('pending or approved past expires_at: it can no longer be decided or used'),
  requested_by: z.string(),
  requested_by_name: z.string().nullable(),
  decided_by: z.string().nullable(),
  decided_by_name: z.string().nullable(),
  decision_reason: z.string().nullable(),
  decided_at: Timestamp.nullable(),
  used_by: z.string().nullable(),
  used_at: Timestamp.nullable(),
  decided_at_device: z
    .string()
    .nullable()
    .describe('the till (registered device) a manager decided it at; null when decided at head office'),
  expires_at: Timestamp,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Approval = z.infer<typeof Approval>;

const approvalRequest = <K extends ApprovalKind>(kind: K) =>
  z
    .object({ kind: z.literal(kind), payload: APPROVAL_BOUNDS[kind], reason: Text(500) })
    .strict()
    .describe(`a ${kind} approval`);

export const CreateApprovalRequest = z.discriminatedUnion(
  'kind',
  [
    approvalRequest('price_override'),
    approvalRequest('discount'),
    approvalRequest('return_without_receipt'),
    approvalRequest('void'),
    approvalRequest('stock_variance'),
    approvalRequest('refund_tender'),
  ],
  { message: `must be one of ${APPROVAL_KINDS.join(', ')}` },
);
export type CreateApprovalRequest = z.infer<typeof CreateApprovalRequest>;

export const DecideApprovalRequest = z
  .object({
    status: z.enum(['approved', 'rejected'], { message: 'must be approved or rejected' }),
    reason: Text(500),
  })
  .strict();

export const OverrideApprovalRequest = z
  .object({
    email: z.string().trim().min(1, { message: 'is required' }).max(254),
    password: z.string().min(1, { message: 'is required' }).max(256),
    note: OptionalText(500).optional(),
  })
  .strict();
export type OverrideApprovalRequest = z.infer<typeof OverrideApprovalRequest>;

export const ApprovalParams = z.object({ approvalId: Id });

export const ApprovalListQuery = PageQuery.extend({
  status: z
    .enum([...APPROVAL_STATUSES, 'all'], { message: 'must be pending, approved, rejected, used or all' })
    .default('pending'),
  kind: ApprovalKind.optional(),
  branch_id: Id.optional(),
});
