import { withinUtcDays } from '../../db/utc-days';
import type { Batch, MovementType, StockMovement } from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { NotFound } from '../../lib/errors';
import { formatMinor } from '../../lib/money';
import { addDays } from '@pharmacy/contracts/time';
import { branchToday } from './ledger';
import { pageAnswer, paginate } from '../../db/paginate';

/** Batches with the names a screen needs. */
export const selectBatches = (db: Db) =>
  db
    .selectFrom('batches as b')
    .innerJoin('medicines as m', 'm.id', 'b.medicine_id')
    .innerJoin('branches as br', 'br.id', 'b.branch_id')
    .leftJoin('suppliers as s', 's.id', 'b.supplier_id')
    .selectAll('b')
    .select(['m.name as medicine_name', 'br.name as branch_name', 's.name as supplier_name']);

type BatchRow = Awaited<ReturnType<ReturnType<typeof selectBatches>['executeTakeFirstOrThrow']>>;

export const toBatch = (r: BatchRow, exponent: number, today: string): Batch => ({
  id: r.id,
  medicine_id: r.medicine_id,
  medicine_name: r.medicine_name,
  branch_id: r.branch_id,
  branch_name: r.branch_name,
  batch_number: r.batch_number,
  expiry_date: r.expiry_date,
  qty_received: r.qty_received,
  qty_on_hand: r.qty_on_hand,
  unit_cost: formatMinor(r.unit_cost, exponent),
  supplier_id: r.supplier_id,
  supplier_name: r.supplier_name,
  regulator_status: r.regulator_status,
  is_expired: r.expiry_date < today,
  received_at: r.received_at,
  received_by: r.received_by,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export async function getBatch(db: Db, id: string, exponent: number): Promise<Batch> {
  const row = await selectBatches(db).where('b.id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Batch', id);
  return toBatch(row, exponent, await branchToday(db, row.branch_id));
}

export interface MovementFilter {
  branch_id?: string;
  medicine_id?: string;
  batch_id?: string;
  type?: MovementType;
  from?: string;
  to?: string;
  page: number;
  page_size: number;
}

const selectMovements = (db: Db) =>
  db
    .selectFrom('stock_movements as sm')
    .innerJoin('batches as b', 'b.id', 'sm.batch_id')
    .innerJoin('medicines as m', 'm.id', 'sm.medicine_id')
    .leftJoin('users as u', 'u.id', 'sm.user_id')
    .select([
      'sm.id',
      'sm.type',
      'sm.quantity',
      'sm.batch_id',
      'b.batch_number',
      'b.expiry_date',
      'sm.branch_id',
      'sm.medicine_id',
      'm.name as medicine_name',
      'sm.reference_type',
      'sm.reference_id',
      'sm.user_id',
      'u.full_name as user_name',
      'sm.reason',
      'sm.created_at',
    ]);

type MovementRow = Awaited<ReturnType<ReturnType<typeof selectMovements>['executeTakeFirstOrThrow']>>;
const toMovement = (r: MovementRow): StockMovement => ({ ...r, type: r.type as MovementType });

/** The ledger, newest first, with filters; dates are whole UTC days, `to` inclusive. */
export async function listMovements(db: Db, f: MovementFilter) {
  let q = selectMovements(db);
  if (f.branch_id) q = q.where('sm.branch_id', '=', f.branch_id);
  if (f.medicine_id) q = q.where('sm.medicine_id', '=', f.medicine_id);
  if (f.batch_id) q = q.where('sm.batch_id', '=', f.batch_id);
  if (f.type) q = q.where('sm.type', '=', f.type);
  q = withinUtcDays(q, 'sm.created_at', f);
  const found = await paginate(q, f, (q) => q.orderBy('sm.created_at', 'desc').orderBy('sm.id', 'desc'));
  return { ...found, items: found.items.map(toMovement) };
}

/**
 * The ledger of a medicine (or one of its batches) with the running balance after each movement, in the scope
 * asked (the branch, or every branch): the newest row's balance is the sum up to it, and each older row's is
 * the newer one's less the newer movement, so a page costs one sum, not one per row. A type filter skips
 * movements between rows, so it gives balance_after null.
 */
export async function listMovementsWithBalance(db: Db, f: MovementFilter & { medicine_id: string }) {
  const page = await listMovements(db, f);
  const first = page.items[0];
  if (f.type !== undefined || !first)
    return { ...page, items: page.items.map((m) => ({ ...m, balance_after: null as number | null })) };
  let q = db
    .selectFrom('stock_movements as sm')
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>('sm.quantity'), eb.lit(0)).as('balance'))
    .where('sm.medicine_id', '=', f.medicine_id)
    .where((eb) =>
      eb.or([
        eb('sm.created_at', '<', first.created_at),
        eb.and([eb('sm.created_at', '=', first.created_at), eb('sm.id', '<=', first.id)]),
      ]),
    );
  if (f.branch_id) q = q.where('sm.branch_id', '=', f.branch_id);
  if (f.batch_id) q = q.where('sm.batch_id', '=', f.batch_id);
  let balance = Number((await q.executeTakeFirstOrThrow()).balance);
  const items = page.items.map((m) => {
    const row = { ...m, balance_after: balance as number | null };
    balance -= m.quantity;
    return row;
  });
  return { ...page, items };
}

