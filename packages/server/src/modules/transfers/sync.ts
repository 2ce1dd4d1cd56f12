import {
  TransferPayload as PushedTransferSchema,
  TransferReceiptPayload as PushedTransferReceiptSchema,
} from '@pharmacy/contracts';
import { recordUpsert } from '../../db/changes';
import type { Db } from '../../db/connection';
import { Conflict } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { applyMovement, writeBatch } from '../stock/sync';
import type { TransferItemsTable, TransfersTable } from '../../db/tables/transfers';
import type { StockMovementsTable } from '../../db/tables/stock';
import { defineEntity, type EntityRegistration } from '../sync/registry';
import { insertRowIfAbsent } from '../sync/row-writes';
import type { TransferReceiptPayload } from './lifecycle';

/**
 * Replication of transfers between branches. A transfer has two owners, one per half, so each half is its own
 * till-owned document, written only at its branch's tills (central refuses another branch's row from a device,
 * OTHER_BRANCH):
 *
 * - `transfer` (the SOURCE's: branch column from_branch_id): `{...header, items}`, sent by the source's till
 *   with status in_transit, and sent again if that till cancels it (status cancelled). Central inserts it
 *   once, takes a cancellation only while the transfer is in transit (else TRANSFER_NOT_IN_TRANSIT, a
 *   conflict row), and records the change twice: for the source's tills and for the DESTINATION's, which must
 *   see the transfer to receive it.
 * - `transfer_receipt` (the DESTINATION's: branch column branch_id = to_branch_id): `{...receipt, lines}`.
 *   Central takes it only for a transfer of that destination still in transit (a receipt of a cancelled
 *   transfer is TRANSFER_NOT_IN_TRANSIT), marks the transfer received, and records the change for both
 *   branches, so the source sees it arrive.
 * - The stock: sending's transfer_out movements at the source and the destination batches a receipt makes
 *   replicate as that branch's own `stock_movement` and `batch` changes (pushed before the document: the
 *   outbox is in order, so central holds the batches a receipt line names). The transfer_in movements of a
 *   receipt (at the destination) or of a cancellation (back into the source batches) travel INSIDE the
 *   document's payload (`movements`) and central applies them only when it takes the document: a cancellation
 *   and a receipt made while central was unreachable never both move central's stock. The till whose
 *   document central refused keeps its local movements until a manager resolves the conflict row.
 *
 * Transfers made before in-transit transfers (status completed) were booked at both branches by the source's
 * till; central completes the destination half of such a pushed transfer itself (completeDestination).
 */

type TransferPayload = TransfersTable & { items?: TransferItemsTable[]; movements?: StockMovementsTable[] };

/**
 * Central: the stock movements a receipt or a cancellation carries, applied once each (and recorded for the
 * tills of their branch) only when central takes the document, so a refused cancellation or receipt never
 * moves central's stock. Tills get them as those stock_movement changes, never from the document.
 */
async function applyCarried(trx: Db, movements: StockMovementsTable[] | undefined): Promise<void> {
  for (const m of movements ?? []) await applyMovement(trx, m);
}

