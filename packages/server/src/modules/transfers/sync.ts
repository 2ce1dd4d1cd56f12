import { recordChange } from '../../db/changes';
import type { Db } from '../../db/connection';
import { newId } from '../../lib/ids';
import { applyMovement, writeBatch } from '../stock/sync';
import type { TransferItemsTable, TransfersTable } from '../../db/tables/transfers';
import { insertRowIfAbsent, type Payload, type EntityRegistration } from '../sync/registry';

/**
 * Replication of transfers: one change per document, `{...header, items}`, scoped to the SOURCE branch
 * (from_branch_id), insert-once. The stock itself moves as `stock_movement` changes: transfer_out at the
 * source, transfer_in at the destination (scoped to the destination, so its tills receive them).
 *
 * A transfer made at a till also writes the destination's batch and transfer_in movements, which that till's
 * push cannot deliver (central refuses another branch's rows from a device: OTHER_BRANCH). So central, applying
 * the transfer, completes the destination half itself when it is missing: the destination batch under the
 * till's own id (to_batch_id, with the source batch's number, expiry, cost, supplier and status) and one
 * transfer_in movement per item, each exactly once (skipped when a transfer_in of this transfer on that batch
 * already exists).
 *
 * Tills hold transfer headers and only the items whose two batches they hold (items reference batches of two
 * branches; a till holds only its own branch's batches).
 */

type TransferPayload = TransfersTable & { items?: TransferItemsTable[] };

async function completeDestination(trx: Db, t: TransferPayload, items: TransferItemsTable[]): Promise<void> {
  for (const item of items) {
    const dest = await trx
      .selectFrom('batches')
      .select('id')
      .where('id', '=', item.to_batch_id)
      .executeTakeFirst();
    if (!dest) {
      const source = await trx
        .selectFrom('batches')
        .selectAll()
        .where('id', '=', item.from_batch_id)
        .executeTakeFirst();
      if (!source) continue; // the source batch never reached central: the item is refused below (FK)
      await writeBatch(trx, {
        ...source,
        id: item.to_batch_id,
        branch_id: t.to_branch_id,
        qty_received: item.quantity,
        received_at: t.created_at,
        received_by: t.created_by,
        created_at: t.created_at,
        updated_at: t.created_at,
      } as unknown as Payload);
    }
    const moved = await trx
      .selectFrom('stock_movements')
      .select('id')
      .where('reference_type', '=', 'transfer')
      .where('reference_id', '=', t.id)
      .where('batch_id', '=', item.to_batch_id)
      .where('type', '=', 'transfer_in')
      .executeTakeFirst();
    if (!moved)
      await applyMovement(trx, {
        id: newId(),
        batch_id: item.to_batch_id,
        branch_id: t.to_branch_id,
        medicine_id: item.medicine_id,
        type: 'transfer_in',
        quantity: item.quantity,
        reference_type: 'transfer',
        reference_id: t.id,
        user_id: t.created_by,
        reason: t.notes,
        created_at: t.created_at,
      });
  }
}

async function writeTransfer(trx: Db, payload: Payload, central: boolean): Promise<void> {
  const t = payload as unknown as TransferPayload;
  const { items = [], ...header } = t;
  if (!(await insertRowIfAbsent(trx, 'transfers', 'id', header as unknown as Payload))) return;
  if (central) await completeDestination(trx, t, items);
  for (const item of items) {
    if (!central) {
      const held = await trx
        .selectFrom('batches')
        .select('id')
        .where('id', 'in', [item.from_batch_id, item.to_batch_id])
        .execute();
      if (held.length < 2) continue;
    }
    await insertRowIfAbsent(trx, 'transfer_items', 'id', item as unknown as Payload);
  }
  await recordChange(trx, {
    entity: 'transfer',
    entityId: t.id,
    op: 'upsert',
    payload: t,
    branchId: t.from_branch_id,
  });
}

const transferEntity: EntityRegistration = {
  entity: 'transfer',
  push: 'till-owned',
  owner: 'till',
  scope: 'branch',
  table: 'transfers',
  branchColumn: 'from_branch_id',
  order: 100,
  applyPush: async (trx, change, _device, app) => {
    await writeTransfer(trx, change.payload, app.config.mode === 'central');
    return { id: change.entityId };
  },
  applyPulled: (trx, change, app) => writeTransfer(trx, change.payload, app.config.mode === 'central'),
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const transfersEntities: readonly EntityRegistration[] = [transferEntity];
