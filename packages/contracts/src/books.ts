import { z } from 'zod';
import { Id, IsoDate, Timestamp } from './common';

/**
 * Books: a branch's day as a till holds it and as head office holds it, compared kind by kind (issue 28).
 * Amounts are integer minor units of the base currency.
 */
export const BOOK_KINDS = [
  'sales',
  'returns',
  'customer_payments',
  'supplier_payments',
  'fiscal_documents',
] as const;
export const BookKind = z.enum(BOOK_KINDS);
export type BookKind = z.infer<typeof BookKind>;

/** One record behind a figure: its id, what a person calls it, its amount, and (fiscal documents) its hash. */
export const BookRecord = z.object({
  id: z.string().max(100),
  label: z.string().max(200),
  amount: z.number().int(),
  fingerprint: z.string().max(200).optional(),
});
export type BookRecord = z.infer<typeof BookRecord>;

export const BookFigures = z.object({
  count: z.number().int().nonnegative(),
  total: z.number().int(),
  records: z.array(BookRecord).max(50_000),
});
export type BookFigures = z.infer<typeof BookFigures>;

/** One side's figures of a branch's local day. */
export const DayBook = z.object({
  branch_id: Id,
  day: IsoDate,
  kinds: z.object({
    sales: BookFigures,
    returns: BookFigures,
    customer_payments: BookFigures,
    supplier_payments: BookFigures,
    fiscal_documents: BookFigures,
  }),
});
export type DayBook = z.infer<typeof DayBook>;

const Totals = z.object({ count: z.number().int(), total: z.number().int() });

/** One kind compared: both sides' totals and the records that differ, by the label a person reads. */
export const BookKindComparison = z.object({
  kind: BookKind,
  till: Totals,
  central: Totals,
  missing_at_central: z.array(z.string()),
  missing_at_till: z.array(z.string()),
  differing: z.array(z.string()),
  agree: z.boolean(),
});
export type BookKindComparison = z.infer<typeof BookKindComparison>;

export const BooksComparison = z.object({
  branch_id: Id,
  day: IsoDate,
  device_id: z.string().nullable(),
  device_name: z.string().nullable(),
  checked_at: Timestamp.nullable(),
  /** False while the till has not reported this day (central's side only). */
  reported: z.boolean(),
  agree: z.boolean(),
  kinds: z.array(BookKindComparison),
});
export type BooksComparison = z.infer<typeof BooksComparison>;

export const BooksQuery = z.object({
  branch_id: Id.optional().describe('central only; default every branch the caller may see'),
  date: IsoDate.optional().describe("the branch's local day, YYYY-MM-DD; default today"),
});

export const BooksReport = z.object({
  mode: z.enum(['till', 'central']),
  /** null: every branch (central, asked without one), or a till that does not know its branch. */
  branch_id: Id.nullable(),
  day: IsoDate,
  comparisons: z.array(BooksComparison),
  /** Why the comparison could not be made now (a till offline, not connected), in words; null when it was. */
  unavailable: z.string().nullable(),
  /** A till's changes still waiting to be sent: records among them show as missing at head office until sent. */
  pending: z.number().int(),
});
export type BooksReport = z.infer<typeof BooksReport>;

/** A till's figures of one day, sent to head office (device credential). */
export const BooksDigestRequest = z.object({ device_id: Id, book: DayBook });

/** Branches whose books differ from a till's on some recent day (the dashboard's warning). */
export const BooksWarnings = z.object({
  items: z.array(
    z.object({
      branch_id: Id,
      branch_name: z.string(),
      day: IsoDate,
      device_id: z.string(),
      device_name: z.string().nullable(),
      checked_at: Timestamp,
    }),
  ),
});
export type BooksWarnings = z.infer<typeof BooksWarnings>;
