import type { Batch, CreateTransferRequest } from '@pharmacy/contracts';
import { parseQty } from '../purchase-orders/order-draft';

/** One line of a transfer being written: a medicine, how many, and FEFO ('') or a chosen batch. */
export interface TransferLine {
  medicine_id: string;
  medicine_name: string;
  qty: string;
  batch_id: string;
}

type SourceBatch = Pick<Batch, 'id' | 'batch_number' | 'expiry_date' | 'qty_on_hand' | 'regulator_status'>;

/**
 * What FEFO will take for `qty` units, as the server picks: active, unexpired batches with stock, the
 * earliest expiry first (a batch is expired from the day after its expiry date). `short` is what is missing.
 */
export function fefoPreview(
  batches: readonly SourceBatch[],
  qty: number,
  today: string,
): { picks: Array<{ batch_number: string; expiry_date: string; quantity: number }>; short: number } {
  const usable = batches
    .filter((b) => b.regulator_status === 'active' && b.expiry_date >= today && b.qty_on_hand > 0)
    .sort(
      (a, b) => a.expiry_date.localeCompare(b.expiry_date) || a.batch_number.localeCompare(b.batch_number),
    );
  const picks = [];
  let left = qty;
  for (const b of usable) {
    if (left <= 0) break;
    const take = Math.min(left, b.qty_on_hand);
    picks.push({ batch_number: b.batch_number, expiry_date: b.expiry_date, quantity: take });
    left -= take;
  }
  return { picks, short: Math.max(0, left) };
}

/** The request's items, or the problems keyed as the server names them (items.N.quantity). */
export function transferItems(
  lines: readonly TransferLine[],
): { items: CreateTransferRequest['items'] } | { problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const items = lines.map((l, i) => {
    const quantity = parseQty(l.qty);
    if (quantity === null) problems[`items.${i}.quantity`] = 'a whole number of units above 0';
    return l.batch_id
      ? { batch_id: l.batch_id, quantity: quantity ?? 0 }
      : { medicine_id: l.medicine_id, quantity: quantity ?? 0 };
  });
  if (lines.length === 0) problems.items = 'add at least one medicine';
  return Object.keys(problems).length > 0 ? { problems } : { items };
}
