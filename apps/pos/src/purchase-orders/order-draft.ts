import type { CreatePurchaseOrderRequest } from '@pharmacy/contracts';
import { moneyForRequest } from '../purchasing/money-input';

/** One line of an order being written, as typed. */
export interface DraftLine {
  medicine_id: string;
  medicine_name: string;
  qty: string;
  cost: string;
}

export interface SuggestionLike {
  medicine_id: string;
  medicine_name: string;
  supplier_id: string | null;
  suggested_qty: number;
  last_unit_cost: string | null;
}

/** A whole positive number of units, or null. */
export function parseQty(text: string): number | null {
  const t = text.trim();
  if (!/^\d+$/.test(t)) return null;
  const n = Number(t);
  return n > 0 && n <= 1_000_000 ? n : null;
}

export function suggestionLine(s: SuggestionLike, qty: string): DraftLine {
  return { medicine_id: s.medicine_id, medicine_name: s.medicine_name, qty, cost: s.last_unit_cost ?? '' };
}

/** The supplier most of the chosen suggestions came from last (ties: the first seen); null when none is known. */
export function likelySupplier(chosen: readonly SuggestionLike[]): string | null {
  const counts = new Map<string, number>();
  for (const s of chosen) if (s.supplier_id) counts.set(s.supplier_id, (counts.get(s.supplier_id) ?? 0) + 1);
  let best: string | null = null;
  for (const [id, n] of counts) if (best === null || n > (counts.get(best) ?? 0)) best = id;
  return best;
}

export type LineProblems = Record<string, string>;

/**
 * The request for the typed lines, or what is wrong with them, keyed as the server names fields
 * (items.N.ordered_qty) so the same slot shows either message.
 */
export function orderItems(
  lines: readonly DraftLine[],
  exponent: number,
): { items: CreatePurchaseOrderRequest['items'] } | { problems: LineProblems } {
  const problems: LineProblems = {};
  const items = lines.map((l, i) => {
    const qty = parseQty(l.qty);
    const cost = moneyForRequest(l.cost, exponent);
    if (qty === null) problems[`items.${i}.ordered_qty`] = 'must be a whole number of units above 0';
    if (cost === null || cost < 0) problems[`items.${i}.agreed_unit_cost`] = 'must be an amount';
    return { medicine_id: l.medicine_id, ordered_qty: qty ?? 0, agreed_unit_cost: cost ?? 0 };
  });
  if (lines.length === 0) problems.items = 'add at least one medicine';
  return Object.keys(problems).length > 0 ? { problems } : { items };
}
