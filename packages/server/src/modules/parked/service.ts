import { paginate } from '../../db/paginate';
import type { z } from 'zod';
import type { ParkCartRequest, ParkedCart } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordUpsert } from '../../db/changes';
import { assertBranchAccess, type AuthUser, isBranchBound } from '../../http/auth';
import { Conflict, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { getCustomerRow } from '../customers/service';
import type { ParkedCartsTable } from '../../db/tables/parked';

/**
 * Parked carts: a cart put on hold, recalled later at any till of the branch. States parked -> recalled or
 * parked -> voided, each final. Prices are not reserved: the cart is re-priced when it is sold.
 */

async function record(trx: Db, row: ParkedCartsTable) {
  await recordUpsert(trx, 'parked_cart', row, row.branch_id);
}

const toCart = (r: ParkedCartsTable & { user_name: string }): ParkedCart => ({
  ...r,
  items: JSON.parse(r.items) as ParkedCart['items'],
});

async function load(db: Db, id: string) {
  const r = await db
    .selectFrom('parked_carts as p')
    .innerJoin('users as u', 'u.id', 'p.user_id')
    .selectAll('p')
    .select('u.full_name as user_name')
    .where('p.id', '=', id)
    .executeTakeFirst();
  if (!r) throw new NotFound('Parked cart', id);
  return r;
}

export async function parkCart(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: z.output<typeof ParkCartRequest>,
) {
  if (input.customer_id) await getCustomerRow(app.db, input.customer_id);
  const at = nowIso();
  const row: ParkedCartsTable = {
    id: newId(),
    branch_id: user.branchId,
    user_id: user.id,
    label: input.label,
    customer_id: input.customer_id ?? null,
    items: JSON.stringify(input.items),
    notes: input.notes,
    status: 'parked',
    recalled_by: null,
    recalled_at: null,
    voided_by: null,
    voided_at: null,
    void_reason: null,
    created_at: at,
    updated_at: at,
  };
  await app.db.transaction().execute(async (trx) => {
    await trx.insertInto('parked_carts').values(row).execute();
    await record(trx, row);
    await writeAudit(trx, actor, {
      action: 'parked.create',
      entity: 'parked_cart',
      entityId: row.id,
      branchId: row.branch_id,
      after: row,
    });
  });
  return toCart(await load(app.db, row.id));
}

export async function listParked(
  app: AppContext,
  user: AuthUser,
  f: {
    page: number;
    page_size: number;
    status: 'parked' | 'recalled' | 'voided' | 'all';
    branch_id?: string;
  },
) {
  let q = app.db.selectFrom('parked_carts as p').innerJoin('users as u', 'u.id', 'p.user_id');
  const branch = isBranchBound(user) ? user.branchId : f.branch_id;
  if (branch) q = q.where('p.branch_id', '=', branch);
  if (f.status !== 'all') q = q.where('p.status', '=', f.status);
  const found = await paginate(q, f, (q) =>
    q
      .selectAll('p')
      .select('u.full_name as user_name')
      .orderBy('p.created_at', 'desc')
      .orderBy('p.id', 'desc'),
  );
  return { ...found, items: found.items.map(toCart) };
}

async function transition(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  to: 'recalled' | 'voided',
  reason?: string,
) {
  await app.db.transaction().execute(async (trx) => {
    const before = await load(trx, id);
    assertBranchAccess(user, before.branch_id, 'parked cart');
    if (before.status === 'recalled')
      throw new Conflict('This cart has already been recalled.', 'ALREADY_RECALLED');
    if (before.status === 'voided') throw new Conflict('This cart has been voided.', 'ALREADY_VOIDED');
    const at = nowIso();
    const set =
      to === 'recalled'
        ? { status: to, recalled_by: user.id, recalled_at: at, updated_at: at }
        : { status: to, voided_by: user.id, voided_at: at, void_reason: reason ?? '', updated_at: at };
    const res = await trx
      .updateTable('parked_carts')
      .set(set)
      .where('id', '=', id)
      .where('status', '=', 'parked')
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1)
      throw new Conflict('This cart has already been recalled.', 'ALREADY_RECALLED');
    const { user_name: _, ...row } = before;
    const after = { ...row, ...set } as ParkedCartsTable;
    await record(trx, after);
    await writeAudit(trx, actor, {
      action: `parked.${to === 'recalled' ? 'recall' : 'void'}`,
      entity: 'parked_cart',
      entityId: id,
      branchId: before.branch_id,
      before: row,
      after,
    });
  });
  return toCart(await load(app.db, id));
}

export const recallCart = (app: AppContext, user: AuthUser, actor: Actor, id: string) =>
  transition(app, user, actor, id, 'recalled');
export const voidCart = (app: AppContext, user: AuthUser, actor: Actor, id: string, reason: string) =>
  transition(app, user, actor, id, 'voided', reason);
