import { baseExponent } from '../currency/service';
import type {
  PURCHASE_ORDER_SORTS,
  CreatePurchaseOrderRequest,
  PurchaseOrderDetail,
  PurchaseOrderStatus,
  PurchaseOrderSummary,
} from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordChange, recordUpsert } from '../../db/changes';
import { assertBranchAccess, type AuthUser } from '../../http/auth';
import { Conflict, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { formatMinor, toMinor } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { requireActiveBranch } from '../branches/active-branch';
import { requireActiveSupplier } from '../suppliers/service';
import type { PurchaseOrderItemsTable, PurchaseOrdersTable } from '../../db/tables/purchase-orders';
import { paginate } from '../../db/paginate';

/** Where an order's lifecycle may go from each state (receipts move SENT/PARTIALLY_RECEIVED on their own). */
const STATUS_MOVES: Record<'SENT' | 'CANCELLED', readonly PurchaseOrderStatus[]> = {
  SENT: ['DRAFT'],
  CANCELLED: ['DRAFT', 'SENT'],
};

export const RECEIVABLE: readonly PurchaseOrderStatus[] = ['SENT', 'PARTIALLY_RECEIVED'];

/**
 * A purchase order replicates as its header row and its item rows (entities purchase_order and
 * purchase_order_item, modules/purchase-orders/sync.ts), scoped to the tills of its branch.
 */
export async function recordOrderChange(trx: Db, id: string): Promise<void> {
  const order = await trx
    .selectFrom('purchase_orders')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  await recordChange(trx, {
    entity: 'purchase_order',
    entityId: id,
    op: 'upsert',
    payload: order,
    branchId: order.branch_id,
  });
  const items = await trx
    .selectFrom('purchase_order_items')
    .selectAll()
    .where('purchase_order_id', '=', id)
    .orderBy('id')
    .execute();
  for (const item of items) await recordUpsert(trx, 'purchase_order_item', item, item.branch_id);
}

async function requireMedicines(db: Db, ids: string[]) {
  const rows = await db
    .selectFrom('medicines')
    .select(['id', 'name', 'is_active'])
    .where('id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  ids.forEach((id, i) => {
    const m = byId.get(id);
    if (!m) throw new NotFound('Medicine', id);
    if (!m.is_active)
      throw new Invalid(`${m.name} is deactivated and cannot be ordered.`, [
        { path: `items.${i}.medicine_id`, message: 'inactive medicine' },
      ]);
  });
}

export async function createPurchaseOrder(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: CreatePurchaseOrderRequest,
): Promise<{ id: string; status: PurchaseOrderStatus; created_at: string }> {
  assertBranchAccess(user, input.branch_id, 'branch');
  const seen = new Set<string>();
  input.items.forEach((item, i) => {
    if (seen.has(item.medicine_id))
      throw new Invalid('Each medicine may appear once in an order; add the quantities together.', [
        { path: `items.${i}.medicine_id`, message: 'duplicate medicine' },
      ]);
    seen.add(item.medicine_id);
  });
  const exponent = await baseExponent(app);
  const costs = input.items.map((item, i) =>
    toMinor(item.agreed_unit_cost, exponent, `items.${i}.agreed_unit_cost`),
  );
  await requireActiveSupplier(app.db, input.supplier_id);
  await requireActiveBranch(app.db, input.branch_id);
  await requireMedicines(app.db, [...seen]);
  const at = nowIso();
  const order: PurchaseOrdersTable = {
    id: newId(),
    supplier_id: input.supplier_id,
    branch_id: input.branch_id,
    status: 'DRAFT',
    expected_date: input.expected_date,
    notes: input.notes,
    created_by: user.id,
    created_at: at,
    updated_at: at,
    sent_at: null,
    cancelled_at: null,
    cancel_reason: null,
    received_at: null,
  };
  const items: PurchaseOrderItemsTable[] = input.items.map((item, i) => ({
    id: newId(),
    purchase_order_id: order.id,
    branch_id: order.branch_id,
    medicine_id: item.medicine_id,
    ordered_qty: item.ordered_qty,
    received_qty: 0,
    agreed_unit_cost: costs[i]!,
  }));
  await app.db.transaction().execute(async (trx) => {
    await trx.insertInto('purchase_orders').values(order).execute();
    for (let i = 0; i < items.length; i += 100)
      await trx
        .insertInto('purchase_order_items')
        .values(items.slice(i, i + 100))
        .execute();
    await recordOrderChange(trx, order.id);
    await writeAudit(trx, actor, {
      action: 'purchase_order.create',
      entity: 'purchase_order',
      entityId: order.id,
      branchId: order.branch_id,
      after: { ...order, items },
    });
  });
  return { id: order.id, status: order.status, created_at: order.created_at };
}

function summaryQuery(db: Db) {
  return db
    .selectFrom('purchase_orders as po')
    .innerJoin('suppliers as s', 's.id', 'po.supplier_id')
    .innerJoin('branches as b', 'b.id', 'po.branch_id')
    .selectAll('po')
    .select([
      's.name as supplier_name',
      'b.name as branch_name',
      sql<number>`(SELECT count(*) FROM purchase_order_items i WHERE i.purchase_order_id = po.id)`.as(
        'item_count',
      ),
      sql<number>`(SELECT coalesce(sum(i.ordered_qty * i.agreed_unit_cost), 0) FROM purchase_order_items i
        WHERE i.purchase_order_id = po.id)`.as('total_minor'),
    ]);
}

type SummaryRow = Awaited<ReturnType<ReturnType<typeof summaryQuery>['executeTakeFirstOrThrow']>>;

