import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { formatMinor } from '../../lib/money';
import { salesFilter, salesFrom } from './sales';
import { baseConverter, bucketLocalDate, hourBucketSql, type ReportWindow, windowDays } from './window';

interface Month {
  sales: number;
  zero: number;
  exempt: number;
  standard: number;
  vat: number;
  gross: number;
}

/**
 * VAT by local month, newest first: net amounts of the sold lines per rate (zero-rated, exempt, and every
 * non-zero rate under taxable_18, aliased taxable_15 for 15 % jurisdictions), the VAT and the gross total, in
 * the base currency.
 */
export async function vatReport(app: AppContext, w: ReportWindow) {
  const conv = await baseConverter(app);
  const bucket = sql.raw(hourBucketSql('s.sold_at', w));
  const lines = await sql<{
    bucket: string;
    vat_rate: string;
    vat_category: string;
    currency_code: string;
    rate: string;
    net: number;
    vat: number;
    gross: number;
  }>`
    SELECT ${bucket} AS bucket, l.vat_rate, l.vat_category, s.currency_code, s.fx_rate_to_base AS rate,
      sum(l.net_amount) AS net, sum(l.vat_amount) AS vat, sum(l.line_total) AS gross
    FROM ${salesFrom(w)} JOIN sale_lines l ON l.sale_id = s.id
    WHERE ${salesFilter(w)}
    GROUP BY bucket, l.vat_rate, l.vat_category, s.currency_code, s.fx_rate_to_base`.execute(app.db);
  const counts = await sql<{ bucket: string; n: number }>`
    SELECT ${bucket} AS bucket, count(*) AS n FROM ${salesFrom(w)} WHERE ${salesFilter(w)} GROUP BY bucket`.execute(
    app.db,
  );

  const months = new Map<string, Month>();
  for (const day of windowDays(w)) {
    const key = day.slice(0, 7);
    if (!months.has(key)) months.set(key, { sales: 0, zero: 0, exempt: 0, standard: 0, vat: 0, gross: 0 });
  }
  const monthOf = (b: string) => months.get(bucketLocalDate(b, w).slice(0, 7));
  for (const c of counts.rows) {
    const m = monthOf(c.bucket);
    if (m) m.sales += Number(c.n);
  }
  for (const l of lines.rows) {
    const m = monthOf(l.bucket);
    if (!m) continue;
    const net = await conv.toBase(Number(l.net), l.currency_code, l.rate);
    if (Number(l.vat_rate) > 0) m.standard += net;
    else if (l.vat_category === 'exempt') m.exempt += net;
    else m.zero += net;
    m.vat += await conv.toBase(Number(l.vat), l.currency_code, l.rate);
    m.gross += await conv.toBase(Number(l.gross), l.currency_code, l.rate);
  }
  const fmt = (minor: number) => formatMinor(minor, conv.baseExp);
  return {
    items: [...months.entries()]
      .sort(([a], [b]) => b.localeCompare(a))
      .map(([month, m]) => ({
        month,
        sales_count: m.sales,
        taxable_0: fmt(m.zero),
        exempt: fmt(m.exempt),
        taxable_18: fmt(m.standard),
        taxable_15: fmt(m.standard),
        vat_collected: fmt(m.vat),
        grand_total: fmt(m.gross),
      })),
  };
}
