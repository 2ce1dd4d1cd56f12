import { vatByRate as sumVatByRate } from '@pharmacy/contracts/pricing';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import type { CashSessionsTable } from '../../db/tables/sessions';
import type { AuthUser } from '../../http/auth';
import { formatMinor } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { currencyExponent } from '../currency/service';
import { rateOf, toBase } from '../currency/fx';
import { baseCurrency, presentSession, readableSession } from './service';
import { expectedCashOf, sessionTotals } from './totals';

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

/**
 * Taxable amount and VAT per VAT rate, grouped by (currency, rate) before converting: the session's sold lines
 * minus the lines of the credit notes refunded in the session.
 */
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
  const returnRows = await app.db
    .selectFrom('return_lines as l')
    .innerJoin('returns as r', 'r.id', 'l.return_id')
    .innerJoin('sales as s', 's.id', 'r.sale_id')
    .select((eb) => [
      's.currency_code',
      's.fx_rate_to_base',
      'l.vat_rate',
      eb.fn.sum<number>('l.net_amount').as('taxable'),
      eb.fn.sum<number>('l.vat_amount').as('vat'),
    ])
    .where('r.session_id', '=', id)
    .groupBy(['s.currency_code', 's.fx_rate_to_base', 'l.vat_rate'])
    .execute();
  // Refunded lines count against their rate: the session's VAT is net of what it refunded.
  const lines = [...vatRows.map((r) => ({ ...r, sign: 1 })), ...returnRows.map((r) => ({ ...r, sign: -1 }))];
  const converted = [];
  for (const r of lines)
    converted.push({
      rate: r.vat_rate,
      net: r.sign * (await conv(Number(r.taxable), r.currency_code, r.fx_rate_to_base)),
      vat: r.sign * (await conv(Number(r.vat), r.currency_code, r.fx_rate_to_base)),
    });
  return sumVatByRate(converted).sort((a, b) => Number(b.rate) - Number(a.rate));
}

export interface TenderLine {
  currency_code: string;
  rate: string;
  method: string;
  count: number;
  /** In the tender's currency. */
  amount: number;
  /** In the base currency, at the rate of each sale. */
  base: number;
}

/**
 * What the session took and paid out per currency, rate and tender: sale tenders (cash net of the change, which
 * comes out of the sale's currency when the drawer holds it, else out of the base currency), minus refunds in the same tender and currency, plus payments on account (base
 * currency). Rows of one currency at several rates stay apart, so each shows the rate it was converted at.
 */
export async function tendersByCurrency(db: Db, id: string, base: string): Promise<TenderLine[]> {
  const paid = await db
    .selectFrom('sale_payments as p')
    .innerJoin('sales as s', 's.id', 'p.sale_id')
    .select((eb) => [
      's.currency_code',
      's.fx_rate_to_base as rate',
      'p.method',
      eb.fn.count<number>('p.sale_id').distinct().as('n'),
      eb.fn.sum<number>('p.amount').as('amount'),
      eb.fn.sum<number>('p.base_amount').as('base'),
    ])
    .where('s.session_id', '=', id)
    .where('s.is_deleted', '=', 0)
    .groupBy(['s.currency_code', 's.fx_rate_to_base', 'p.method'])
    .execute();
  const change = await db
    .selectFrom('sales')
    .select((eb) => [
      'currency_code',
      'fx_rate_to_base as rate',
      eb.fn.coalesce('change_currency_code', 'currency_code').as('given_in'),
      eb.fn.sum<number>('change_amount').as('amount'),
      eb.fn.sum<number>('base_change_amount').as('base'),
    ])
    .where('session_id', '=', id)
    .where('is_deleted', '=', 0)
    .groupBy(['currency_code', 'fx_rate_to_base', 'change_currency_code'])
    .execute();
  const refunds = await db
    .selectFrom('returns as r')
    .innerJoin('sales as s', 's.id', 'r.sale_id')
    .select((eb) => [
      's.currency_code',
      's.fx_rate_to_base as rate',
      'r.refund_method as method',
      eb.fn.sum<number>('r.total_amount').as('amount'),
      eb.fn.sum<number>('r.base_total_amount').as('base'),
    ])
    .where('r.session_id', '=', id)
    .groupBy(['s.currency_code', 's.fx_rate_to_base', 'r.refund_method'])
    .execute();
  const account = await db
    .selectFrom('customer_ledger')
    .select((eb) => ['tender', eb.fn.countAll<number>().as('n'), eb.fn.sum<number>('amount').as('amount')])
    .where('session_id', '=', id)
    .where('transaction_type', '=', 'PAYMENT')
    .groupBy('tender')
    .execute();
  const lines = new Map<string, TenderLine>();
  const add = (currency: string, rate: string, method: string, n: number, amount: number, inBase: number) => {
    const key = `${currency}\u0000${rate}\u0000${method}`;
    const l = lines.get(key) ?? { currency_code: currency, rate, method, count: 0, amount: 0, base: 0 };
    l.count += n;
    l.amount += amount;
    l.base += inBase;
    lines.set(key, l);
  };
  for (const p of paid) add(p.currency_code, p.rate, p.method, Number(p.n), Number(p.amount), Number(p.base));
  for (const c of change)
    if (c.given_in === c.currency_code)
      add(c.currency_code, c.rate, 'cash', 0, -Number(c.amount), -Number(c.base));
    else add(base, '1', 'cash', 0, -Number(c.base), -Number(c.base));
  for (const r of refunds) add(r.currency_code, r.rate, r.method, 0, -Number(r.amount), -Number(r.base));
  for (const a of account)
    add(base, '1', a.tender ?? 'cash', Number(a.n), Number(a.amount), Number(a.amount));
  return [...lines.values()]
    .filter((l) => l.count > 0 || l.amount !== 0)
    .sort(
      (a, b) =>
        Number(b.currency_code === base) - Number(a.currency_code === base) ||
        a.currency_code.localeCompare(b.currency_code) ||
        a.rate.localeCompare(b.rate) ||
        a.method.localeCompare(b.method),
    );
}

