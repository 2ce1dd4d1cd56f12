import { paginate } from '../../db/paginate';
import type { z } from 'zod';
import type { TenderRequest } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import { recordUpsert } from '../../db/changes';
import type { AuthUser } from '../../http/auth';
import { Invalid } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { formatMinor, toMinor } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { baseCurrency, requireActive } from './service';

/** Tender declarations (cash drops and counts) of a session. */
export async function declareTender(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: z.output<typeof TenderRequest>,
) {
  const { exp } = await baseCurrency(app);
  const denominations = (input.denominations ?? []).map((d) => ({
    value: toMinor(d.value, exp, 'denominations.value'),
    count: d.count,
  }));
  const fromDenoms = denominations.reduce((a, d) => a + d.value * d.count, 0);
  if (!Number.isSafeInteger(fromDenoms)) throw new Invalid('The denominations add up to too much.');
  const amount = input.amount === undefined ? fromDenoms : toMinor(input.amount, exp, 'amount');
  if (denominations.length > 0 && amount !== fromDenoms)
    throw new Invalid(
      `amount ${formatMinor(amount, exp)} does not equal the denominations' total ${formatMinor(fromDenoms, exp)}.`,
      [{ path: 'amount', message: `must equal ${formatMinor(fromDenoms, exp)}` }],
    );
  const row = await app.db.transaction().execute(async (trx) => {
    const s = await requireActive(trx, user.id);
    const r = {
      id: newId(),
      session_id: s.id,
      user_id: user.id,
      branch_id: s.branch_id,
      amount,
      denominations: JSON.stringify(denominations),
      notes: input.notes,
      declared_at: nowIso(),
    };
    await trx.insertInto('tender_declarations').values(r).execute();
    await recordUpsert(trx, 'tender_declaration', r, r.branch_id);
    await writeAudit(trx, actor, {
      action: 'session.tender',
      entity: 'cash_session',
      entityId: s.id,
      branchId: s.branch_id,
      after: r,
    });
    return r;
  });
  return toTender(row, exp);
}

const toTender = (
  r: {
    id: string;
    session_id: string;
    user_id: string;
    branch_id: string;
    amount: number;
    denominations: string;
    notes: string;
    declared_at: string;
  },
  exp: number,
) => ({
  ...r,
  amount: formatMinor(r.amount, exp),
  denominations: (JSON.parse(r.denominations) as Array<{ value: number; count: number }>).map((d) => ({
    value: formatMinor(d.value, exp),
    count: d.count,
  })),
});

export async function tenderHistory(
  app: AppContext,
  user: AuthUser,
  f: { page: number; page_size: number; session_id?: string },
) {
  const { exp } = await baseCurrency(app);
  let q = app.db.selectFrom('tender_declarations').where('user_id', '=', user.id);
  if (f.session_id) q = q.where('session_id', '=', f.session_id);
  const found = await paginate(q, f, (q) =>
    q.selectAll().orderBy('declared_at', 'desc').orderBy('id', 'desc'),
  );
  return { ...found, items: found.items.map((r) => toTender(r, exp)) };
}

/** Closed sessions, newest close first. Cashiers and pharmacists see their own; managers their branch. */
