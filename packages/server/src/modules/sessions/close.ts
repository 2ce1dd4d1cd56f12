import type { CashSession } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import type { CashSessionsTable } from '../../db/tables/sessions';
import type { AuthUser } from '../../http/auth';
import { Conflict, Invalid, NotFound } from '../../lib/errors';
import { toMinor } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { drawerCurrencies } from '../branches/service';
import { getCurrency, presentRate, resolveRate } from '../currency/service';
import { rateOf, toBase } from '../currency/fx';
import { type CountedCurrency, cashByCurrency, tendersByCurrency } from './reports';
import { baseCurrency, presentSession, record, requireActive } from './service';
import { endedBreak } from './breaks';
import { expectedCashOf, sessionTotals } from './totals';

/**
 * Closing a cash session (issue 27.4): one counted amount per currency the drawer holds — the base currency,
 * the foreign currencies the branch's drawers hold, and any other currency the session took in cash. Each is
 * set against what the session should hold in it; its base equivalent is the expected base amount plus the
 * variance at the session's rate for that currency (the latest, when it changed). The close freezes the count
 * per currency, the counted total and the variance in the base currency, and the Z number.
 */

export interface CloseInput {
  counted_cash?: number | undefined;
  counted_by_currency?: Array<{ currency_code: string; amount: number }> | undefined;
  notes: string;
}

