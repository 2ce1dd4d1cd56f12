/**
 * Chart data shaping: pure functions from the API's report rows to what the Chart component draws.
 * Amounts stay exact decimal strings everywhere money is shown; a chart only needs a bar's height, so
 * here (and only here) a decimal string becomes a float.
 */

import { paymentMethodName } from '@pharmacy/contracts/payment-methods';

/** Category labels on the x axis and one value per category. */
export interface CategorySeries {
  labels: string[];
  values: number[];
}

/** Bars of ranked items, with each item's share of the whole in percent. */
export interface RankedSeries extends CategorySeries {
  shares: number[];
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** A plotted height for a decimal string; never used for arithmetic on money. */
export function plotValue(decimal: string | number | null | undefined): number {
  const n = typeof decimal === 'number' ? decimal : Number(decimal ?? 0);
  return Number.isFinite(n) ? n : 0;
}

/** "2026-11-05" as "5 Nov": a local day of the report, shown as it is (no time zone conversion). */
export function shortDay(date: string): string {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return date;
  return `${Number(m[3])} ${MONTHS[Number(m[2]) - 1] ?? m[2]}`;
}

/** Revenue (or any amount) per local day, oldest first, every day of the window kept (zeros included). */
export function seriesByDay<K extends string>(
  days: ReadonlyArray<{ date: string } & Record<K, string>>,
  key: K,
): CategorySeries {
  const sorted = [...days].sort((a, b) => a.date.localeCompare(b.date));
  return { labels: sorted.map((d) => shortDay(d.date)), values: sorted.map((d) => plotValue(d[key])) };
}

/** Branches in rank order (1 first), labelled with their code and share of the total revenue. */
export function rankedBranches(
  items: ReadonlyArray<{
    rank: number;
    branch_name: string;
    branch_code: string;
    revenue: string;
    share_pct: number;
  }>,
): RankedSeries {
  const sorted = [...items].sort((a, b) => a.rank - b.rank);
  return {
    labels: sorted.map((b) => `${b.branch_code} ${formatShare(b.share_pct)}`),
    values: sorted.map((b) => plotValue(b.revenue)),
    shares: sorted.map((b) => b.share_pct),
  };
}

/** The payment mix: one bar per method, largest amount first, with a readable method name. */
export function paymentMix(rows: ReadonlyArray<{ method: string; total: string }>): CategorySeries {
  const sorted = [...rows].sort(
    (a, b) => plotValue(b.total) - plotValue(a.total) || a.method.localeCompare(b.method),
  );
  return {
    labels: sorted.map((r) => paymentMethodName(r.method)),
    values: sorted.map((r) => plotValue(r.total)),
  };
}

/** A share in percent with one decimal, as the server sends it: 41.7 → "41.7 %" (a no-break space). */
export function formatShare(pct: number): string {
  return `${pct.toFixed(1)}\u00a0%`;
}

/** Compact axis ticks: 1250000 → "1.25M", 3400 → "3.4k". Axis only; tables show exact amounts. */
export function compactNumber(n: number): string {
  const abs = Math.abs(n);
  if (abs >= 1e9) return `${trim(n / 1e9)}B`;
  if (abs >= 1e6) return `${trim(n / 1e6)}M`;
  if (abs >= 1e3) return `${trim(n / 1e3)}k`;
  return trim(n);
}

function trim(n: number): string {
  return String(Number(n.toFixed(2)));
}
