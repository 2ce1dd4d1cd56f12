import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { formatMinor } from '../../lib/money';
import { baseExponent } from '../medicines/service';
import { branchTotals, dailyTotals } from '../reports/sales';
import { medicineStock } from '../reports/stock';
import { pct1, reportTimeZone, resolveWindow } from '../reports/window';
import { addDays, localDate } from '../stock/dates';

/**
 * Today's figures for a branch (or the whole organisation) in its local day, against yesterday, with a 30-day
 * sparkline and the stock and expiry counts of the same scope. Revenue and VAT are net of the credit notes
 * refunded that day (reports/sales.ts dailyTotals, the same figures as the sales report).
 */
export async function dashboardSummary(app: AppContext, branchId: string | undefined) {
  const timezone = await reportTimeZone(app, branchId);
  const today = localDate(timezone);
  const w = await resolveWindow(app, { from_date: addDays(today, -29), to_date: today }, branchId);
  const exponent = await baseExponent(app);
  const fmt = (m: number) => formatMinor(m, exponent);
  const { days } = await dailyTotals(app, w);
  const zero = { n: 0, gross: 0, grossVat: 0, returns: 0, returnsVat: 0, revenue: 0, vat: 0 };
  const now = days.get(today) ?? zero;
  const before = days.get(addDays(today, -1)) ?? zero;

  const stock = await medicineStock(app, branchId);
  const branch = branchId ? sql` AND branch_id = ${branchId}` : sql``;
  const { rows } = await sql<{ e90: number | null; e30: number | null; expired: number | null }>`
    SELECT
      count(*) FILTER (WHERE regulator_status = 'active' AND expiry_date >= ${today} AND expiry_date <= ${addDays(today, 90)}) AS e90,
      count(*) FILTER (WHERE regulator_status = 'active' AND expiry_date >= ${today} AND expiry_date <= ${addDays(today, 30)}) AS e30,
      count(*) FILTER (WHERE expiry_date < ${today}) AS expired
    FROM batches WHERE qty_on_hand > 0${branch}`.execute(app.db);
  const expiry = rows[0]!;
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
    low_stock_count: stock.filter((m) => m.qty <= m.low_stock_threshold).length,
    out_of_stock_count: stock.filter((m) => m.qty <= 0).length,
    total_medicines: stock.length,
    expiring_90_count: Number(expiry.e90 ?? 0),
    expiring_30_count: Number(expiry.e30 ?? 0),
    expired_count: Number(expiry.expired ?? 0),
  };
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