/**
 * The controlled-drugs registry: for each controlled medicine and branch with any movement, the movements in
 * the window with a running balance, the opening balance before it, and whether the ledger balance equals
 * the batches on hand (it must, always).
 */
export async function controlledRegistry(
  app: AppContext,
  f: {
    branch_id?: string;
    medicine_id?: string;
    from?: string;
    to?: string;
    page: number;
    page_size: number;
  },
) {
  let pairs = app.db
    .selectFrom('stock_movements as sm')
    .innerJoin('medicines as m', 'm.id', 'sm.medicine_id')
    .innerJoin('branches as br', 'br.id', 'sm.branch_id')
    .where('m.is_controlled', '=', sql.lit(1))
    .select([
      'sm.medicine_id',
      'sm.branch_id',
      'm.name as medicine_name',
      'm.generic_name',
      'm.strength',
      'm.form',
      'br.name as branch_name',
    ])
    .groupBy(['sm.medicine_id', 'sm.branch_id', 'm.id', 'br.id']);
  if (f.branch_id) pairs = pairs.where('sm.branch_id', '=', f.branch_id);
  if (f.medicine_id) pairs = pairs.where('sm.medicine_id', '=', f.medicine_id);
  // A page of the (medicine, branch) pairs, counted as pairs: paginate counts the rows of what it is given.
  const { items: page, total } = await paginate(app.db.selectFrom(pairs.as('g')), f, (q) =>
    q
      .selectAll()
      .orderBy('g.medicine_name')
      .orderBy('g.branch_name')
      .orderBy('g.medicine_id')
      .orderBy('g.branch_id'),
  );
  const fromTs = f.from ? `${f.from}T00:00:00.000Z` : undefined;
  const toTs = f.to ? `${addDays(f.to, 1)}T00:00:00.000Z` : undefined;
  const items = [];
  for (const g of page) {
    const opening = fromTs
      ? Number(
          (
            await app.db
              .selectFrom('stock_movements')
              .select(sql<number>`coalesce(sum(quantity), 0)`.as('n'))
              .where('medicine_id', '=', g.medicine_id)
              .where('branch_id', '=', g.branch_id)
              .where('created_at', '<', fromTs)
              .executeTakeFirstOrThrow()
          ).n,
        )
      : 0;
    let q = selectMovements(app.db)
      .where('sm.medicine_id', '=', g.medicine_id)
      .where('sm.branch_id', '=', g.branch_id);
    if (fromTs) q = q.where('sm.created_at', '>=', fromTs);
    if (toTs) q = q.where('sm.created_at', '<', toTs);
    const rows = await q.orderBy('sm.created_at').orderBy('sm.id').execute();
    let balance = opening;
    const movements = rows.map((r) => {
      balance += r.quantity;
      return { ...toMovement(r), balance_after: balance };
    });
    const { ledger, onHand } = await app.db
      .selectFrom('batches')
      .select([
        sql<number>`coalesce(sum(qty_on_hand), 0)`.as('onHand'),
        sql<number>`(SELECT coalesce(sum(quantity), 0) FROM stock_movements WHERE medicine_id = ${g.medicine_id} AND branch_id = ${g.branch_id})`.as(
          'ledger',
        ),
      ])
      .where('medicine_id', '=', g.medicine_id)
      .where('branch_id', '=', g.branch_id)
      .executeTakeFirstOrThrow();
    items.push({
      medicine_id: g.medicine_id,
      medicine_name: g.medicine_name,
      generic_name: g.generic_name,
      strength: g.strength,
      form: g.form,
      branch_id: g.branch_id,
      branch_name: g.branch_name,
      opening_balance: opening,
      closing_balance: balance,
      on_hand: Number(onHand),
      balanced: Number(ledger) === Number(onHand),
      movements,
    });
  }
  return pageAnswer(f, items, total);
}

export { branchToday };
