import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { mulDivRound } from '../../lib/money';
import { baseConverter, bucketLocalDate, hourBucketSql, type ReportWindow } from './window';

/**
 * The credit notes of a report window, dated when they were refunded (returns.created_at), read live on both
 * dialects: returns are a small share of the sales, so no summary keeps them (`returns_created`, migration
 * 0023, serves an organisation-wide window). Every report subtracts them from the sales it reads, so revenue,
 * VAT, top sellers and tenders are net of returns on the dashboard, the reports, their CSV and the Z alike.
 * Amounts are in the base currency: a credit note's base total is stored, its VAT and line amounts are
 * converted at the sale's rate, grouped by (currency, rate) before converting, as the sales' lines are.
 */

export interface ReturnHeader {
  /** The local day of the refund. */
  day: string;
  bucket: string;
  branch_id: string;
  /** The seller of the returned sale. */
  seller_id: string;
  refund_method: string;
  currency_code: string;
  rate: string;
  n: number;
  total: number;
  base_total: number;
  vat: number;
}

export interface ReturnLine {
  bucket: string;
  medicine_id: string;
  medicine_name: string;
  vat_rate: string;
  vat_category: string;
  currency_code: string;
  rate: string;
  qty: number;
  net: number;
  vat: number;
  refund: number;
  /** The FEFO cost of the units returned: the sale line's cost pro rata. */
  cost: number;
}

function returnsFilter(w: ReportWindow) {
  const branch = w.branchId ? sql` AND r.branch_id = ${w.branchId}` : sql``;
  return sql<boolean>`r.created_at >= ${w.startIso} AND r.created_at < ${w.endIso}${branch}`;
}

/** Credit notes of the window per refund hour, branch, seller, refund tender and sale currency and rate. */
export async function returnHeaders(app: AppContext, w: ReportWindow): Promise<ReturnHeader[]> {
  const bucket = sql.raw(hourBucketSql('r.created_at', w));
  const { rows } = await sql<Omit<ReturnHeader, 'day'>>`
    SELECT ${bucket} AS bucket, r.branch_id, s.user_id AS seller_id, r.refund_method, s.currency_code,
      s.fx_rate_to_base AS rate, count(*) AS n, sum(r.total_amount) AS total,
      sum(r.base_total_amount) AS base_total, sum(r.vat_amount) AS vat
    FROM returns r JOIN sales s ON s.id = r.sale_id
    WHERE ${returnsFilter(w)}
    GROUP BY bucket, r.branch_id, s.user_id, r.refund_method, s.currency_code, s.fx_rate_to_base`.execute(
    app.db,
  );
  return rows.map((r) => ({
    ...r,
    day: bucketLocalDate(r.bucket, w),
    n: Number(r.n),
    total: Number(r.total),
    base_total: Number(r.base_total),
    vat: Number(r.vat),
  }));
}

/** The returned lines of the window, one row per credit-note line, with the cost they take back. */
export async function returnLines(app: AppContext, w: ReportWindow): Promise<ReturnLine[]> {
  const bucket = sql.raw(hourBucketSql('r.created_at', w));
  const { rows } = await sql<Omit<ReturnLine, 'cost'> & { sold_qty: number; sold_cost: number }>`
    SELECT ${bucket} AS bucket, rl.medicine_id, rl.medicine_name, rl.vat_rate, sl.vat_category,
      s.currency_code, s.fx_rate_to_base AS rate, rl.quantity AS qty, rl.net_amount AS net,
      rl.vat_amount AS vat, rl.refund_amount AS refund, sl.quantity AS sold_qty, sl.cost_amount AS sold_cost
    FROM returns r JOIN return_lines rl ON rl.return_id = r.id
      JOIN sale_lines sl ON sl.id = rl.sale_line_id JOIN sales s ON s.id = r.sale_id
    WHERE ${returnsFilter(w)}`.execute(app.db);
  return rows.map(({ sold_qty, sold_cost, ...r }) => ({
    ...r,
    qty: Number(r.qty),
    net: Number(r.net),
    vat: Number(r.vat),
    refund: Number(r.refund),
    cost: mulDivRound(Number(sold_cost), BigInt(r.qty), BigInt(sold_qty)),
  }));
}

/** Sums of credit notes by a key, in the base currency (VAT converted once per key, currency and rate). */
export async function returnsBy(
  app: AppContext,
  headers: readonly ReturnHeader[],
  key: (h: ReturnHeader) => string,
) {
  const conv = await baseConverter(app);
  const groups = new Map<string, { key: string; currency: string; rate: string; vat: number }>();
  const out = new Map<string, { n: number; total: number; vat: number }>();
  for (const h of headers) {
    const k = key(h);
    const o = out.get(k) ?? { n: 0, total: 0, vat: 0 };
    o.n += h.n;
    o.total += h.base_total;
    out.set(k, o);
    const gk = `${k}\u0000${h.currency_code}\u0000${h.rate}`;
    const g = groups.get(gk) ?? { key: k, currency: h.currency_code, rate: h.rate, vat: 0 };
    g.vat += h.vat;
    groups.set(gk, g);
  }
  for (const g of groups.values()) out.get(g.key)!.vat += await conv.toBase(g.vat, g.currency, g.rate);
  return out;
}
