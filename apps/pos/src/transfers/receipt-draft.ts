import type { Transfer } from '@pharmacy/contracts';

export type Reason = '' | 'short' | 'damaged';

/** What the receiver typed for one line of the transfer: units that arrived and why any are missing. */
export interface ReceiptEntry {
  qty: string;
  reason: Reason;
}

type Line = Pick<Transfer['items'][number], 'id' | 'quantity'>;

/** Every line as sent, arrived in full: what the form starts with. */
export function fullReceipt(items: readonly Line[]): Record<string, ReceiptEntry> {
  return Object.fromEntries(items.map((i) => [i.id, { qty: String(i.quantity), reason: '' as Reason }]));
}

export interface ReceiptLine {
  item_id: string;
  received_quantity: number;
  discrepancy_reason?: 'short' | 'damaged';
}

/**
 * The receive request's lines (only those that did not arrive in full, as the API takes them), or the problems
 * keyed by the line's position in the transfer as the server names them (lines.N.received_quantity).
 */
export function receiptLines(
  items: readonly Line[],
  entries: Readonly<Record<string, ReceiptEntry>>,
): { lines: ReceiptLine[] } | { problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const lines: ReceiptLine[] = [];
  for (const [n, item] of items.entries()) {
    const e = entries[item.id] ?? { qty: String(item.quantity), reason: '' };
    const text = e.qty.trim();
    const qty = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    if (!Number.isSafeInteger(qty) || qty > item.quantity) {
      problems[`lines.${n}.received_quantity`] = `a whole number from 0 to ${item.quantity}`;
      continue;
    }
    if (qty === item.quantity) continue;
    if (!e.reason) {
      problems[`lines.${n}.discrepancy_reason`] = 'say why fewer arrived';
      continue;
    }
    lines.push({ item_id: item.id, received_quantity: qty, discrepancy_reason: e.reason });
  }
  return Object.keys(problems).length > 0 ? { problems } : { lines };
}

/** A line's outcome in words: what arrived of what was sent, and why any is missing. */
export function lineOutcome(line: Transfer['items'][number]): string {
  if (line.received_quantity === null) return `${line.quantity} in transit`;
  if (line.received_quantity === line.quantity) return `${line.quantity} received`;
  return `${line.received_quantity} of ${line.quantity} received (${line.discrepancy_reason ?? 'short'})`;
}
