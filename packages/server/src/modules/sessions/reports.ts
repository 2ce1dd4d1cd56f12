import type { AppContext } from '../../app-context';
import type { AuthUser } from '../../http/auth';
import { formatMinor } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { currencyExponent } from '../currency/service';
import { rateOf, toBase } from '../currency/fx';
import { baseCurrency, expectedCashOf, presentSession, readableSession, sessionTotals } from './service';

/** GET /sessions/{id}/sales: every sale of the session, newest first, with the session. */
export async function sessionSales(app: AppContext, user: AuthUser, id: string) {
  const s = await readableSession(app, user, id);
  const rows = await app.db
    .selectFrom('sales as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .select([
      's.id',
      's.invoice_number',
      's.payment_method',
      'u.full_name as pharmacist_name',
      's.total_amount',
      's.vat_amount',
      's.sold_at',
      's.currency_code',
    ])
    .where('s.session_id', '=', id)
    .orderBy('s.sold_at', 'desc')
    .orderBy('s.id', 'desc')
    .execute();
  const exps = new Map<string, number>();
  for (const r of rows)
    if (!exps.has(r.currency_code)) exps.set(r.currency_code, await currencyExponent(app, r.currency_code));
  return {
    items: rows.map(({ currency_code, ...r }) => ({
      ...r,
      total_amount: formatMinor(r.total_amount, exps.get(currency_code)!),
      vat_amount: formatMinor(r.vat_amount, exps.get(currency_code)!),
    })),
    session: await presentSession(app, s),
  };
}

/** A sale-currency amount in the base currency at the sale's own rate (exponents read once per currency). */
type ToBase = (minor: number, currency: string, rate: string) => Promise<number>;

function baseConverter(app: AppContext, base: { code: string; exp: number }): ToBase {
  const exps = new Map<string, number>();
  return async (minor, currency, rate) => {
    if (currency === base.code) return minor;
    if (!exps.has(currency)) exps.set(currency, await currencyExponent(app, currency));
    return toBase(minor, rateOf(rate), exps.get(currency)!, base.exp);
  };
}

/** Taxable amount and VAT per VAT rate, grouped by (currency, rate) before converting. */
async function vatByRate(app: AppContext, id: string, conv: ToBase) {
  const vatRows = await app.db
    .selectFrom('sale_lines as l')
    .innerJoin('sales as s', 's.id', 'l.sale_id')
    .select((eb) => [
      's.currency_code',
      's.fx_rate_to_base',
      'l.vat_rate',
      eb.fn.sum<number>('l.net_amount').as('taxable'),
      eb.fn.sum<number>('l.vat_amount').as('vat'),
    ])
    .where('s.session_id', '=', id)
    .where('s.is_deleted', '=', 0)
    .groupBy(['s.currency_code', 's.fx_rate_to_base', 'l.vat_rate'])
    .execute();
  const byRate = new Map<string, { taxable: number; vat: number }>();
  for (const r of vatRows) {
    const row = byRate.get(r.vat_rate) ?? { taxable: 0, vat: 0 };
    row.taxable += await conv(Number(r.taxable), r.currency_code, r.fx_rate_to_base);
    row.vat += await conv(Number(r.vat), r.currency_code, r.fx_rate_to_base);
    byRate.set(r.vat_rate, row);
  }
  return byRate;
}

/** Line, global and coupon discounts of the session's sales. */
async function discountTotals(app: AppContext, id: string, conv: ToBase) {
  const discRows = await app.db
    .selectFrom('sales')
    .select((eb) => [
      'currency_code',
      'fx_rate_to_base',
      eb.fn.sum<number>('line_discount_amount').as('line'),
      eb.fn.sum<number>('global_discount').as('global'),
      eb.fn.sum<number>('coupon_discount').as('coupon'),
    ])
    .where('session_id', '=', id)
    .where('is_deleted', '=', 0)
    .groupBy(['currency_code', 'fx_rate_to_base'])
    .execute();
  const disc = { line: 0, global: 0, coupon: 0 };
  for (const r of discRows) {
    disc.line += await conv(Number(r.line), r.currency_code, r.fx_rate_to_base);
    disc.global += await conv(Number(r.global), r.currency_code, r.fx_rate_to_base);
    disc.coupon += await conv(Number(r.coupon), r.currency_code, r.fx_rate_to_base);
  }
  return disc;
}

