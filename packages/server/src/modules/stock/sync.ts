import { StockMovementPayload } from '@pharmacy/contracts';
import { BatchPayload } from '@pharmacy/contracts';
import { STOCK_MANAGERS } from '@pharmacy/contracts/roles';
import { sql } from 'kysely';
import { type Change, recordChange } from '../../db/changes';
import type { Db } from '../../db/connection';
import { prepared } from '../../db/prepared';
import { Invalid } from '../../lib/errors';
import { BATCH_RECEIVERS } from '@pharmacy/contracts/roles';
import { roleAllowed } from '../../http/route';
import { assertNamedUserMay, PushForbidden } from '../sync/push-actors';
import {
  type ApplyResult,
  defineEntity,
  type EntityRegistration,
  type PushedChange,
  type Pusher,
  type SyncDevice,
} from '../sync/registry';
import { insertRowIfAbsent, insertRowsIfAbsent, upsertRow } from '../sync/row-writes';
import type { BatchesTable, StockMovementsTable } from '../../db/tables/stock';
import { unitsMoved } from './medicine-stock';

/**
 * Replication of stock (docs/CONVENTIONS.md, "Sync"; ARCHITECTURE "Stock"): quantities travel as movements,
 * never as absolute figures, so sales at several tills add up instead of overwriting, and a replayed change can
 * never move stock twice (Open mSupply #8654). Everywhere: a batch's qty_on_hand = the sum of its movements.
 *
 * - `batch` (central-owned, branch scope): identity, cost, expiry and regulator status. Batches are created
 *   where goods are received (a till, or head office), but a recall or quarantine decided at head office must
 *   not be undone by a till's stale copy: central ownership makes such a till edit a sync conflict instead of
 *   last-writer-wins. The change payload never carries qty_on_hand (batchChangePayload); a new batch row starts
 *   at 0 and an existing row's qty_on_hand is never touched here: its movements bring the quantity.
 * - `stock_movement` (till-owned, branch scope): insert-once by id, and only when the row was new, add its
 *   quantity to the batch in the same transaction. Re-applying the same movement changes nothing.
 */

/** A batch's change payload: its row, without its quantity on hand (batchChangePayload) or with it (older). */
export type BatchPayloadRow = Omit<BatchesTable, 'qty_on_hand'> & { qty_on_hand?: number };

/** Upserts a batch from a change payload, never its quantity on hand. */
export async function writeBatch(trx: Db, payload: BatchPayloadRow): Promise<void> {
  const { qty_on_hand: _, ...row } = payload;
  const id = row.id;
  // Two tills of a branch may record the same batch number of a medicine offline, each under its own id: keep
  // both (the stock of each is its movements) and tell them apart by a suffix derived from the id, the same on
  // every replica that sees the clash. The unique (medicine, branch, batch number) rule then still holds.
  const clash = await sql<{ id: string }>`SELECT id FROM batches WHERE medicine_id = ${row.medicine_id}
    AND branch_id = ${row.branch_id} AND batch_number = ${row.batch_number} AND id <> ${id}`.execute(trx);
  if (clash.rows.length > 0) row.batch_number = `${row.batch_number} ~${id.slice(-6)}`;
  await upsertRow(trx, 'batches', 'id', row);
  await recordChange(trx, {
    entity: 'batch',
    entityId: id,
    op: 'upsert',
    payload: { ...row, batch_number: payload.batch_number },
    branchId: row.branch_id,
  });
}

const addMovedQuantity = prepared((db, p: { id: string; quantity: number }) =>
  db
    .updateTable('batches')
    .set((eb) => ({ qty_on_hand: eb('qty_on_hand', '+', p.quantity) }))
    .where('id', '=', p.id),
);

/**
 * Applies one movement exactly once: INSERT if its id is absent, and only then add its quantity to the batch's
 * qty_on_hand (no floor: a movement is a fact that already happened at a till). Returns false when it was
 * already there (nothing changed).
 */
export async function applyMovement(trx: Db, m: StockMovementsTable): Promise<boolean> {
  if (!Number.isSafeInteger(m.quantity) || m.quantity === 0)
    throw new Invalid(`Stock movement ${m.id} has no whole, non-zero quantity.`);
  const inserted = await insertRowIfAbsent(trx, 'stock_movements', 'id', m);
  if (!inserted) return false;
  if ((await addMovedQuantity.run(trx, { id: m.batch_id, quantity: m.quantity })) !== 1)
    throw new Invalid(
      `Stock movement ${m.id} names batch ${m.batch_id}, which this server does not hold.`,
      undefined,
      'UNKNOWN_BATCH',
    );
  await unitsMoved(trx, [{ batchId: m.batch_id, branchId: m.branch_id, delta: m.quantity }]);
  await recordMovement(trx, m);
  return true;
}

/** A movement's change-log row; a pushed run's rows name their mutation and device (no origin scope there). */
function recordMovement(
  trx: Db,
  m: StockMovementsTable,
  origin: Pick<Change, 'clientMutationId' | 'originDeviceId'> = {},
) {
  return recordChange(trx, {
    entity: 'stock_movement',
    entityId: m.id,
    op: 'upsert',
    payload: m,
    branchId: m.branch_id,
    ...origin,
  });
}

/**
 * A run of pushed movements at once (PostgreSQL set-wise push): the new ones in one insert, then each batch's
 * quantity moved by the sum of its new movements in one UPDATE; a batch central does not hold fails the run
 * (the one-by-one path then refuses that movement alone).
 */
