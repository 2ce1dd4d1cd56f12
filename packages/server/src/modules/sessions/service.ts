import { withinUtcDays } from '../../db/utc-days';
import { paginate } from '../../db/paginate';
import { sql } from 'kysely';
import type { CashSession } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordUpsert } from '../../db/changes';
import { assertBranchAccess, type AuthUser, isBranchBound } from '../../http/auth';
import { AppError, Conflict, Forbidden, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { formatMinor, toMinor } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { currencyExponent } from '../currency/service';
import { getLocalDeviceId } from '../fiscal/device';
import { getSettings } from '../settings/service';
import type { CashSessionsTable } from '../../db/tables/sessions';
import { expectedCashOf, type SessionTotals, sessionTotals } from './totals';

/**
 * Cash sessions: a user's shift at a till, in the base currency. Status `open` -> `on_break` -> `open` … ->
 * `closed`. One session not closed per user (a partial unique index makes it hold under races). Figures
 * (total_sales, revenue, VAT, payment_breakdown, expected cash) are derived from the session's sales, returns
 * and payments on account,
 * never stored as running counters, so they cannot drift; close freezes expected/counted/variance and the Z number, sequential per branch and device (the till the
 * session was opened on), so tills closing offline never collide.
 */

export class NoOpenSession extends AppError {
  constructor() {
    super(
      409,
      'NO_OPEN_SESSION',
      'No cash session of yours is open on this till; open one on the Cash session screen before taking money.',
    );
  }
}

/**
 * The one rule for taking money at the till (a sale, a payment on account), whoever takes it: it belongs to the
 * taker's open session on this till (device). None open: 409 NO_OPEN_SESSION; on a break: 409 SESSION_ON_BREAK;
 * the session is open on another till: 409 SESSION_ON_OTHER_TILL.
 */
export function takingSession<S extends Pick<CashSessionsTable, 'status' | 'device_id'>>(
  session: S | undefined,
  deviceId: string,
): S {
  if (!session) throw new NoOpenSession();
  if (session.status === 'on_break')
    throw new Conflict(
      'Your cash session is on a break; end the break before taking money.',
      'SESSION_ON_BREAK',
    );
  if (session.device_id !== deviceId)
    throw new Conflict(
      'Your open cash session is on another till; take money there, or close that session and open one here.',
      'SESSION_ON_OTHER_TILL',
    );
  return session;
}

export async function baseCurrency(app: AppContext): Promise<{ code: string; exp: number }> {
  const code = (await getSettings(app)).base_currency_code;
  return { code, exp: await currencyExponent(app, code) };
}

/** The caller's session that is not closed (open or on break), or undefined. */
export async function findActiveSession(db: Db, userId: string): Promise<CashSessionsTable | undefined> {
  return db
    .selectFrom('cash_sessions')
    .selectAll()
    .where('user_id', '=', userId)
    .where('status', '!=', sql.lit('closed'))
    .executeTakeFirst();
}

export async function requireActive(db: Db, userId: string): Promise<CashSessionsTable> {
  const s = await findActiveSession(db, userId);
  if (!s) throw new NoOpenSession();
  return s;
}

export function toSession(
  s: CashSessionsTable,
  userName: string,
  t: SessionTotals,
  exp: number,
): CashSession {
  const f = (n: number) => formatMinor(n, exp);
  return {
    id: s.id,
    user_id: s.user_id,
    user_name: userName,
    branch_id: s.branch_id,
    device_id: s.device_id,
    currency_code: s.currency_code,
    opening_float: f(s.opening_float),
    status: s.status,
    break_minutes: s.break_minutes,
    break_started_at: s.break_started_at,
    opened_at: s.opened_at,
    closed_at: s.closed_at,
    total_sales: t.count,
    total_revenue: f(t.revenue),
    total_vat: f(t.vat),
    payment_breakdown: JSON.stringify(
      Object.fromEntries(Object.entries(t.byMethod).map(([k, v]) => [k, f(v)])),
    ),
    expected_cash: s.status === 'closed' ? f(s.expected_cash ?? 0) : f(expectedCashOf(s, t)),
    counted_cash: s.counted_cash === null ? null : f(s.counted_cash),
    variance: s.variance === null ? null : f(s.variance),
    z_number: s.z_number,
    notes: s.notes,
  };
}

async function userName(db: Db, id: string): Promise<string> {
  return (
    (await db.selectFrom('users').select('full_name').where('id', '=', id).executeTakeFirst())?.full_name ??
    ''
  );
}

export async function presentSession(app: AppContext, s: CashSessionsTable): Promise<CashSession> {
  const { exp } = await baseCurrency(app);
  const totals = (await sessionTotals(app.db, [s.id])).get(s.id)!;
  return toSession(s, await userName(app.db, s.user_id), totals, exp);
}

export async function getSessionRow(db: Db, id: string): Promise<CashSessionsTable> {
  const s = await db.selectFrom('cash_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!s) throw new NotFound('Cash session', id);
  return s;
}

export async function record(trx: Db, s: CashSessionsTable) {
  await recordUpsert(trx, 'cash_session', s, s.branch_id);
}

export async function openSession(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: { opening_float: number; notes: string },
): Promise<CashSession> {
  const base = await baseCurrency(app);
  const float = toMinor(input.opening_float, base.exp, 'opening_float');
  const deviceId = await getLocalDeviceId(app.db);
  const at = nowIso();
  const row: CashSessionsTable = {
    id: newId(),
    user_id: user.id,
    branch_id: user.branchId,
    device_id: deviceId,
    currency_code: base.code,
    opening_float: float,
    status: 'open',
    break_minutes: 0,
    break_started_at: null,
    opened_at: at,
    closed_at: null,
    counted_cash: null,
    expected_cash: null,
    variance: null,
    z_number: null,
    notes: input.notes,
    updated_at: at,
    counted_by_currency: null,
  };
  await app.db.transaction().execute(async (trx) => {
    if (await findActiveSession(trx, user.id))
      throw new Conflict(
        'You already have an open cash session; close it before opening another.',
        'SESSION_ALREADY_OPEN',
      );
    await trx.insertInto('cash_sessions').values(row).execute();
    await record(trx, row);
    await writeAudit(trx, actor, {
      action: 'session.open',
      entity: 'cash_session',
      entityId: row.id,
      branchId: row.branch_id,
      after: row,
    });
  });
  return presentSession(app, row);
}

export async function currentSession(app: AppContext, user: AuthUser): Promise<CashSession> {
  const s = await findActiveSession(app.db, user.id);
  if (!s) throw new NotFound('An open cash session of yours');
  return presentSession(app, s);
}

export async function sessionHistory(
  app: AppContext,
  user: AuthUser,
  f: { page: number; page_size: number; branch_id?: string; user_id?: string; from?: string; to?: string },
) {
  const { exp } = await baseCurrency(app);
  let q = app.db
    .selectFrom('cash_sessions as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .where('s.status', '=', 'closed');
  const branch = isBranchBound(user) ? user.branchId : f.branch_id;
  if (branch) q = q.where('s.branch_id', '=', branch);
  if (user.role === 'cashier' || user.role === 'pharmacist') q = q.where('s.user_id', '=', user.id);
  else if (f.user_id) q = q.where('s.user_id', '=', f.user_id);
  q = withinUtcDays(q, 's.closed_at', f);
  const found = await paginate(q, f, (q) =>
    q
      .selectAll('s')
      .select('u.full_name as user_name')
      .orderBy('s.closed_at', 'desc')
      .orderBy('s.id', 'desc'),
  );
  const totals = await sessionTotals(
    app.db,
    found.items.map((r) => r.id),
  );
  return {
    ...found,
    items: found.items.map(({ user_name, ...s }) => toSession(s, user_name, totals.get(s.id)!, exp)),
  };
}

/** A session another user may read: same branch for branch-bound roles (403), cashiers only their own. */
export async function readableSession(
  app: AppContext,
  user: AuthUser,
  id: string,
): Promise<CashSessionsTable> {
  const s = await getSessionRow(app.db, id);
  assertBranchAccess(user, s.branch_id, 'cash session');
  if (user.role === 'cashier' && s.user_id !== user.id)
    throw new Forbidden('A cashier can only read their own sessions.', 'NOT_YOUR_SESSION');
  return s;
}
