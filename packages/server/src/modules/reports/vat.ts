import { vatByRate } from '@pharmacy/contracts/pricing';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { formatMinor } from '../../lib/money';
import { returnHeaders, returnLines, returnsBy } from './returns';
import { salesFilter, salesFrom } from './sales';
import { hourlySales, mergeRows, summaryAndDeltas, summaryHours } from './summaries';
import { baseConverter, bucketLocalDate, hourBucketSql, type ReportWindow, windowDays } from './window';

interface Month {
  sales: number;
  exempt: number;
  /**
   * Zero-rated and taxed line amounts at their VAT rate in percent (exempt lines are not taxable at any rate),
   * refunds as negative amounts; grouped per rate by vatByRate when the month is written.
   */
  rates: Array<{ rate: number; net: number; vat: number }>;
  vat: number;
  gross: number;
  returns: { n: number; total: number; vat: number };
}

const emptyMonth = (): Month => ({
  sales: 0,
  exempt: 0,
  rates: [],
  vat: 0,
  gross: 0,
  returns: { n: 0, total: 0, vat: 0 },
});

/**
 * VAT by local month, newest first, in the base currency: the net amounts of the sold lines per VAT rate
 * actually charged (`by_rate`, highest rate first; zero-rated lines under rate 0), exempt lines apart, the VAT
 * and the gross total, each net of the credit-note lines refunded in the month (the month of the refund). The
 * spec's named buckets: taxable_0 at 0 %, taxable_18 at 18 %, and taxable_15, the spec's alias of taxable_18;
 * a line at another rate (5 %, 10 %, 15 %) appears only in by_rate.
 */
export async function vatReport(app: AppContext, w: ReportWindow) {
  const conv = await baseConverter(app);
  const [{ lines, counts }, returned, headers] = await Promise.all([
    vatRows(app, w),
    returnLines(app, w),
    returnHeaders(app, w),
  ]);
  const months = new Map<string, Month>();
  for (const day of windowDays(w)) {
    const key = day.slice(0, 7);
    if (!months.has(key)) months.set(key, emptyMonth());
  }
  const monthOf = (b: string) => months.get(bucketLocalDate(b, w).slice(0, 7));
  for (const c of counts) {
    const m = monthOf(c.bucket);
    if (m) m.sales += Number(c.n);
  }
  for (const l of lines) {
    const m = monthOf(l.bucket);
    if (!m) continue;
    const net = await conv.toBase(Number(l.net), l.currency_code, l.rate);
    const vat = await conv.toBase(Number(l.vat), l.currency_code, l.rate);
    const rate = Number(l.vat_rate);
    if (rate === 0 && l.vat_category === 'exempt') m.exempt += net;
    else m.rates.push({ rate, net, vat });
    m.vat += vat;
    m.gross += await conv.toBase(Number(l.gross), l.currency_code, l.rate);
  }
  await takeOffReturns(returned, monthOf, conv);
  for (const [month, r] of await returnsBy(app, headers, (h) => h.day.slice(0, 7))) {
    const m = months.get(month);
    if (m) m.returns = r;
  }
  const fmt = (minor: number) => formatMinor(minor, conv.baseExp);
  return {
    items: [...months.entries()]
      .sort(([a], [b]) => b.localeCompare(a))
      .map(([month, m]) => {
        const byRate = vatByRate(m.rates).sort((a, b) => b.rate - a.rate);
        const taxableAt = (rate: number) => fmt(byRate.find((r) => r.rate === rate)?.taxable ?? 0);
        return {
          month,
          sales_count: m.sales,
          taxable_0: taxableAt(0),
          exempt: fmt(m.exempt),
          taxable_18: taxableAt(18),
          taxable_15: taxableAt(18),
          by_rate: byRate.map((r) => ({ rate: r.rate, taxable: fmt(r.taxable), vat: fmt(r.vat) })),
          returns_count: m.returns.n,
          returns_total: fmt(m.returns.total),
          returns_vat: fmt(m.returns.vat),
          vat_collected: fmt(m.vat),
          grand_total: fmt(m.gross),
        };
      }),
  };
}

/**
 * Takes the credit-note lines off their month's buckets, grouped like the sold lines (hour, rate, category,
 * currency and rate) so each group is converted once: the VAT, the rate's taxable amount (or exempt) and the
 * gross total go down by what was refunded.
 */
async function takeOffReturns(
  returned: Awaited<ReturnType<typeof returnLines>>,
  monthOf: (bucket: string) => Month | undefined,
  conv: Awaited<ReturnType<typeof baseConverter>>,
) {
  const key = (r: (typeof returned)[number]) =>
    [r.bucket, r.vat_rate, r.vat_category, r.currency_code, r.rate].join('\u0000');
  for (const r of mergeRows(
    returned.map((x) => ({ ...x })),
    key,
    ['net', 'vat', 'refund'],
  )) {
    const m = monthOf(r.bucket);
    if (!m) continue;
    const net = await conv.toBase(r.net, r.currency_code, r.rate);
    const vat = await conv.toBase(r.vat, r.currency_code, r.rate);
    const rate = Number(r.vat_rate);
    if (rate === 0 && r.vat_category === 'exempt') m.exempt -= net;
    else m.rates.push({ rate, net: -net, vat: -vat });
    m.vat -= vat;
    m.gross -= await conv.toBase(r.refund, r.currency_code, r.rate);
  }
}

interface VatLineRow {
  bucket: string;
  vat_rate: string;
  vat_category: string;
  currency_code: string;
  rate: string;
  net: number;
  vat: number;
  gross: number;
}

/** Line sums per hour bucket, VAT rate and category, sale currency and rate, and sales per hour bucket. */
async function vatRows(app: AppContext, w: ReportWindow) {
  const hours = summaryHours(w);
  if (hours) {
    const rows = await summaryAndDeltas(
      app,
      'report_vat_hourly',
      (t) => sql<VatLineRow>`
      SELECT hour AS bucket, vat_rate, vat_category, currency_code, fx_rate_to_base AS rate, net, vat, gross
      FROM ${t} WHERE hour >= ${hours.from} AND hour < ${hours.to}`,
    );
    // Merged before conversion, so each (currency, rate) group is rounded once, as the live query's.
    const key = (r: VatLineRow) =>
      [r.bucket, r.vat_rate, r.vat_category, r.currency_code, r.rate].join('\u0000');
    const lines = mergeRows(rows, key, ['net', 'vat', 'gross']);
    return { lines, counts: await hourlySales(app, hours) };
  }
  const bucket = sql.raw(hourBucketSql('s.sold_at', w));
  const [lines, counts] = await Promise.all([
    sql<VatLineRow>`
    SELECT ${bucket} AS bucket, l.vat_rate, l.vat_category, s.currency_code, s.fx_rate_to_base AS rate,
      sum(l.net_amount) AS net, sum(l.vat_amount) AS vat, sum(l.line_total) AS gross
    FROM ${salesFrom(w)} JOIN sale_lines l ON l.sale_id = s.id
    WHERE ${salesFilter(w)}
    GROUP BY bucket, l.vat_rate, l.vat_category, s.currency_code, s.fx_rate_to_base`.execute(app.db),
    sql<{ bucket: string; n: number }>`
    SELECT ${bucket} AS bucket, count(*) AS n FROM ${salesFrom(w)} WHERE ${salesFilter(w)} GROUP BY bucket`.execute(
      app.db,
    ),
  ]);
  return { lines: lines.rows, counts: counts.rows };
}