const toSummary = (r: SummaryRow, exponent: number): PurchaseOrderSummary => ({
  id: r.id,
  supplier_id: r.supplier_id,
  supplier_name: r.supplier_name,
  branch_id: r.branch_id,
  branch_name: r.branch_name,
  status: r.status,
  expected_date: r.expected_date,
  notes: r.notes,
  item_count: Number(r.item_count),
  total_amount: formatMinor(Number(r.total_minor), exponent),
  created_by: r.created_by,
  created_at: r.created_at,
  updated_at: r.updated_at,
  sent_at: r.sent_at,
  cancelled_at: r.cancelled_at,
  cancel_reason: r.cancel_reason,
  received_at: r.received_at,
});

export async function listPurchaseOrders(
  app: AppContext,
  f: {
    status?: PurchaseOrderStatus;
    supplier_id?: string;
    branch_id?: string;
    page: number;
    page_size: number;
    sort?: (typeof PURCHASE_ORDER_SORTS)[number];
    order?: 'asc' | 'desc';
  },
) {
  let q = summaryQuery(app.db);
  if (f.status) q = q.where('po.status', '=', f.status);
  if (f.supplier_id) q = q.where('po.supplier_id', '=', f.supplier_id);
  if (f.branch_id) q = q.where('po.branch_id', '=', f.branch_id);
  const dir = f.order ?? 'desc';
  const found = await paginate(q, f, (q) => {
    const sorted =
      f.sort === 'supplier_name'
        ? q.orderBy(sql`s.name COLLATE NOCASE`, dir)
        : f.sort === 'total_amount'
          ? q.orderBy(sql.ref('total_minor'), dir)
          : f.sort === 'expected_date'
            ? // orders without an expected date come last in both directions
              q.orderBy(sql`po.expected_date IS NULL`).orderBy('po.expected_date', dir)
            : f.sort === 'status'
              ? q.orderBy('po.status', dir)
              : q;
    return sorted
      .orderBy('po.created_at', f.sort && f.sort !== 'created_at' ? 'desc' : dir)
      .orderBy('po.id', f.sort && f.sort !== 'created_at' ? 'desc' : dir);
  });
  const exponent = await baseExponent(app);
  return { ...found, items: found.items.map((r) => toSummary(r, exponent)) };
}

export async function getOrderRow(db: Db, id: string): Promise<PurchaseOrdersTable> {
  const row = await db.selectFrom('purchase_orders').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Purchase order', id);
  return row;
}

export async function getPurchaseOrder(
  app: AppContext,
  user: AuthUser,
  id: string,
): Promise<PurchaseOrderDetail> {
  const row = await summaryQuery(app.db).where('po.id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Purchase order', id);
  assertBranchAccess(user, row.branch_id, 'purchase order');
  const exponent = await baseExponent(app);
  const items = await app.db
    .selectFrom('purchase_order_items as i')
    .innerJoin('medicines as m', 'm.id', 'i.medicine_id')
    .selectAll('i')
    .select('m.name as medicine_name')
    .where('i.purchase_order_id', '=', id)
    .orderBy('m.name')
    .orderBy('i.id')
    .execute();
  const receipts = await app.db
    .selectFrom('purchase_order_receipts as r')
    .innerJoin('batches as b', 'b.id', 'r.batch_id')
    .selectAll('r')
    .select(['b.medicine_id', 'b.batch_number', 'b.expiry_date'])
    .where('r.purchase_order_id', '=', id)
    .orderBy('r.received_at')
    .orderBy('r.id')
    .execute();
  return {
    ...toSummary(row, exponent),
    items: items.map((i) => ({
      id: i.id,
      medicine_id: i.medicine_id,
      medicine_name: i.medicine_name,
      ordered_qty: i.ordered_qty,
      received_qty: i.received_qty,
      outstanding_qty: Math.max(0, i.ordered_qty - i.received_qty),
      agreed_unit_cost: formatMinor(i.agreed_unit_cost, exponent),
      line_total: formatMinor(i.ordered_qty * i.agreed_unit_cost, exponent),
    })),
    receipts: receipts.map((r) => ({
      id: r.id,
      item_id: r.item_id,
      medicine_id: r.medicine_id,
      batch_id: r.batch_id,
      batch_number: r.batch_number,
      expiry_date: r.expiry_date,
      quantity: r.quantity,
      unit_cost: formatMinor(r.unit_cost, exponent),
      received_by: r.received_by,
      received_at: r.received_at,
    })),
  };
}

export async function changeOrderStatus(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  input: { status: 'SENT' | 'CANCELLED'; reason?: string },
): Promise<PurchaseOrderDetail> {
  const existing = await getOrderRow(app.db, id);
  assertBranchAccess(user, existing.branch_id, 'purchase order');
  await app.db.transaction().execute(async (trx) => {
    const before = await getOrderRow(trx, id);
    if (!STATUS_MOVES[input.status].includes(before.status)) {
      throw new Conflict(
        `This purchase order is ${before.status}; it can move to ${input.status} only from ${STATUS_MOVES[input.status].join(' or ')}.`,
        'INVALID_STATUS_TRANSITION',
      );
    }
    const at = nowIso();
    const patch =
      input.status === 'SENT'
        ? { status: 'SENT' as const, sent_at: at, updated_at: at }
        : {
            status: 'CANCELLED' as const,
            cancelled_at: at,
            cancel_reason: input.reason ?? '',
            updated_at: at,
          };
    await trx.updateTable('purchase_orders').set(patch).where('id', '=', id).execute();
    await recordOrderChange(trx, id);
    await writeAudit(trx, actor, {
      action: input.status === 'SENT' ? 'purchase_order.send' : 'purchase_order.cancel',
      entity: 'purchase_order',
      entityId: id,
      branchId: before.branch_id,
      before: { status: before.status },
      after: { ...patch, reason: input.reason ?? null },
    });
  });
  return getPurchaseOrder(app, user, id);
}