/** Expected cash per currency (rates merged), with the rate a variance converts at. */
async function expectedPerCurrency(trx: Db, s: CashSessionsTable, base: string) {
  const lines = await tendersByCurrency(trx, s.id, base);
  const latest = await trx
    .selectFrom('sales')
    .select(['currency_code', 'fx_rate_to_base'])
    .where('session_id', '=', s.id)
    .where('is_deleted', '=', 0)
    .orderBy('sold_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
  const out = new Map<string, { rate: string; expected: number; base: number }>();
  for (const c of cashByCurrency(lines, s, base)) {
    const row = out.get(c.currency_code) ?? {
      rate: latest.find((l) => l.currency_code === c.currency_code)?.fx_rate_to_base ?? c.rate,
      expected: 0,
      base: 0,
    };
    row.expected += c.expected;
    row.base += c.base;
    out.set(c.currency_code, row);
  }
  return out;
}

const countError = (detail: string, message: string) =>
  new Invalid(detail, [{ path: 'counted_by_currency', message }], 'COUNT_EACH_CURRENCY');

/** The count per currency the request gives, checked against the currencies the drawer must be counted in. */
function countsOf(input: CloseInput, required: readonly string[], base: string) {
  const given = input.counted_by_currency;
  if (!given) {
    if (required.length > 1)
      throw countError(
        `Count the drawer in each currency it holds: ${required.join(', ')}.`,
        `one amount for each of ${required.join(', ')}`,
      );
    if (input.counted_cash === undefined)
      throw new Invalid('Give the cash counted in the drawer.', [
        { path: 'counted_cash', message: 'required' },
      ]);
    return [{ currency_code: base, amount: input.counted_cash }];
  }
  const codes = given.map((g) => g.currency_code);
  const missing = required.filter((c) => !codes.includes(c));
  if (missing.length > 0)
    throw countError(`Count the drawer in ${missing.join(', ')} too.`, `missing ${missing.join(', ')}`);
  const extra = codes.filter((c, i) => !required.includes(c) || codes.indexOf(c) !== i);
  if (extra.length > 0)
    throw countError(
      `The drawer is counted once in each of ${required.join(', ')}; not in ${extra.join(', ')}.`,
      `not expected: ${extra.join(', ')}`,
    );
  return given;
}

/**
 * The rate a drawer currency the session took no cash in is counted at: the one in force at the close. Without
 * one a count of 0 converts to 0 whatever the rate (kept at '1'); any other count is refused (409), as a sale in
 * that currency would be.
 */
async function rateAtClose(
  trx: Db,
  code: string,
  base: string,
  at: string,
  counted: number,
): Promise<string> {
  try {
    return presentRate(await resolveRate(trx, code, base, at)).rate;
  } catch (e) {
    if (!(e instanceof NotFound)) throw e;
    if (counted === 0) return '1';
    throw new Conflict(
      `No exchange rate from ${code} to ${base} is in force, so the ${code} counted cannot be valued; file one first.`,
      'NO_EXCHANGE_RATE',
    );
  }
}

async function countPerCurrency(
  trx: Db,
  base: { code: string; exp: number },
  s: CashSessionsTable,
  input: CloseInput,
  at: string,
): Promise<CountedCurrency[]> {
  const expected = await expectedPerCurrency(trx, s, base.code);
  const branch = await trx
    .selectFrom('branches')
    .select('drawer_currencies')
    .where('id', '=', s.branch_id)
    .executeTakeFirst();
  const held = branch ? drawerCurrencies(branch) : [];
  const required = [base.code, ...held, ...[...expected].filter(([, e]) => e.expected !== 0).map(([c]) => c)];
  const unique = [...new Set(required)];
  const counts = countsOf(input, unique, base.code);
  const out: CountedCurrency[] = [];
  for (const [i, c] of counts.entries()) {
    const exp = c.currency_code === base.code ? base.exp : (await getCurrency(trx, c.currency_code)).exponent;
    const counted = toMinor(c.amount, exp, `counted_by_currency.${i}.amount`);
    // A currency the drawer holds but the session took none of: valued at the rate in force now, not 1:1.
    const e = expected.get(c.currency_code) ?? {
      rate:
        c.currency_code === base.code ? '1' : await rateAtClose(trx, c.currency_code, base.code, at, counted),
      expected: 0,
      base: 0,
    };
    const variance = counted - e.expected;
    const varianceBase =
      c.currency_code === base.code ? variance : toBase(variance, rateOf(e.rate), exp, base.exp);
    out.push({
      currency_code: c.currency_code,
      rate: c.currency_code === base.code ? '1' : e.rate,
      expected: e.expected,
      counted,
      expected_base: e.base,
      counted_base: e.base + varianceBase,
    });
  }
  return out;
}

export async function closeSession(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: CloseInput,
): Promise<CashSession> {
  // Read before the transaction: on SQLite a read through app.db inside it waits for the connection it holds.
  const base = await baseCurrency(app);
  const row = await app.db.transaction().execute(async (trx) => {
    const s = await requireActive(trx, user.id);
    const at = nowIso();
    const totals = (await sessionTotals(trx, [s.id])).get(s.id)!;
    const expected = expectedCashOf(s, totals);
    const perCurrency = await countPerCurrency(trx, base, s, input, at);
    const counted = perCurrency.reduce((a, c) => a + c.counted_base, 0);
    const last = await trx
      .selectFrom('cash_sessions')
      .select((eb) => eb.fn.max<number | null>('z_number').as('z'))
      .where('branch_id', '=', s.branch_id)
      .where('device_id', '=', s.device_id)
      .executeTakeFirst();
    const after: CashSessionsTable = {
      ...endedBreak(s, at),
      status: 'closed',
      closed_at: at,
      counted_cash: counted,
      expected_cash: expected,
      variance: counted - expected,
      z_number: Number(last?.z ?? 0) + 1,
      notes: input.notes ? (s.notes ? `${s.notes}\n${input.notes}` : input.notes) : s.notes,
      updated_at: at,
      counted_by_currency: JSON.stringify(perCurrency),
    };
    const { id: _, ...set } = after;
    await trx.updateTable('cash_sessions').set(set).where('id', '=', s.id).execute();
    await record(trx, after);
    await writeAudit(trx, actor, {
      action: 'session.close',
      entity: 'cash_session',
      entityId: s.id,
      branchId: s.branch_id,
      before: s,
      after,
    });
    return after;
  });
  return presentSession(app, row);
}
