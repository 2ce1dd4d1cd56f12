import type { CashSession } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { AuthUser } from '../../http/auth';
import { Conflict } from '../../lib/errors';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import type { CashSessionsTable } from '../../db/tables/sessions';
import { presentSession, record, requireActive } from './service';

/** Minutes between two instants, never negative: a break's length. Breaks: a session is `on_break` between these. */
const minutesBetween = (from: string, to: string) =>
  Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 60_000));

export async function startBreak(app: AppContext, user: AuthUser, actor: Actor): Promise<CashSession> {
  const row = await app.db.transaction().execute(async (trx) => {
    const s = await requireActive(trx, user.id);
    if (s.status === 'on_break')
      throw new Conflict('Your session is already on a break.', 'SESSION_ON_BREAK');
    const at = nowIso();
    const after: CashSessionsTable = { ...s, status: 'on_break', break_started_at: at, updated_at: at };
    await trx
      .updateTable('cash_sessions')
      .set({ status: 'on_break', break_started_at: at, updated_at: at })
      .where('id', '=', s.id)
      .execute();
    await record(trx, after);
    await writeAudit(trx, actor, {
      action: 'session.break_start',
      entity: 'cash_session',
      entityId: s.id,
      branchId: s.branch_id,
    });
    return after;
  });
  return presentSession(app, row);
}

export function endedBreak(s: CashSessionsTable, at: string): CashSessionsTable {
  if (s.status !== 'on_break' || !s.break_started_at) return s;
  return {
    ...s,
    status: 'open',
    break_minutes: s.break_minutes + minutesBetween(s.break_started_at, at),
    break_started_at: null,
    updated_at: at,
  };
}

export async function endBreak(app: AppContext, user: AuthUser, actor: Actor): Promise<CashSession> {
  const row = await app.db.transaction().execute(async (trx) => {
    const s = await requireActive(trx, user.id);
    if (s.status !== 'on_break') throw new Conflict('Your session is not on a break.', 'NOT_ON_BREAK');
    const after = endedBreak(s, nowIso());
    await trx
      .updateTable('cash_sessions')
      .set({
        status: after.status,
        break_minutes: after.break_minutes,
        break_started_at: null,
        updated_at: after.updated_at,
      })
      .where('id', '=', s.id)
      .execute();
    await record(trx, after);
    await writeAudit(trx, actor, {
      action: 'session.break_end',
      entity: 'cash_session',
      entityId: s.id,
      branchId: s.branch_id,
      after: { break_minutes: after.break_minutes },
    });
    return after;
  });
  return presentSession(app, row);
}
