import { APPROVAL_BOUNDS, type ApprovalBounds } from '@pharmacy/contracts';
import type { z } from 'zod';
import { Forbidden } from '../../lib/errors';
import { formatMinor, toMinor } from '../../lib/money';

/**
 * What an operation does that needs an approval, in the terms its approval kind bounds. Amounts are minor units
 * of the operation's currency (`exponent`).
 */
export interface SaleApprovalNeeds {
  currency_code: string;
  exponent: number;
  /** Lines priced below the catalogue. */
  price_overrides: Array<{
    medicine_id: string;
    medicine_name: string;
    quantity: number;
    unit_price: number;
  }>;
  /** Lines whose discount is above the threshold. */
  discounts: Array<{ medicine_id: string; medicine_name: string; quantity: number; discount: number }>;
  /** The global discount when it is above the threshold, else 0. */
  global_discount: number;
}

export interface StockVarianceNeeds {
  /** The variances above the threshold. */
  variances: Array<{ batch_id: string; batch_number: string; variance: number }>;
}

export interface RefundTenderNeeds {
  sale_id: string;
  /** The tenders the sale was paid with. */
  paid_methods: string[];
  to_method: string;
  amount: number;
  exponent: number;
}

export type ApprovalOperation =
  | ({ kind: 'price_override' | 'discount' } & SaleApprovalNeeds)
  | ({ kind: 'stock_variance' } & StockVarianceNeeds)
  | ({ kind: 'refund_tender' } & RefundTenderNeeds);
// return_without_receipt and void approvals have no consumer yet: nothing can use them.

/**
 * Throws 403 APPROVAL_MISMATCH unless the approval's recorded bounds cover everything the operation does that
 * needs approval. `payload` is the approval's stored payload; the kind was checked by the caller.
 */
export function assertApprovalCovers(approvalId: string, payload: unknown, op: ApprovalOperation): void {
  const why = mismatchOf(payload, op);
  if (why)
    throw new Forbidden(
      `Approval ${approvalId} does not cover this: ${why}. Ask for an approval of what you do.`,
      'APPROVAL_MISMATCH',
    );
}

function mismatchOf(payload: unknown, op: ApprovalOperation): string | null {
  switch (op.kind) {
    case 'price_override':
      return withBounds(APPROVAL_BOUNDS.price_override, payload, (b) => priceOverrideMismatch(b, op));
    case 'discount':
      return withBounds(APPROVAL_BOUNDS.discount, payload, (b) => discountMismatch(b, op));
    case 'stock_variance':
      return withBounds(APPROVAL_BOUNDS.stock_variance, payload, (b) => stockVarianceMismatch(b, op));
    case 'refund_tender':
      return withBounds(APPROVAL_BOUNDS.refund_tender, payload, (b) => refundTenderMismatch(b, op));
  }
}

function withBounds<S extends z.ZodType>(
  schema: S,
  payload: unknown,
  check: (bounds: z.output<S>) => string | null,
): string | null {
  const parsed = schema.safeParse(payload);
  return parsed.success ? check(parsed.data) : 'it does not record what it allows';
}

const sum = (ns: number[]) => ns.reduce((a, n) => a + n, 0);

function currencyMismatch(b: { currency_code?: string | undefined }, op: SaleApprovalNeeds): string | null {
  return b.currency_code === op.currency_code
    ? null
    : `its amounts are in ${b.currency_code ?? 'no currency'}, the sale is in ${op.currency_code}`;
}

/** Every line is of the approved medicine, and together they have at most the approved units. */
function linesMismatch(
  b: { medicine_id?: string | undefined; quantity?: number | undefined },
  lines: Array<{ medicine_id: string; medicine_name: string; quantity: number }>,
): string | null {
  const other = lines.find((l) => l.medicine_id !== b.medicine_id);
  if (other) return `it is not for ${other.medicine_name}`;
  const units = sum(lines.map((l) => l.quantity));
  if (b.quantity !== undefined && units > b.quantity)
    return `it allows ${b.quantity} unit${b.quantity === 1 ? '' : 's'}, the sale has ${units}`;
  return null;
}

function priceOverrideMismatch(b: ApprovalBounds<'price_override'>, op: SaleApprovalNeeds): string | null {
  const currency = currencyMismatch(b, op);
  if (currency) return currency;
  if (op.discounts.length > 0 || op.global_discount > 0)
    return 'it allows a price, and the sale also has a discount that needs approval';
  const lines = linesMismatch(b, op.price_overrides);
  if (lines) return lines;
  const floor = toMinor(b.unit_price, op.exponent, 'payload.unit_price');
  const below = op.price_overrides.find((l) => l.unit_price < floor);
  const fmt = (n: number) => formatMinor(n, op.exponent);
  return below ? `it allows ${below.medicine_name} at ${fmt(floor)}, not ${fmt(below.unit_price)}` : null;
}

function discountMismatch(b: ApprovalBounds<'discount'>, op: SaleApprovalNeeds): string | null {
  const currency = currencyMismatch(b, op);
  if (currency) return currency;
  if (op.price_overrides.length > 0)
    return 'it allows a discount, and the sale also has a price below the catalogue that needs approval';
  const max = toMinor(b.max_discount, op.exponent, 'payload.max_discount');
  const fmt = (n: number) => formatMinor(n, op.exponent);
  if (b.medicine_id === undefined) {
    const line = op.discounts[0];
    if (line) return `it allows a discount on the whole sale, not on ${line.medicine_name}`;
    return op.global_discount > max
      ? `it allows a global discount of at most ${fmt(max)}, not ${fmt(op.global_discount)}`
      : null;
  }
  if (op.global_discount > 0) return 'it allows a discount on one medicine, not a global discount';
  const lines = linesMismatch(b, op.discounts);
  if (lines) return lines;
  const given = sum(op.discounts.map((l) => l.discount));
  return given > max ? `it allows a discount of at most ${fmt(max)}, not ${fmt(given)}` : null;
}

function stockVarianceMismatch(b: ApprovalBounds<'stock_variance'>, op: StockVarianceNeeds): string | null {
  if (op.variances.length > 1)
    return `it allows one batch, and ${op.variances.length} variances exceed the threshold`;
  const v = op.variances[0];
  if (!v) return null;
  if (v.batch_id !== b.batch_id) return `it is not for batch ${v.batch_number}`;
  if (Math.sign(v.variance) !== Math.sign(b.variance) || Math.abs(v.variance) > Math.abs(b.variance))
    return `it allows a variance of ${b.variance} on batch ${v.batch_number}, not ${v.variance}`;
  return null;
}

function refundTenderMismatch(b: ApprovalBounds<'refund_tender'>, op: RefundTenderNeeds): string | null {
  if (b.sale_id !== op.sale_id) return `it is for sale ${b.sale_id}`;
  if (!op.paid_methods.includes(b.from_method)) return `the sale was not paid by ${b.from_method}`;
  if (b.to_method !== op.to_method) return `it allows a refund by ${b.to_method}, not by ${op.to_method}`;
  const max = toMinor(b.max_amount, op.exponent, 'payload.max_amount');
  if (op.amount > max)
    return `it allows a refund of at most ${formatMinor(max, op.exponent)}, not ${formatMinor(op.amount, op.exponent)}`;
  return null;
}