async function applyMovements(
  trx: Db,
  changes: PushedChange<StockMovementsTable>[],
  device: SyncDevice,
): Promise<ApplyResult[]> {
  const rows = changes.map((c) => c.payload);
  for (const m of rows)
    if (!Number.isSafeInteger(m.quantity) || m.quantity === 0)
      throw new Invalid(`Stock movement ${m.id} has no whole, non-zero quantity.`);
  const inserted = new Set(await insertRowsIfAbsent(trx, 'stock_movements', 'id', rows));
  const moved = new Map<string, number>();
  const fresh: Array<{ change: PushedChange<StockMovementsTable>; m: StockMovementsTable }> = [];
  for (const [i, m] of rows.entries()) {
    if (!inserted.delete(m.id)) continue;
    fresh.push({ change: changes[i]!, m });
    moved.set(m.batch_id, (moved.get(m.batch_id) ?? 0) + m.quantity);
  }
  if (moved.size > 0) {
    const values = sql.join([...moved].map(([id, q]) => sql`(${id}, CAST(${q} AS BIGINT))`));
    const { rows: updated } = await sql<{ id: string }>`UPDATE batches SET qty_on_hand = qty_on_hand + v.q
      FROM (VALUES ${values}) AS v(id, q) WHERE batches.id = v.id RETURNING batches.id`.execute(trx);
    if (updated.length !== moved.size)
      throw new Invalid(
        'A stock movement names a batch this server does not hold.',
        undefined,
        'UNKNOWN_BATCH',
      );
    await unitsMoved(
      trx,
      fresh.map(({ m }) => ({ batchId: m.batch_id, branchId: m.branch_id, delta: m.quantity })),
    );
  }
  for (const { change, m } of fresh)
    await recordMovement(trx, m, { clientMutationId: change.clientMutationId, originDeviceId: device.id });
  return changes.map((c) => ({ id: c.entityId }));
}

/**
 * A batch pushed by a till was received by someone who may receive deliveries (REST: inventory_manager,
 * branch_manager, pharmacist); a batch that names no receiver (made by a transfer or the system) passes on
 * the branch rule alone. Its quantity never travels here: movements bring it.
 */
async function authoriseBatch(trx: Db, change: PushedChange, pusher: Pusher): Promise<void> {
  if (change.op !== 'upsert')
    throw new Invalid('A batch is never deleted by a till.', undefined, 'IMMUTABLE');
  await assertRegulatorStatusMay(trx, change, pusher);
  await assertNamedUserMay(trx, change, pusher, {
    field: 'received_by',
    roles: BATCH_RECEIVERS,
    what: 'receives a batch',
    optional: true,
  });
}

const storedStatus = prepared((db, p: { id: string }) =>
  db.selectFrom('batches').select('regulator_status').where('id', '=', p.id),
);

/** The REST route that sets a batch's regulator status (quarantine, recall, release). */
const REGULATOR_ROUTE = { method: 'post', path: '/supplier-finance/batches/:batchId/quarantine' } as const;
const REGULATOR_ROLES = STOCK_MANAGERS;

/**
 * Regulator status is head office's decision: a till's change may keep a batch's status or report a quarantine
 * it made (active -> quarantined), never release a quarantine or lift or set a recall. A manager resolving a
 * conflict on central may make the change REST lets them make (the regulator-status route's roles).
 */
async function assertRegulatorStatusMay(trx: Db, change: PushedChange, pusher: Pusher): Promise<void> {
  const held = await storedStatus.first(trx, { id: change.entityId });
  const to = change.payload.regulator_status ?? held?.regulator_status ?? 'active';
  const from = held?.regulator_status ?? 'active';
  if (to === from || (from === 'active' && to === 'quarantined')) return;
  if (pusher.via === 'resolve' && pusher.user && roleAllowed(REGULATOR_ROLES, pusher.user.role)) return;
  throw new PushForbidden(
    `A batch's regulator status is decided at head office: a till may not make a ${from} batch ${String(to)}.`,
  );
}

const batchEntity = defineEntity<BatchPayloadRow>({
  entity: 'batch',
  push: authoriseBatch,
  owner: 'central',
  scope: 'branch',
  table: 'batches',
  order: 80,
  rest: [
    { method: 'post', path: '/purchases' },
    { method: 'post', path: '/transfers/:transferId/receive' },
    { method: 'post', path: '/purchase-orders/:purchaseOrderId/receive' },
    REGULATOR_ROUTE,
  ],
  payloadSchema: BatchPayload,
  write: writeBatch,
});

const stockMovementEntity = defineEntity<StockMovementsTable>({
  entity: 'stock_movement',
  push: 'till-owned',
  payloadSchema: StockMovementPayload,
  owner: 'till',
  applyPushMany: applyMovements,
  scope: 'branch',
  table: 'stock_movements',
  order: 90,
  rest: [
    { method: 'post', path: '/sales' },
    { method: 'post', path: '/returns' },
    { method: 'post', path: '/purchases' },
    { method: 'put', path: '/purchases/:batchId/write-off' },
    { method: 'post', path: '/stockcount/submit' },
    { method: 'post', path: '/transfers' },
    { method: 'post', path: '/transfers/batch' },
    { method: 'post', path: '/transfers/:transferId/receive' },
    { method: 'post', path: '/transfers/:transferId/cancel' },
    { method: 'post', path: '/purchase-orders/:purchaseOrderId/receive' },
  ],
  references: [{ field: 'batch_id', table: 'batches' }],
  write: async (trx, payload) => {
    await applyMovement(trx, payload);
  },
});

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const stockEntities: readonly EntityRegistration[] = [batchEntity, stockMovementEntity];
