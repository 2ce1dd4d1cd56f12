import type { Role, StockCountSheetLine } from '@pharmacy/contracts';
import { mayApproveCount } from '@pharmacy/contracts/roles';

/** A line of the count sheet as GET /stockcount answers it. */
export type SheetLine = StockCountSheetLine;

/** What was typed per batch id; a batch not in the map is not counted yet. */
export type Counts = Record<string, string>;

export interface Variance {
  line: SheetLine;
  counted: number;
  variance: number;
}

/** A counted quantity: a whole number of units, 0 or more; null when it is not one. */
export function countedQty(text: string): number | null {
  const t = text.trim();
  if (!/^\d{1,10}$/.test(t)) return null;
  const n = Number(t);
  return n <= 1_000_000_000 ? n : null;
}

export interface CountSummary {
  total: number;
  counted: number;
  /** Batch ids whose typed quantity is not a whole number of units. */
  invalid: string[];
  variances: Variance[];
  /** Variances above the approval threshold (in units, either direction). */
  large: Variance[];
  /** Counted minus expected over the counted lines. */
  net: number;
}

/** Progress and variances of a sheet: only counted lines are submitted, uncounted ones are left as booked. */
export function countSummary(lines: readonly SheetLine[], counts: Counts, threshold: number): CountSummary {
  const invalid: string[] = [];
  const variances: Variance[] = [];
  let counted = 0;
  for (const line of lines) {
    const text = counts[line.batch_id];
    if (text === undefined || text.trim() === '') continue;
    const qty = countedQty(text);
    if (qty === null) {
      invalid.push(line.batch_id);
      continue;
    }
    counted++;
    if (qty !== line.expected_qty) variances.push({ line, counted: qty, variance: qty - line.expected_qty });
  }
  return {
    total: lines.length,
    counted,
    invalid,
    variances,
    large: variances.filter((v) => Math.abs(v.variance) > threshold),
    net: variances.reduce((n, v) => n + v.variance, 0),
  };
}

/** The request's lines: every counted batch with a valid quantity. */
export function submitLines(lines: readonly SheetLine[], counts: Counts) {
  const out: Array<{ batch_id: string; counted_qty: number }> = [];
  for (const line of lines) {
    const qty = countedQty(counts[line.batch_id] ?? '');
    if (qty !== null) out.push({ batch_id: line.batch_id, counted_qty: qty });
  }
  return out;
}

export type ApprovalNeed =
  | { kind: 'none' }
  | { kind: 'one'; variance: Variance }
  | { kind: 'many'; count: number };

/**
 * What the server will ask for on submit: nothing for a manager role or when no variance is above the
 * threshold; else one stock_variance approval, which covers one batch, so a count with several large
 * variances must be submitted by a manager (or in parts).
 */
export function approvalNeed(summary: CountSummary, role: Role): ApprovalNeed {
  if (mayApproveCount(role) || summary.large.length === 0) return { kind: 'none' };
  const [only] = summary.large;
  return summary.large.length === 1 && only
    ? { kind: 'one', variance: only }
    : { kind: 'many', count: summary.large.length };
}

/** An approval's payload covers a variance: same batch, same direction, at most its size (the server's rule). */
export function approvalCovers(payload: Record<string, unknown>, v: Variance): boolean {
  const allowed = typeof payload.variance === 'number' ? payload.variance : 0;
  return (
    payload.batch_id === v.line.batch_id &&
    Math.sign(allowed) === Math.sign(v.variance) &&
    Math.abs(v.variance) <= Math.abs(allowed)
  );
}

/**
 * A scan of a pack: the batch of that medicine with the scanned batch number (a GS1 code carries it), else
 * its only batch on the sheet; that batch's count goes up by one. Several batches and no batch number: the
 * first of them is pointed at, nothing counted (the user types the quantity).
 */
export function applyScan(
  lines: readonly SheetLine[],
  counts: Counts,
  medicineId: string,
  batchNumber?: string,
): { counts: Counts; batchId: string; counted: boolean } | { problem: string } {
  const ofMedicine = lines.filter((l) => l.medicine_id === medicineId);
  if (ofMedicine.length === 0) return { problem: 'This medicine has no batch on this count sheet.' };
  const exact = batchNumber ? ofMedicine.find((l) => l.batch_number === batchNumber) : undefined;
  if (batchNumber && !exact) return { problem: `Batch ${batchNumber} is not on this count sheet.` };
  const target = exact ?? (ofMedicine.length === 1 ? ofMedicine[0] : undefined);
  if (!target) return { counts, batchId: (ofMedicine[0] as SheetLine).batch_id, counted: false };
  const now = countedQty(counts[target.batch_id] ?? '') ?? 0;
  return {
    counts: { ...counts, [target.batch_id]: String(now + 1) },
    batchId: target.batch_id,
    counted: true,
  };
}
