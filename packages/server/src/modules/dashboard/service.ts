import { baseExponent } from '../currency/service';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { formatMinor } from '../../lib/money';
import { branchTotals, dailyTotals } from '../reports/sales';
import { stockCounts } from '../reports/stock';
import { pct1, reportTimeZone, resolveWindow } from '../reports/window';
import { addDays, localDate } from '@pharmacy/contracts/time';

/**
 * Today's figures for a branch (or the whole organisation) in its local day, against yesterday, with a 30-day
 * sparkline and the stock and expiry counts of the same scope. Revenue and VAT are net of the credit notes
 * refunded that day (reports/sales.ts dailyTotals, the same figures as the sales report).
 */
export async function dashboardSummary(app: AppContext, branchId: string | undefined) {
  const timezone = await reportTimeZone(app, branchId);
  const today = localDate(timezone);
  const [w, exponent] = await Promise.all([
    resolveWindow(app, { from_date: addDays(today, -29), to_date: today }, branchId),
    baseExponent(app),
  ]);
  const fmt = (m: number) => formatMinor(m, exponent);
  // Independent reads: on PostgreSQL each runs on its own pooled connection at the same time.
  const [{ days }, stock, expiry] = await Promise.all([
    dailyTotals(app, w),
    stockCounts(app, branchId, today),
    expiryCounts(app, branchId, today),
  ]);
  const zero = { n: 0, gross: 0, grossVat: 0, returns: 0, returnsVat: 0, revenue: 0, vat: 0 };
  const now = days.get(today) ?? zero;
  const before = days.get(addDays(today, -1)) ?? zero;
  return {
    branch_id: branchId ?? null,
    date: today,
    timezone,
    today_sales_count: now.n,
    today_gross_revenue: fmt(now.gross),
    today_returns: fmt(now.returns),
    today_revenue: fmt(now.revenue),
    today_vat: fmt(now.vat),
    yesterday_revenue: fmt(before.revenue),
    revenue_trend: pct1(now.revenue - before.revenue, before.revenue),
    sparkline_30d: [...days.entries()].map(([date, d]) => ({
      date,
      revenue: fmt(d.revenue),
      sales_count: d.n,
    })),
    low_stock_count: stock.low,
    out_of_stock_count: stock.out,
    total_medicines: stock.total,
    expiring_90_count: expiry.e90,
    expiring_30_count: expiry.e30,
    expired_count: expiry.expired,
  };
}

/**
 * Batches with stock expiring within 90 and 30 days (active ones: quarantined and recalled batches are not
 * for sale) and already expired (any status: it must be written off). Each a range of the expiry indexes
 * (`batches_expiry`, `batches_branch_expiry`), not a scan of every batch.
 */
async function expiryCounts(app: AppContext, branchId: string | undefined, today: string) {
  const branch = branchId ? sql` AND branch_id = ${branchId}` : sql``;
  const { rows } = await sql<{ e90: number | null; e30: number | null; expired: number | null }>`
    SELECT soon.e90, soon.e30, gone.expired FROM
      (SELECT count(*) AS e90, count(*) FILTER (WHERE expiry_date <= ${addDays(today, 30)}) AS e30 FROM batches
        WHERE expiry_date >= ${today} AND expiry_date <= ${addDays(today, 90)} AND regulator_status = 'active'
          AND qty_on_hand > 0${branch}) soon,
      (SELECT count(*) AS expired FROM batches WHERE expiry_date < ${today} AND qty_on_hand > 0${branch}) gone`.execute(
    app.db,
  );
  const r = rows[0];
  return { e90: Number(r?.e90 ?? 0), e30: Number(r?.e30 ?? 0), expired: Number(r?.expired ?? 0) };
}

/** Every active branch ranked by revenue over the window (the organisation's local days), zeros included. */
export async function branchComparison(app: AppContext, q: { from_date?: string; to_date?: string }) {
  const w = await resolveWindow(app, q, undefined);
  const exponent = await baseExponent(app);
  const rows = await branchTotals(app, w);
  const byBranch = new Map(rows.map((r) => [r.branch_id, { n: Number(r.n), revenue: Number(r.revenue) }]));
  const branches = await app.db
    .selectFrom('branches')
    .select(['id', 'name', 'code'])
    .where('is_active', '=', 1)
    .execute();
  const ranked = branches
    .map((b) => ({ ...b, ...(byBranch.get(b.id) ?? { n: 0, revenue: 0 }) }))
    .sort((a, b) => b.revenue - a.revenue || a.name.localeCompare(b.name));
  const total = ranked.reduce((sum, b) => sum + b.revenue, 0);
  return {
    from_date: w.from,
    to_date: w.to,
    timezone: w.timezone,
    total_revenue: formatMinor(total, exponent),
    items: ranked.map((b, i) => ({
      rank: i + 1,
      branch_id: b.id,
      branch_name: b.name,
      branch_code: b.code,
      revenue: formatMinor(b.revenue, exponent),
      sales_count: b.n,
      share_pct: pct1(b.revenue, total),
    })),
  };
}
