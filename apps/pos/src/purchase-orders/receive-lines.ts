import type { PurchaseOrderDetail, ReceivePurchaseOrderRequest } from '@pharmacy/contracts';
import { moneyForRequest } from '../purchasing/money-input';
import { parseQty } from './order-draft';

/** What the user typed for one order item in a receipt. */
export interface ReceiptDraft {
  qty: string;
  batch: string;
  expiry: string;
  cost: string;
}

/** Every item still outstanding, its quantity prefilled with what is outstanding and its agreed cost. */
export function initialReceipt(order: PurchaseOrderDetail): Record<string, ReceiptDraft> {
  const out: Record<string, ReceiptDraft> = {};
  for (const item of order.items)
    if (item.outstanding_qty > 0)
      out[item.id] = {
        qty: String(item.outstanding_qty),
        batch: '',
        expiry: '',
        cost: item.agreed_unit_cost,
      };
  return out;
}

type Line = ReceivePurchaseOrderRequest['items'][number];

/**
 * The receive request for the lines with a quantity (blank or 0 skips an item: a partial receipt),
 * with `itemIds[n]` the item of request line n so the server's items.n.field errors find their row;
 * or the problems keyed by item id and field.
 */
export function receiptRequest(
  drafts: Record<string, ReceiptDraft>,
  exponent: number,
): { lines: Line[]; itemIds: string[] } | { problems: Record<string, string> } {
  const problems: Record<string, string> = {};
  const lines: Line[] = [];
  const itemIds: string[] = [];
  for (const [itemId, d] of Object.entries(drafts)) {
    if (d.qty.trim() === '' || d.qty.trim() === '0') continue;
    const qty = parseQty(d.qty);
    const cost = moneyForRequest(d.cost, exponent);
    if (qty === null) problems[`${itemId}.qty`] = 'a whole number of units';
    if (!d.batch.trim()) problems[`${itemId}.batch`] = 'the batch number on the pack';
    if (!/^\d{4}-\d{2}-\d{2}$/.test(d.expiry)) problems[`${itemId}.expiry`] = 'the expiry date on the pack';
    if (d.cost.trim() && cost === null) problems[`${itemId}.cost`] = 'must be an amount';
    lines.push({
      item_id: itemId,
      received_qty: qty ?? 0,
      batch_number: d.batch.trim(),
      expiry_date: d.expiry,
      ...(cost === null ? {} : { unit_cost: cost }),
    });
    itemIds.push(itemId);
  }
  if (lines.length === 0) problems.none = 'Enter a quantity for at least one item.';
  return Object.keys(problems).length > 0 ? { problems } : { lines, itemIds };
}