export interface CountedCurrency {
  currency_code: string;
  rate: string;
  expected: number;
  counted: number;
  expected_base: number;
  counted_base: number;
}

/** The frozen count of a closed session, per currency (null while open or for a close before 0025). */
export function countedByCurrency(
  s: Pick<CashSessionsTable, 'counted_by_currency'>,
): CountedCurrency[] | null {
  if (!s.counted_by_currency) return null;
  return JSON.parse(s.counted_by_currency) as CountedCurrency[];
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

/** The exponent of the base currency and of every currency the tender lines name. */
async function exponentsOf(
  app: AppContext,
  lines: readonly TenderLine[],
  base: { code: string; exp: number },
) {
  const exps = new Map([[base.code, base.exp]]);
  for (const l of lines)
    if (!exps.has(l.currency_code)) exps.set(l.currency_code, await currencyExponent(app, l.currency_code));
  return exps;
}

/**
 * The cash the drawer should hold per currency and rate: the cash tender lines, the opening float with the
 * base currency's line. The base-currency equivalents add up to expected_cash while the session is open.
 */
export function cashByCurrency(lines: readonly TenderLine[], s: { opening_float: number }, base: string) {
  const cash = lines.filter((l) => l.method === 'cash');
  const out = cash.map((l) => ({
    currency_code: l.currency_code,
    rate: l.rate,
    expected: l.amount,
    base: l.base,
  }));
  const own = out.find((c) => c.currency_code === base);
  if (own) {
    own.expected += s.opening_float;
    own.base += s.opening_float;
  } else out.unshift({ currency_code: base, rate: '1', expected: s.opening_float, base: s.opening_float });
  return out;
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

/** The close's count per currency, formatted: expected, counted and variance, each also in the base currency. */
async function countedLines(
  app: AppContext,
  s: Pick<CashSessionsTable, 'counted_by_currency'>,
  base: { code: string; exp: number },
) {
  const counted = countedByCurrency(s);
  if (!counted) return null;
  const out = [];
  for (const c of counted) {
    const exp = c.currency_code === base.code ? base.exp : await currencyExponent(app, c.currency_code);
    const f = (n: number) => formatMinor(n, exp);
    const fb = (n: number) => formatMinor(n, base.exp);
    out.push({
      currency_code: c.currency_code,
      rate: c.rate,
      expected: f(c.expected),
      counted: f(c.counted),
      variance: f(c.counted - c.expected),
      expected_base: fb(c.expected_base),
      counted_base: fb(c.counted_base),
      variance_base: fb(c.counted_base - c.expected_base),
    });
  }
  return out;
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
  const tenders = await tendersByCurrency(app.db, id, base.code);
  const account = Object.entries(t.accountPayments).sort(([a], [b]) => (a < b ? -1 : 1));
  const currencyExp = await exponentsOf(app, tenders, base);
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
    vat_total: f(t.vat - ret.vat),
    gross_vat: f(t.vat),
    by_payment: Object.entries(t.byMethod)
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([method, amount]) => ({ method, count: t.countByMethod[method] ?? 0, amount: f(amount) })),
    vat_by_rate: byRate.map((v) => ({
      rate: Number(v.rate),
      taxable_amount: f(v.taxable),
      vat_amount: f(v.vat),
    })),
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
    account_payments: {
      count: account.reduce((a, [, v]) => a + v.count, 0),
      total: f(account.reduce((a, [, v]) => a + v.amount, 0)),
      by_method: account.map(([method, v]) => ({ method, count: v.count, amount: f(v.amount) })),
    },
    tenders_by_currency: tenders.map((l) => ({
      currency_code: l.currency_code,
      method: l.method,
      rate: l.rate,
      count: l.count,
      amount: formatMinor(l.amount, currencyExp.get(l.currency_code)!),
      base_amount: f(l.base),
    })),
    cash_by_currency: cashByCurrency(tenders, s, base.code).map((c) => ({
      currency_code: c.currency_code,
      rate: c.rate,
      expected: formatMinor(c.expected, currencyExp.get(c.currency_code)!),
      expected_base: f(c.base),
    })),
    opening_float: f(s.opening_float),
    cash_sales: f(t.cashTaken - t.change),
    cash_account_payments: f(t.accountPayments.cash?.amount ?? 0),
    cash_refunds: f(t.cashRefunds),
    expected_cash: f(expected),
    counted_cash: s.counted_cash === null ? null : f(s.counted_cash),
    counted_by_currency: await countedLines(app, s, base),
    variance: s.variance === null ? null : f(s.variance),
    tender_declarations: labels.tenderDeclarations,
    generated_at: nowIso(),
  };
}
