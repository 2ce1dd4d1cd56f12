import { recordUpsert } from '../../db/changes';
import type { Db } from '../../db/connection';
import type { StockReservationsTable } from '../../db/tables/stock';
import { Conflict } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { branchToday, heldInBatch, InsufficientStock, moveBatchQuantity, type TakenBatch } from './ledger';

/**
 * Stock held for a prescription waiting on the will-call shelf (issue 27.1): the units stay on hand (they are
 * on the shelf, a count finds them) but no sale can take them; the pickup's sale takes exactly them, and a
 * return to stock releases them. Every function runs inside the caller's transaction.
 */

async function recordReservation(trx: Db, row: StockReservationsTable): Promise<void> {
  await recordUpsert(trx, 'stock_reservation', row, row.branch_id);
}

/**
 * Holds `quantity` units of a medicine first-expiry-first-out from sellable batches (active, unexpired, not
 * already held), one reservation per batch touched. Never below what is available, whatever the negative-stock
 * policy: 409 INSUFFICIENT_STOCK.
 */
export async function reserveFefo(
  trx: Db,
  input: {
    branchId: string;
    medicineId: string;
    medicineName: string;
    quantity: number;
    prescriptionId: string;
    dispenseId: string;
    userId: string;
  },
): Promise<StockReservationsTable[]> {
  const asOf = await branchToday(trx, input.branchId);
  const batches = await trx
    .selectFrom('batches')
    .select(['id', 'qty_on_hand', heldInBatch.as('held')])
    .where('branch_id', '=', input.branchId)
    .where('medicine_id', '=', input.medicineId)
    .where('regulator_status', '=', 'active')
    .where('expiry_date', '>=', asOf)
    .orderBy('expiry_date')
    .orderBy('received_at')
    .orderBy('id')
    .execute();
  const free = batches.map((b) => ({ id: b.id, free: Math.max(0, b.qty_on_hand - Number(b.held)) }));
  const available = free.reduce((a, b) => a + b.free, 0);
  if (available < input.quantity)
    throw new InsufficientStock(input.medicineId, input.medicineName, input.quantity, available);
  const rows: StockReservationsTable[] = [];
  let remaining = input.quantity;
  for (const b of free) {
    if (remaining === 0) break;
    const take = Math.min(remaining, b.free);
    if (take === 0) continue;
    const row: StockReservationsTable = {
      id: newId(),
      branch_id: input.branchId,
      batch_id: b.id,
      medicine_id: input.medicineId,
      quantity: take,
      prescription_id: input.prescriptionId,
      dispense_id: input.dispenseId,
      status: 'held',
      sale_id: null,
      created_by: input.userId,
      created_at: nowIso(),
      closed_at: null,
    };
    await trx.insertInto('stock_reservations').values(row).execute();
    await recordReservation(trx, row);
    rows.push(row);
    remaining -= take;
  }
  return rows;
}

/** The reservations still held for some dispense operations, oldest batch first. */
export async function heldReservations(trx: Db, dispenseIds: readonly string[]) {
  if (dispenseIds.length === 0) return [];
  return trx
    .selectFrom('stock_reservations')
    .selectAll()
    .where('dispense_id', 'in', dispenseIds)
    .where('status', '=', 'held')
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

async function close(
  trx: Db,
  row: StockReservationsTable,
  status: 'sold' | 'released',
  saleId: string | null,
): Promise<void> {
  const at = nowIso();
  const done = await trx
    .updateTable('stock_reservations')
    .set({ status, sale_id: saleId, closed_at: at })
    .where('id', '=', row.id)
    .where('status', '=', 'held')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1)
    throw new Conflict('The reserved stock changed meanwhile; try again.', 'STOCK_CHANGED');
  await recordReservation(trx, { ...row, status, sale_id: saleId, closed_at: at });
}

/**
 * The sale takes the reserved units: a `sale` movement per reserved batch (reference the sale) and the
 * reservation marked sold. Returns the batches taken, as FEFO would, for the sale line's cost and batches.
 */
export async function takeReserved(
  trx: Db,
  rows: readonly StockReservationsTable[],
  sale: { id: string; userId: string },
): Promise<TakenBatch[]> {
  const taken: TakenBatch[] = [];
  for (const r of rows) {
    const { movementId, batch } = await moveBatchQuantity(trx, {
      batchId: r.batch_id,
      delta: -r.quantity,
      type: 'sale',
      reference: { type: 'sale', id: sale.id },
      userId: sale.userId,
      allowNegative: true,
    });
    await close(trx, r, 'sold', sale.id);
    taken.push({
      batchId: r.batch_id,
      batchNumber: batch.batch_number,
      expiryDate: batch.expiry_date,
      quantity: r.quantity,
      unitCost: batch.unit_cost,
      movementId,
    });
  }
  return taken;
}

/** Releases reservations: the units are available again. */
export async function releaseReserved(trx: Db, rows: readonly StockReservationsTable[]): Promise<void> {
  for (const r of rows) await close(trx, r, 'released', null);
}