async function completeDestination(trx: Db, t: TransferPayload, items: TransferItemsTable[]): Promise<void> {
  for (const item of items) {
    if (!item.to_batch_id) continue;
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
      if (!source) continue;
      await writeBatch(trx, {
        ...source,
        id: item.to_batch_id,
        branch_id: t.to_branch_id,
        qty_received: item.quantity,
        received_at: t.created_at,
        received_by: t.created_by,
        created_at: t.created_at,
        updated_at: t.created_at,
      });
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

/** A line pushed by a till still on the old payload (no batch number): filled from the source batch. */
async function withBatchFields(trx: Db, item: TransferItemsTable): Promise<TransferItemsTable> {
  if (item.batch_number) return item;
  const b = await trx
    .selectFrom('batches')
    .selectAll()
    .where('id', '=', item.from_batch_id)
    .executeTakeFirst();
  return {
    ...item,
    batch_number: b?.batch_number ?? '',
    expiry_date: b?.expiry_date ?? '',
    supplier_id: b?.supplier_id ?? null,
    regulator_status: b?.regulator_status ?? 'active',
  };
}

/** The status, cancellation and lines of a transfer already held, from a newer change of its source. */
async function updateHeld(
  trx: Db,
  held: TransfersTable,
  header: TransfersTable,
  central: boolean,
  movements: StockMovementsTable[] | undefined,
): Promise<void> {
  if (held.status === header.status) return;
  if (header.status === 'cancelled' && held.status === 'in_transit') {
    if (central) await applyCarried(trx, movements);
    await trx
      .updateTable('transfers')
      .set({
        status: 'cancelled',
        cancelled_at: header.cancelled_at,
        cancelled_by: header.cancelled_by,
        cancel_reason: header.cancel_reason ?? '',
      })
      .where('id', '=', held.id)
      .execute();
    return;
  }
  if (central)
    throw new Conflict(
      `Transfer ${held.id} is ${held.status.replace('_', ' ')} at head office; it cannot become ${header.status}.`,
      'TRANSFER_NOT_IN_TRANSIT',
    );
  // A till takes central's word, but never moves a transfer it received or cancelled back into transit.
  if (header.status !== 'in_transit')
    await trx.updateTable('transfers').set({ status: header.status }).where('id', '=', held.id).execute();
}

async function writeTransfer(trx: Db, t: TransferPayload, central: boolean): Promise<void> {
  const { items = [], movements, ...header } = t;
  const held = await trx.selectFrom('transfers').selectAll().where('id', '=', t.id).executeTakeFirst();
  if (held) await updateHeld(trx, held, header, central, movements);
  else {
    await insertRowIfAbsent(trx, 'transfers', 'id', {
      ...header,
      cancel_reason: header.cancel_reason ?? '',
    });
    if (central && t.status === 'completed') await completeDestination(trx, t, items);
  }
  for (const item of items)
    await insertRowIfAbsent(trx, 'transfer_items', 'id', await withBatchFields(trx, item));
  await recordUpsert(trx, 'transfer', t, t.from_branch_id);
  if (central) await recordUpsert(trx, 'transfer', t, t.to_branch_id);
}

async function writeReceipt(trx: Db, r: TransferReceiptPayload, central: boolean): Promise<void> {
  const { lines = [], movements, ...receipt } = r;
  const held = await trx
    .selectFrom('transfer_receipts')
    .select('id')
    .where('id', '=', r.id)
    .executeTakeFirst();
  if (held) return;
  const transfer = await trx
    .selectFrom('transfers')
    .select(['id', 'status', 'from_branch_id', 'to_branch_id'])
    .where('id', '=', r.transfer_id)
    .executeTakeFirst();
  if (central && (!transfer || transfer.to_branch_id !== r.branch_id || transfer.status !== 'in_transit'))
    throw new Conflict(
      transfer
        ? `Transfer ${r.transfer_id} is ${transfer.status.replace('_', ' ')} at head office, or not towards this branch.`
        : `Transfer ${r.transfer_id} is unknown at head office.`,
      'TRANSFER_NOT_IN_TRANSIT',
    );
  if (!transfer) return; // a till of neither branch: nothing to attach it to
  await insertRowIfAbsent(trx, 'transfer_receipts', 'id', receipt);
  for (const line of lines) await insertRowIfAbsent(trx, 'transfer_receipt_lines', 'id', line);
  await trx.updateTable('transfers').set({ status: 'received' }).where('id', '=', r.transfer_id).execute();
  if (central) await applyCarried(trx, movements);
  await recordUpsert(trx, 'transfer_receipt', r, r.branch_id);
  if (central) await recordUpsert(trx, 'transfer_receipt', r, transfer.from_branch_id);
}

/** Transfers leaving or entering the branch: a till must see those it will receive. */
const OF_BRANCH = 'transfer_id IN (SELECT id FROM transfers WHERE ? IN (from_branch_id, to_branch_id))';

const transferEntity = defineEntity<TransferPayload>({
  entity: 'transfer',
  push: 'till-owned',
  payloadSchema: PushedTransferSchema,
  owner: 'till',
  scope: 'branch',
  table: 'transfers',
  branchColumn: 'from_branch_id',
  snapshotWhere: '? IN (from_branch_id, to_branch_id)',
  order: 100,
  rest: [
    { method: 'post', path: '/transfers' },
    { method: 'post', path: '/transfers/batch' },
    { method: 'post', path: '/transfers/:transferId/cancel' },
  ],
  children: { items: 'transfer_id' },
  // A cancellation's movements go back into the source's own batches.
  references: [
    { field: 'from_batch_id', in: 'items', table: 'batches' },
    { field: 'batch_id', in: 'movements', table: 'batches' },
  ],
  applyPush: async (trx, change, _device, app) => {
    await writeTransfer(trx, change.payload, app.config.mode === 'central');
    return { id: change.entityId };
  },
  applyPulled: (trx, change, app) => writeTransfer(trx, change.payload, app.config.mode === 'central'),
});

/** Snapshot only: lines travel inside the transfer's change; a till never pushes one on its own. */
const transferItemEntity: EntityRegistration = {
  entity: 'transfer_item',
  push: 'central-only',
  owner: 'till',
  scope: 'branch',
  table: 'transfer_items',
  order: 101,
  snapshotWhere: OF_BRANCH,
};

const transferReceiptEntity = defineEntity<TransferReceiptPayload>({
  entity: 'transfer_receipt',
  push: 'till-owned',
  payloadSchema: PushedTransferReceiptSchema,
  owner: 'till',
  scope: 'branch',
  table: 'transfer_receipts',
  snapshotWhere: OF_BRANCH,
  order: 102,
  rest: [{ method: 'post', path: '/transfers/:transferId/receive' }],
  children: { lines: 'receipt_id' },
  references: [
    { field: 'transfer_id', table: 'transfers', branchColumn: 'to_branch_id' },
    { field: 'batch_id', in: 'movements', table: 'batches' },
    { field: 'to_batch_id', in: 'lines', table: 'batches' },
  ],
  applyPush: async (trx, change, _device, app) => {
    await writeReceipt(trx, change.payload, app.config.mode === 'central');
    return { id: change.entityId };
  },
  applyPulled: (trx, change, app) => writeReceipt(trx, change.payload, app.config.mode === 'central'),
});

/** Snapshot only: receipt lines travel inside the receipt's change. */
const transferReceiptLineEntity: EntityRegistration = {
  entity: 'transfer_receipt_line',
  push: 'central-only',
  owner: 'till',
  scope: 'branch',
  table: 'transfer_receipt_lines',
  order: 103,
  snapshotWhere:
    'receipt_id IN (SELECT r.id FROM transfer_receipts r JOIN transfers t ON t.id = r.transfer_id WHERE ? IN (t.from_branch_id, t.to_branch_id))',
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const transfersEntities: readonly EntityRegistration[] = [
  transferEntity,
  transferItemEntity,
  transferReceiptEntity,
  transferReceiptLineEntity,
];