/** The session's returns: how many, their base total and VAT, and the base total per refund tender. */
async function returnTotals(app: AppContext, id: string, conv: ToBase) {
  const retRows = await app.db
    .selectFrom('returns as r')
    .innerJoin('sales as s', 's.id', 'r.sale_id')
    .select((eb) => [
      'r.refund_method',
      's.currency_code',
      's.fx_rate_to_base',
      eb.fn.countAll<number>().as('n'),
      eb.fn.sum<number>('r.base_total_amount').as('total'),
      eb.fn.sum<number>('r.vat_amount').as('vat'),
    ])
    .where('r.session_id', '=', id)
    .groupBy(['r.refund_method', 's.currency_code', 's.fx_rate_to_base'])
    .execute();
  const ret = { count: 0, total: 0, vat: 0, by: {} as Record<string, number> };
  for (const r of retRows) {
    ret.count += Number(r.n);
    ret.total += Number(r.total);
    ret.vat += await conv(Number(r.vat), r.currency_code, r.fx_rate_to_base);
    ret.by[r.refund_method] = (ret.by[r.refund_method] ?? 0) + Number(r.total);
  }
  return ret;
}

/** How many tender declarations the session has, its branch's name and its cashier's name. */
async function sessionLabels(app: AppContext, s: { id: string; branch_id: string; user_id: string }) {
  const tenders = await app.db
    .selectFrom('tender_declarations')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('session_id', '=', s.id)
    .executeTakeFirstOrThrow();
  const branch = await app.db
    .selectFrom('branches')
    .select('name')
    .where('id', '=', s.branch_id)
    .executeTakeFirst();
  const userRow = await app.db
    .selectFrom('users')
    .select('full_name')
    .where('id', '=', s.user_id)
    .executeTakeFirst();
  return {
    tenderDeclarations: Number(tenders.n),
    branchName: branch?.name ?? '',
    userName: userRow?.full_name ?? '',
  };
}

/**
 * The Z-report of a session (an X-report, z_number null, while it is open). All figures in the base currency:
 * foreign-currency amounts are converted at each sale's own rate, grouped by (currency, rate) before rounding.
 */
export async function zReport(app: AppContext, user: AuthUser, id: string) {
  const s = await readableSession(app, user, id);
  const base = await baseCurrency(app);
  const f = (n: number) => formatMinor(n, base.exp);
  const t = (await sessionTotals(app.db, [id])).get(id)!;
  const conv = baseConverter(app, base);
  const byRate = await vatByRate(app, id, conv);
  const disc = await discountTotals(app, id, conv);
  const ret = await returnTotals(app, id, conv);
  const labels = await sessionLabels(app, { id, branch_id: s.branch_id, user_id: s.user_id });
  const expected = s.status === 'closed' ? (s.expected_cash ?? 0) : expectedCashOf(s, t);
  return {
    session_id: s.id,
    z_number: s.z_number,
    device_id: s.device_id,
    is_final: s.status === 'closed',
    branch_id: s.branch_id,
    branch_name: labels.branchName,
    user_id: s.user_id,
    user_name: labels.userName,
    currency_code: base.code,
    opened_at: s.opened_at,
    closed_at: s.closed_at,
    break_minutes: s.break_minutes,
    sales_count: t.count,
    gross_sales: f(t.revenue),
    net_sales: f(t.revenue - ret.total),
    vat_total: f(t.vat),
    by_payment: Object.entries(t.byMethod)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([method, amount]) => ({ method, count: t.countByMethod[method] ?? 0, amount: f(amount) })),
    vat_by_rate: [...byRate.entries()]
      .sort(([a], [b]) => Number(b) - Number(a))
      .map(([rate, v]) => ({ rate: Number(rate), taxable_amount: f(v.taxable), vat_amount: f(v.vat) })),
    discounts: {
      line: f(disc.line),
      global: f(disc.global),
      coupon: f(disc.coupon),
      total: f(disc.line + disc.global + disc.coupon),
    },
    returns: {
      count: ret.count,
      total: f(ret.total),
      vat: f(ret.vat),
      by_method: Object.fromEntries(Object.entries(ret.by).map(([k, v]) => [k, f(v)])),
    },
    opening_float: f(s.opening_float),
    cash_sales: f(t.cashTaken - t.change),
    cash_refunds: f(t.cashRefunds),
    expected_cash: f(expected),
    counted_cash: s.counted_cash === null ? null : f(s.counted_cash),
    variance: s.variance === null ? null : f(s.variance),
    tender_declarations: labels.tenderDeclarations,
    generated_at: nowIso(),
  };
}
