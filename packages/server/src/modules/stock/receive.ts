import type { MovementType, RegulatorStatus } from '@pharmacy/contracts';
import type { Db } from '../../db/connection';
import { Conflict, Invalid } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import type { BatchesTable } from '../../db/tables/stock';
import { assertUnits, recordBatchChange, type StockReference, writeMovement } from './ledger';
import { unitsMoved } from './medicine-stock';

export interface ReceiveBatchInput {
  branchId: string;
  medicineId: string;
  batchNumber: string;
  expiryDate: string;
  /** Units received, a positive integer. */
  quantity: number;
  /** Minor units of the base currency. */
  unitCost: number;
  supplierId?: string | null;
  /** Status of a new batch (default active); an existing batch keeps its own. */
  regulatorStatus?: RegulatorStatus;
  /** Default 'purchase'. */
  movementType?: MovementType;
  reference: StockReference;
  userId: string | null;
  reason?: string;
  /**
   * false: the movement is not a change of its own; the caller's document carries it and central applies it
   * only when it takes the document (a transfer's receipt or cancellation). Default true.
   */
  replicate?: boolean;
}

export interface ReceiveBatchResult {
  batch: BatchesTable;
  movementId: string;
  /** False when the units were added to an existing batch of the same number and expiry. */
  created: boolean;
}

/** Weighted average of the cost on hand and the cost received, rounded half up, in integer arithmetic. */
function blendedCost(onHand: number, oldCost: number, received: number, newCost: number): number {
  if (onHand <= 0 || oldCost === newCost) return newCost;
  const total = BigInt(onHand) * BigInt(oldCost) + BigInt(received) * BigInt(newCost);
  const units = BigInt(onHand + received);
  return Number((total * 2n + units) / (units * 2n));
}

/**
 * Puts units into a batch: a new batch, or the existing batch of the same medicine, branch and batch number
 * when its expiry matches (409 BATCH_EXPIRY_MISMATCH when it does not). Writes a positive movement.
 */
export async function receiveBatch(trx: Db, input: ReceiveBatchInput): Promise<ReceiveBatchResult> {
  assertUnits(input.quantity, 'quantity');
  if (!Number.isSafeInteger(input.unitCost) || input.unitCost < 0)
    throw new Invalid('unit_cost must not be negative.', [
      { path: 'unit_cost', message: 'must not be negative' },
    ]);
  const at = nowIso();
  const existing = await trx
    .selectFrom('batches')
    .selectAll()
    .where('medicine_id', '=', input.medicineId)
    .where('branch_id', '=', input.branchId)
    .where('batch_number', '=', input.batchNumber)
    .executeTakeFirst();
  let batch: BatchesTable;
  let created = false;
  if (existing) {
    if (existing.expiry_date !== input.expiryDate) {
      throw new Conflict(
        `Batch ${input.batchNumber} of this medicine is already recorded in this branch with expiry ${existing.expiry_date}, not ${input.expiryDate}.`,
        'BATCH_EXPIRY_MISMATCH',
      );
    }
    batch = {
      ...existing,
      qty_received: existing.qty_received + input.quantity,
      qty_on_hand: existing.qty_on_hand + input.quantity,
      unit_cost: blendedCost(existing.qty_on_hand, existing.unit_cost, input.quantity, input.unitCost),
      supplier_id: existing.supplier_id ?? input.supplierId ?? null,
      updated_at: at,
    };
    await trx
      .updateTable('batches')
      .set((eb) => ({
        qty_received: eb('qty_received', '+', input.quantity),
        qty_on_hand: eb('qty_on_hand', '+', input.quantity),
        unit_cost: batch.unit_cost,
        supplier_id: batch.supplier_id,
        updated_at: at,
      }))
      .where('id', '=', existing.id)
      .execute();
    await unitsMoved(trx, [{ batchId: existing.id, branchId: existing.branch_id, delta: input.quantity }]);
  } else {
    created = true;
    batch = {
      id: newId(),
      medicine_id: input.medicineId,
      branch_id: input.branchId,
      batch_number: input.batchNumber,
      expiry_date: input.expiryDate,
      qty_received: input.quantity,
      qty_on_hand: input.quantity,
      unit_cost: input.unitCost,
      supplier_id: input.supplierId ?? null,
      regulator_status: input.regulatorStatus ?? 'active',
      received_at: at,
      received_by: input.userId,
      created_at: at,
      updated_at: at,
    };
    await trx.insertInto('batches').values(batch).execute();
  }
  await recordBatchChange(trx, batch);
  const movementId = await writeMovement(
    trx,
    batch,
    input.movementType ?? 'purchase',
    input.quantity,
    input.reference,
    input.userId,
    input.reason ?? '',
    input.replicate ?? true,
  );
  return { batch, movementId, created };
}
