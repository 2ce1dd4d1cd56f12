import type { MovementType } from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { type Change, recordChanges } from '../../db/changes';
import { AppError, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { prepared, preparedInsert } from '../../db/prepared';
import type { BatchesTable, StockMovementsTable } from '../../db/tables/stock';
import { branchToday } from '../branches/time-zone';
import { unitsMoved } from './medicine-stock';

/** Today at the branch, re-exported for the areas that read stock through the ledger. */
export { branchToday };

/**
 * The stock ledger: the one write path for quantities. Every function here runs INSIDE the caller's
 * transaction (pass `trx`), changes batch quantities with guarded UPDATEs and appends a stock movement (and its
 * change_log row) for every change, so the sum of a batch's movements always equals its quantity on hand.
 *
 * Selling, returns, purchase orders and supplier finance call these; nothing else writes batches.qty_on_hand.
 */

/** What caused a movement: a sale, a return, a purchase order receipt, a transfer, a count… */
export interface StockReference {
  type: string;
  id: string;
}

/** 409 with the medicine, wanted and available quantities; callers may catch it to build their own answer. */
export class InsufficientStock extends AppError {
  constructor(
    readonly medicineId: string,
    readonly medicineName: string,
    readonly wanted: number,
    readonly available: number,
  ) {
    super(
      409,
      'INSUFFICIENT_STOCK',
      `Not enough ${medicineName} in stock: wanted ${wanted}, available ${available}.`,
      [
        {
          path: 'quantity',
          message: `${medicineName} (${medicineId}): wanted ${wanted}, available ${available}`,
        },
      ],
    );
  }
}

export interface ConsumeFefoInput {
  branchId: string;
  medicineId: string;
  /** Units to take, a positive integer. */
  quantity: number;
  /** Usually 'sale'; 'transfer_out' and 'write_off' work too. Movements are written with a negative quantity. */
  movementType: MovementType;
  reference: StockReference;
  userId: string | null;
  reason?: string;
  /**
   * When stock runs short, put the rest on a sellable batch anyway (its quantity goes below zero) instead of
   * throwing; for settings.negative_stock_policy = 'allow'. Still throws when the branch has no sellable batch.
   */
  allowNegative?: boolean;
  /** The day that decides expiry (YYYY-MM-DD); default: today in the branch's time zone. */
  asOf?: string;
}

export interface TakenBatch {
  batchId: string;
  batchNumber: string;
  expiryDate: string;
  /** Units taken from this batch (positive). */
  quantity: number;
  /** Unit cost in minor units of the base currency, for cost of goods sold. */
  unitCost: number;
  movementId: string;
}

export interface MoveBatchQuantityInput {
  batchId: string;
  /** Signed change of quantity on hand: positive for returns restocked, negative for write-offs. Not 0. */
  delta: number;
  type: MovementType;
  reference: StockReference;
  userId: string | null;
  reason?: string;
  /** Allow the batch to go below zero (never for write-offs). */
  allowNegative?: boolean;
  /** See ReceiveBatchInput.replicate. */
  replicate?: boolean;
}

export interface MoveBatchQuantityResult {
  movementId: string;
  batch: BatchesTable;
}

export const assertUnits = (n: number, field: string) => {
  if (!Number.isSafeInteger(n) || n <= 0)
    throw new Invalid(`${field} must be a positive whole number.`, [
      { path: field, message: 'must be a positive whole number' },
    ]);
};

/** A batch as it replicates: identity, cost and status; quantities replicate as movements. */
export function batchChangePayload(row: BatchesTable): Omit<BatchesTable, 'qty_on_hand'> {
  const { qty_on_hand: _, ...rest } = row;
  return rest;
}

export async function recordBatchChange(trx: Db, row: BatchesTable): Promise<void> {
  await recordChanges(trx, [
    {
      entity: 'batch',
      entityId: row.id,
      op: 'upsert',
      payload: batchChangePayload(row),
      branchId: row.branch_id,
    },
  ]);
}

const insertMovements = preparedInsert('stock_movements');

/** A movement to write: its batch, type, signed quantity, what caused it, who and why. */
export interface MovementInput {
  batch: Pick<BatchesTable, 'id' | 'branch_id' | 'medicine_id'>;
  type: MovementType;
  quantity: number;
  reference: StockReference;
  userId: string | null;
  reason: string;
}

/**
 * Appends movements (and, with `replicate`, their change_log rows) in a few multi-row statements, in order;
 * returns their ids in that order.
 */
export async function writeMovements(
  trx: Db,
  movements: readonly MovementInput[],
  replicate = true,
): Promise<string[]> {
  if (movements.length === 0) return [];
  const at = nowIso();
  const rows = movements.map(
    (m): StockMovementsTable => ({
      id: newId(),
      batch_id: m.batch.id,
      branch_id: m.batch.branch_id,
      medicine_id: m.batch.medicine_id,
      type: m.type,
      quantity: m.quantity,
      reference_type: m.reference.type,
      reference_id: m.reference.id,
      user_id: m.userId,
      reason: m.reason,
      created_at: at,
    }),
  );
  await insertMovements.run(trx, rows);
  if (replicate)
    await recordChanges(
      trx,
      rows.map(
        (row): Change => ({
          entity: 'stock_movement',
          entityId: row.id,
          op: 'upsert',
          payload: row,
          branchId: row.branch_id,
        }),
      ),
    );
  return rows.map((r) => r.id);
}

export async function writeMovement(
  trx: Db,
  batch: Pick<BatchesTable, 'id' | 'branch_id' | 'medicine_id'>,
  type: MovementType,
  quantity: number,
  reference: StockReference,
  userId: string | null,
  reason: string,
  replicate = true,
): Promise<string> {
  const [id] = await writeMovements(trx, [{ batch, type, quantity, reference, userId, reason }], replicate);
  return id!;
}

/**
 * Adds `delta` to a batch's quantity on hand. A decrement is guarded in SQL (`qty_on_hand >= n`), so two
 * writers can never take the same units, whatever interleaving; returns false when the guard refused it.
 */
type Delta = { id: string; delta: number; at: string };
const addQuantity = prepared((db, p: Delta) =>
  db
    .updateTable('batches')
    .set((eb) => ({ qty_on_hand: eb('qty_on_hand', '+', p.delta), updated_at: p.at }))
    .where('id', '=', p.id),
);
const takeQuantity = prepared((db, p: Delta & { needed: number }) =>
  db
    .updateTable('batches')
    .set((eb) => ({ qty_on_hand: eb('qty_on_hand', '+', p.delta), updated_at: p.at }))
    .where('id', '=', p.id)
    .where('qty_on_hand', '>=', p.needed),
);

/** `held`: units of the batch reserved for others, which a decrement must leave on hand. */
async function applyDelta(
  trx: Db,
  batchId: string,
  delta: number,
  allowNegative: boolean,
  held = 0,
): Promise<boolean> {
  const p = { id: batchId, delta, at: nowIso() };
  const changed =
    delta < 0 && !allowNegative
      ? await takeQuantity.run(trx, { ...p, needed: held - delta })
      : await addQuantity.run(trx, p);
  return changed === 1;
}

export async function medicineName(trx: Db, medicineId: string): Promise<string> {
  const row = await trx
    .selectFrom('medicines')
    .select('name')
    .where('id', '=', medicineId)
    .executeTakeFirst();
  if (!row) throw new NotFound('Medicine', medicineId);
  return row.name;
}

/**
 * Units of batch `batches.id` held for the will-call shelf (stock/reservations.ts): on hand, not available to
 * any other sale. A SQL expression for a query over `batches`.
 */
export const heldInBatch = sql<number>`(SELECT coalesce(sum(r.quantity), 0) FROM stock_reservations r
  WHERE r.batch_id = batches.id AND r.status = 'held')`;

/**
 * Changes one batch's quantity by `delta` with a movement: a return restocked into its original batch, a
 * write-off, a count variance, an adjustment. A decrease beyond what is on hand throws InsufficientStock
 * unless allowNegative.
 */
export async function moveBatchQuantity(
  trx: Db,
  input: MoveBatchQuantityInput,
): Promise<MoveBatchQuantityResult> {
  if (!Number.isSafeInteger(input.delta) || input.delta === 0)
    throw new Invalid('The quantity change must be a whole number other than 0.', [
      { path: 'quantity', message: 'must be a whole number other than 0' },
    ]);
  const before = await trx
    .selectFrom('batches')
    .selectAll()
    .where('id', '=', input.batchId)
    .executeTakeFirst();
  if (!before) throw new NotFound('Batch', input.batchId);
  if (!(await applyDelta(trx, before.id, input.delta, input.allowNegative ?? false))) {
    throw new InsufficientStock(
      before.medicine_id,
      await medicineName(trx, before.medicine_id),
      -input.delta,
      Math.max(0, before.qty_on_hand),
    );
  }
  const movementId = await writeMovement(
    trx,
    before,
    input.type,
    input.delta,
    input.reference,
    input.userId,
    input.reason ?? '',
    input.replicate ?? true,
  );
  await unitsMoved(trx, [{ batchId: before.id, branchId: before.branch_id, delta: input.delta }]);
  return {
    movementId,
    batch: { ...before, qty_on_hand: before.qty_on_hand + input.delta, updated_at: nowIso() },
  };
}

/**
 * Sellable units per medicine in a branch: the sum over active (not quarantined or recalled), unexpired
 * batches, less the units held for the will-call shelf. Medicines without stock are present with 0. `asOf` defaults to today in the branch's time zone.
 */
export async function branchStock(
  db: Db,
  branchId: string,
  medicineIds: readonly string[],
  asOf?: string,
): Promise<Map<string, number>> {
  const out = new Map<string, number>(medicineIds.map((id) => [id, 0]));
  if (medicineIds.length === 0) return out;
  const day = asOf ?? (await branchToday(db, branchId));
  for (let i = 0; i < medicineIds.length; i += 500) {
    const rows = await db
      .selectFrom('batches')
      .select(['medicine_id', sql<number>`sum(qty_on_hand - ${heldInBatch})`.as('qty')])
      .where('branch_id', '=', branchId)
      .where('medicine_id', 'in', medicineIds.slice(i, i + 500))
      .where('regulator_status', '=', 'active')
      .where('expiry_date', '>=', day)
      .groupBy('medicine_id')
      .execute();
    for (const r of rows) out.set(r.medicine_id, Number(r.qty));
  }
  return out;
}
