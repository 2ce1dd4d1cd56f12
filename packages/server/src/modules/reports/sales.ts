import { type RawBuilder, sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { formatMinor, mulDivRound } from '../../lib/money';
import { type ReturnHeader, returnHeaders, returnLines, returnsBy } from './returns';
import { hourlySales, mergeRows, overDays, summaryAndDeltas, summaryHours } from './summaries';
import { baseConverter, bucketLocalDate, hourBucketSql, pct1, type ReportWindow, windowDays } from './window';

/**
 * Sales reports read the selling tables (sales, sale_lines, sale_payments, returns) directly: a report is a
 * read-only view across modules. Amounts are in the base currency: sales and payments carry base_* copies; line
 * amounts are converted with each sale's rate. Deleted sales (is_deleted = 1) are left out.
 */
/** `sales s` as the window's engine reads it (store.ts: SQLite pins the covering report index). */
export function salesFrom(w: ReportWindow): RawBuilder<unknown> {
  return w.store.salesFrom(Boolean(w.branchId));
}

export function salesFilter(w: ReportWindow, alias = 's'): RawBuilder<boolean> {
  const a = sql.raw(alias);
  const branch = w.branchId ? sql` AND ${a}.branch_id = ${w.branchId}` : sql``;
  return sql<boolean>`${a}.sold_at >= ${w.startIso} AND ${a}.sold_at < ${w.endIso} AND ${a}.is_deleted = 0${branch}`;
}

const avg = (total: number, count: number) => (count === 0 ? 0 : mulDivRound(total, 1n, BigInt(count)));

interface DayRow {
  bucket: string;
  n: number;
  revenue: number;
  vat: number;
  change: number;
}

/** A day's figures: sales before returns (gross), the credit notes refunded that day, and the net of both. */
export interface DayTotals {
  n: number;
  gross: number;
  grossVat: number;
  returns: number;
  returnsVat: number;
  /** gross - returns, VAT included */
  revenue: number;
  /** grossVat - returnsVat */
  vat: number;
}

/**
 * Daily totals over the window, every day present (zeros included), oldest first: the sales of the day and
 * the credit notes refunded that day, so revenue and VAT are net of returns. Also the window's change given
 * and its credit notes (for the callers that break them down further).
 */
export async function dailyTotals(app: AppContext, w: ReportWindow) {
  const [sold, refunded] = await Promise.all([dailySales(app, w), returnHeaders(app, w)]);
  const days = new Map<string, DayTotals>();
  for (const [day, d] of sold.days)
    days.set(day, { ...d, gross: d.revenue, grossVat: d.vat, returns: 0, returnsVat: 0 });
  for (const [day, r] of await returnsBy(app, refunded, (h) => h.day)) {
    const d = days.get(day);
    if (!d) continue;
    d.returns += r.total;
    d.returnsVat += r.vat;
  }
  for (const d of days.values()) {
    d.revenue = d.gross - d.returns;
    d.vat = d.grossVat - d.returnsVat;
  }
  return { days, change: sold.change, refunded };
}

/** The sales per day of the window (before returns) and the change they gave. */
async function dailySales(app: AppContext, w: ReportWindow) {
  const hours = summaryHours(w);
  const rows = hours
    ? await hourlySales(app, hours)
    : (
        await sql<DayRow>`
    SELECT ${sql.raw(hourBucketSql('s.sold_at', w))} AS bucket, count(*) AS n,
      sum(s.base_total_amount) AS revenue, sum(s.base_vat_amount) AS vat, sum(s.base_change_amount) AS change
    FROM ${salesFrom(w)} WHERE ${salesFilter(w)} GROUP BY bucket`.execute(app.db)
      ).rows;
  const days = new Map(windowDays(w).map((d) => [d, { n: 0, revenue: 0, vat: 0 }]));
  let change = 0;
  for (const r of rows) {
    change += Number(r.change);
    const day = days.get(bucketLocalDate(r.bucket, w));
    if (!day) continue;
    day.n += Number(r.n);
    day.revenue += Number(r.revenue);
    day.vat += Number(r.vat);
  }
  return { days, change };
}

export async function salesReport(app: AppContext, w: ReportWindow) {
  const conv = await baseConverter(app);
  const fmt = (m: number) => formatMinor(m, conv.baseExp);
  // Independent reads: on PostgreSQL each runs on its own pooled connection at the same time.
  const [{ days, change, refunded }, payments, lines, returned, recent] = await Promise.all([
    dailyTotals(app, w),
    paymentTotals(app, w),
    medicineTotals(app, w),
    returnLines(app, w),
    recentSales(app, w),
  ]);
  const t = { n: 0, gross: 0, grossVat: 0, returns: 0, returnsVat: 0 };
  for (const d of days.values()) {
    t.n += d.n;
    t.gross += d.gross;
    t.grossVat += d.grossVat;
    t.returns += d.returns;
    t.returnsVat += d.returnsVat;
  }
  const byPayment = await paymentsNetOfRefunds(app, payments, change, refunded);
  const topSelling = await topSellers(lines, returned, conv);

  return {
    totals: {
      sales_count: t.n,
      gross_revenue: fmt(t.gross),
      returns_count: refunded.reduce((a, h) => a + h.n, 0),
      returns_total: fmt(t.returns),
      net_revenue: fmt(t.gross - t.returns),
      revenue: fmt(t.gross - t.returns),
      gross_vat: fmt(t.grossVat),
      returns_vat: fmt(t.returnsVat),
      vat: fmt(t.grossVat - t.returnsVat),
      average_sale: fmt(avg(t.gross, t.n)),
    },
    by_day: [...days.entries()].map(([date, d]) => ({
      date,
      sales_count: d.n,
      gross_revenue: fmt(d.gross),
      returns: fmt(d.returns),
      net_revenue: fmt(d.revenue),
      revenue: fmt(d.revenue),
      vat: fmt(d.vat),
    })),
    by_payment: byPayment.map(({ minor, refunds, ...p }) => ({
      ...p,
      refunds: fmt(refunds),
      total: fmt(minor),
    })),
    top_selling: topSelling.map((m) => ({
      medicine_id: m.id,
      medicine_name: m.name,
      quantity: m.qty,
      revenue: fmt(m.gross),
      net_revenue: fmt(m.net),
      cost: fmt(m.cost),
      gross_profit: fmt(m.net - m.cost),
      margin_pct: pct1(m.net - m.cost, m.net),
    })),
    recent: recent.map(({ total, ...r }) => ({ ...r, total_amount: fmt(Number(total)) })),
  };
}

/**
 * Per tender: the sales that used it and the amount kept (cash net of the change handed back), minus the
 * credit notes refunded in that tender; highest first.
 */
async function paymentsNetOfRefunds(
  app: AppContext,
  payments: ReadonlyArray<{ method: string; n: number; total: number }>,
  change: number,
  refunded: readonly ReturnHeader[],
) {
  const refunds = await returnsBy(app, refunded, (h) => h.refund_method);
  const methods = new Set([...payments.map((p) => p.method), ...refunds.keys()]);
  return [...methods]
    .map((method) => {
      const p = payments.find((x) => x.method === method);
      const back = refunds.get(method)?.total ?? 0;
      const kept = Number(p?.total ?? 0) - (method === 'cash' ? change : 0);
      return { method, sales_count: Number(p?.n ?? 0), refunds: back, minor: kept - back };
    })
    .sort((a, b) => b.minor - a.minor || a.method.localeCompare(b.method));
}

/**
 * The top 10 medicines by revenue net of returns: sold quantities and amounts minus the returned ones (and the
 * cost those units took back), so a fully refunded medicine has 0.
 */
async function topSellers(
  lines: readonly MedicineRow[],
  returned: Awaited<ReturnType<typeof returnLines>>,
  conv: Awaited<ReturnType<typeof baseConverter>>,
) {
  const byMedicine = new Map<
    string,
    { id: string; name: string; qty: number; gross: number; net: number; cost: number }
  >();
  const at = (id: string, name: string) => {
    const m = byMedicine.get(id) ?? { id, name, qty: 0, gross: 0, net: 0, cost: 0 };
    byMedicine.set(id, m);
    return m;
  };
  for (const r of lines) {
    const m = at(r.medicine_id, r.medicine_name);
    m.qty += Number(r.qty);
    m.gross += await conv.toBase(Number(r.gross), r.currency_code, r.rate);
    m.net += await conv.toBase(Number(r.net), r.currency_code, r.rate);
    m.cost += Number(r.cost);
  }
  const back = mergeRows(
    returned.map((r) => ({ ...r })),
    (r) => `${r.medicine_id}\u0000${r.currency_code}\u0000${r.rate}`,
    ['qty', 'net', 'refund', 'cost'],
  );
  for (const r of back) {
    const m = at(r.medicine_id, r.medicine_name);
    m.qty -= r.qty;
    m.gross -= await conv.toBase(r.refund, r.currency_code, r.rate);
    m.net -= await conv.toBase(r.net, r.currency_code, r.rate);
    m.cost -= r.cost;
  }
  return [...byMedicine.values()]
    .sort((a, b) => b.gross - a.gross || b.qty - a.qty || a.id.localeCompare(b.id))
    .slice(0, 10);
}

export async function pharmacistReport(app: AppContext, w: ReportWindow) {
  const conv = await baseConverter(app);
  const fmt = (m: number) => formatMinor(m, conv.baseExp);
  const [sold, refunded] = await Promise.all([sellerTotals(app, w), returnHeaders(app, w)]);
  const rows = await netOfReturns(app, sold, refunded);
  const users = rows.length
    ? await app.db
        .selectFrom('users')
        .select(['id', 'full_name'])
        .where('id', 'in', [...new Set(rows.map((r) => r.user_id))])
        .execute()
    : [];
  const branches = await app.db.selectFrom('branches').select(['id', 'name']).execute();
  const userName = new Map(users.map((u) => [u.id, u.full_name]));
  const branchName = new Map(branches.map((b) => [b.id, b.name]));
  return {
    items: rows
      .map((r) => ({ ...r, n: Number(r.n), revenue: Number(r.revenue), vat: Number(r.vat) }))
      .sort((a, b) => b.revenue - a.revenue || a.user_id.localeCompare(b.user_id))
      .map((r) => ({
        user_id: r.user_id,
        pharmacist_name: userName.get(r.user_id) ?? null,
        branch_id: r.branch_id,
        branch_name: branchName.get(r.branch_id) ?? '',
        sales_count: r.n,
        revenue: fmt(r.revenue),
        vat: fmt(r.vat),
        average_sale: fmt(avg(r.revenue, r.n)),
      })),
  };
}

/** Per payment method: the sales that used it and the amount tendered. */
async function paymentTotals(app: AppContext, w: ReportWindow) {
  const hours = summaryHours(w);
  const { rows } = hours
    ? await sql<{ method: string; n: number; total: number }>`
    SELECT method, sum(sales_count) AS n, sum(amount) AS total FROM report_payments_hourly_all
    WHERE hour >= ${hours.from} AND hour < ${hours.to} GROUP BY method`.execute(app.db)
    : await sql<{ method: string; n: number; total: number }>`
    SELECT p.method, count(DISTINCT p.sale_id) AS n, sum(p.base_amount) AS total
    FROM ${salesFrom(w)} JOIN sale_payments p ON p.sale_id = s.id
    WHERE ${salesFilter(w)} GROUP BY p.method`.execute(app.db);
  return rows;
}

interface MedicineRow {
  medicine_id: string;
  medicine_name: string;
  currency_code: string;
  rate: string;
  qty: number;
  gross: number;
  net: number;
  cost: number;
}

/** Sold quantities and amounts per medicine and sale currency and rate (converted to base by the caller). */
async function medicineTotals(app: AppContext, w: ReportWindow): Promise<MedicineRow[]> {
  const live = async (part: ReportWindow) =>
    (
      await sql<MedicineRow>`
    SELECT l.medicine_id, max(l.medicine_name) AS medicine_name, s.currency_code, s.fx_rate_to_base AS rate,
      sum(l.quantity) AS qty, sum(l.line_total) AS gross, sum(l.net_amount) AS net, sum(l.cost_amount) AS cost
    FROM ${salesFrom(part)} JOIN sale_lines l ON l.sale_id = s.id
    WHERE ${salesFilter(part)}
    GROUP BY l.medicine_id, s.currency_code, s.fx_rate_to_base`.execute(app.db)
    ).rows;
  const summary = (from: string, to: string) =>
    summaryAndDeltas(
      app,
      'report_medicines_daily',
      (t) => sql<MedicineRow>`
    SELECT medicine_id, max(medicine_name) AS medicine_name, currency_code, fx_rate_to_base AS rate,
      sum(quantity) AS qty, sum(gross) AS gross, sum(net) AS net, sum(cost) AS cost
    FROM ${t} WHERE day >= ${from} AND day < ${to}
    GROUP BY medicine_id, currency_code, fx_rate_to_base`,
    );
  // Merged before conversion, so each (currency, rate) group is rounded once, as the live query's.
  return mergeRows(
    await overDays(w, live, summary),
    (r) => `${r.medicine_id}\u0000${r.currency_code}\u0000${r.rate}`,
    ['qty', 'gross', 'net', 'cost'],
    ['medicine_name'],
  );
}

interface SellerRow {
  user_id: string;
  branch_id: string;
  n: number;
  revenue: number;
  vat: number;
}

/** Sales count, revenue and VAT per seller and branch. */
async function sellerTotals(app: AppContext, w: ReportWindow): Promise<SellerRow[]> {
  const live = async (part: ReportWindow) =>
    (
      await sql<SellerRow>`
    SELECT s.user_id, s.branch_id, count(*) AS n, sum(s.base_total_amount) AS revenue, sum(s.base_vat_amount) AS vat
    FROM ${salesFrom(part)} WHERE ${salesFilter(part)} GROUP BY s.user_id, s.branch_id`.execute(app.db)
    ).rows;
  const summary = (from: string, to: string) =>
    summaryAndDeltas(
      app,
      'report_sellers_daily',
      (t) => sql<SellerRow>`
    SELECT user_id, branch_id, sum(sales_count) AS n, sum(revenue) AS revenue, sum(vat) AS vat
    FROM ${t} WHERE day >= ${from} AND day < ${to} GROUP BY user_id, branch_id`,
    );
  return mergeRows(await overDays(w, live, summary), (r) => `${r.user_id}\u0000${r.branch_id}`, [
    'n',
    'revenue',
    'vat',
  ]);
}

/**
 * Sellers' rows net of the credit notes of their sales refunded in the window (a seller with only refunds in
 * the window gets a row of their own).
 */
async function netOfReturns(app: AppContext, sold: SellerRow[], refunded: readonly ReturnHeader[]) {
  const key = (userId: string, branchId: string) => `${userId}\u0000${branchId}`;
  const back = await returnsBy(app, refunded, (h) => key(h.seller_id, h.branch_id));
  const rows = new Map(sold.map((r) => [key(r.user_id, r.branch_id), { ...r }]));
  for (const [k, r] of back) {
    const [user_id, branch_id] = k.split('\u0000') as [string, string];
    const row = rows.get(k) ?? { user_id, branch_id, n: 0, revenue: 0, vat: 0 };
    row.revenue = Number(row.revenue) - r.total;
    row.vat = Number(row.vat) - r.vat;
    rows.set(k, row);
  }
  return [...rows.values()];
}

/** Sales count and revenue net of returns per branch (the dashboard's branch comparison). */
export async function branchTotals(app: AppContext, w: ReportWindow) {
  const [sold, refunded] = await Promise.all([branchSales(app, w), returnHeaders(app, w)]);
  const back = await returnsBy(app, refunded, (h) => h.branch_id);
  const rows = new Map(sold.map((r) => [r.branch_id, { ...r, revenue: Number(r.revenue) }]));
  for (const [branch_id, r] of back) {
    const row = rows.get(branch_id) ?? { branch_id, n: 0, revenue: 0 };
    row.revenue -= r.total;
    rows.set(branch_id, row);
  }
  return [...rows.values()];
}

/** Sales count and revenue per branch, before returns. */
async function branchSales(app: AppContext, w: ReportWindow) {
  type Row = { branch_id: string; n: number; revenue: number };
  const live = async (part: ReportWindow) =>
    (
      await sql<Row>`
    SELECT s.branch_id, count(*) AS n, sum(s.base_total_amount) AS revenue
    FROM ${salesFrom(part)} WHERE ${salesFilter(part)} GROUP BY s.branch_id`.execute(app.db)
    ).rows;
  const summary = (from: string, to: string) =>
    summaryAndDeltas(
      app,
      'report_sellers_daily',
      (t) => sql<Row>`
    SELECT branch_id, sum(sales_count) AS n, sum(revenue) AS revenue
    FROM ${t} WHERE day >= ${from} AND day < ${to} GROUP BY branch_id`,
    );
  return mergeRows(await overDays(w, live, summary), (r) => r.branch_id, ['n', 'revenue']);
}

/** The 8 latest sales of the window with the seller's name. */
async function recentSales(app: AppContext, w: ReportWindow) {
  const { rows } = await sql<{
    id: string;
    invoice_number: string;
    branch_id: string;
    user_id: string;
    pharmacist_name: string | null;
    total: number;
    payment_method: string;
    sold_at: string;
  }>`
    SELECT s.id, s.invoice_number, s.branch_id, s.user_id, u.full_name AS pharmacist_name,
      s.base_total_amount AS total, s.payment_method, s.sold_at
    FROM ${salesFrom(w)} LEFT JOIN users u ON u.id = s.user_id
    WHERE ${salesFilter(w)} ORDER BY s.sold_at DESC, s.id DESC LIMIT 8`.execute(app.db);
  return rows;
}
