import type { MovementType } from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { type Change, recordChanges } from '../../db/changes';
import { AppError, Conflict, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { inList, type JsonColumn, jsonRows, listParam } from '../../db/dialect';
import { prepared, preparedInsert, preparedSql } from '../../db/prepared';
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

async function medicineName(trx: Db, medicineId: string): Promise<string> {
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

/** The sellable batches of some medicines in a branch (`ids`: listParam's), each medicine's in FEFO order. */
const sellableBatches = prepared((db, p: { branchId: string; ids: unknown; asOf: string }) =>
  db
    .selectFrom('batches')
    .select([
      'id',
      'branch_id',
      'medicine_id',
      'batch_number',
      'expiry_date',
      'qty_on_hand',
      'unit_cost',
      heldInBatch.as('held'),
    ])
    .where('branch_id', '=', p.branchId)
    .where(inList(db, 'medicine_id', p.ids))
    .where('regulator_status', '=', 'active')
    .where('expiry_date', '>=', p.asOf)
    .orderBy('medicine_id')
    .orderBy('expiry_date')
    .orderBy('received_at')
    .orderBy('id'),
);

const TAKEN: readonly JsonColumn[] = [
  { name: 'id', type: 'text' },
  { name: 'take', type: 'integer' },
  { name: 'needed', type: 'integer' },
];

/** Takes units from batches (`rows`: JSON `[[id, take, needed or null], …]`); returns the batches it changed. */
const takeUnits = preparedSql(
  (db, p: { at: string; rows: string }) => sql<{ id: string }>`UPDATE batches
    SET qty_on_hand = qty_on_hand - d.take, updated_at = ${p.at}
    FROM ${jsonRows(db, TAKEN, p.rows)} AS d
    WHERE batches.id = d.id AND (d.needed IS NULL OR batches.qty_on_hand >= d.needed)
    RETURNING batches.id AS id`,
);

type Candidate = Awaited<ReturnType<typeof sellableBatches.all>>[number] & { held: number; free: number };

/** One line of consumeFefoLines: a medicine and the units to take of it. */
export interface FefoLine {
  medicineId: string;
  /** Units to take, a positive integer. */
  quantity: number;
}

export type ConsumeFefoLinesInput = Omit<ConsumeFefoInput, 'medicineId' | 'quantity'> & {
  lines: readonly FefoLine[];
};

/** A take planned from one batch: the units, and whether the SQL guard against taking held or missing units applies. */
interface Take {
  line: number;
  batch: Candidate;
  quantity: number;
  guarded: boolean;
}

/**
 * Plans one line's takes from its medicine's candidates (changed in place, so a later line of the same medicine
 * sees what is left): FEFO over the free units, the shortfall on the batch that would be sold next when
 * allowNegative. Throws InsufficientStock when the line cannot be served.
 */
async function planLine(
  trx: Db,
  input: ConsumeFefoLinesInput,
  line: number,
  candidates: Candidate[],
): Promise<Take[]> {
  const { medicineId, quantity } = input.lines[line]!;
  const available = candidates.reduce((sum, b) => sum + Math.max(0, b.free), 0);
  if (available < quantity && (!input.allowNegative || candidates.length === 0))
    throw new InsufficientStock(medicineId, await medicineName(trx, medicineId), quantity, available);
  const takes: Take[] = [];
  let remaining = quantity;
  for (const batch of candidates) {
    if (remaining === 0) break;
    if (batch.free <= 0) continue;
    const take = Math.min(remaining, batch.free);
    takes.push({ line, batch, quantity: take, guarded: true });
    batch.free -= take;
    batch.qty_on_hand -= take;
    remaining -= take;
  }
  if (remaining > 0) {
    // allowNegative: the shortfall goes on the batch that would be sold next (the last one taken, else the first).
    const batch = takes.at(-1)?.batch ?? candidates[0]!;
    // Kept as an entry of its own (one per movement), so callers can cost and reverse each of them.
    takes.push({ line, batch, quantity: remaining, guarded: false });
    batch.free -= remaining;
    batch.qty_on_hand -= remaining;
  }
  return takes;
}

/**
 * Takes several lines' units from a branch at once (a sale's), first-expiry-first-out, skipping expired,
 * quarantined and recalled batches and the units held for the will-call shelf: ONE read of the sellable
 * batches of all the lines' medicines, a guarded UPDATE per batch taken, the movements (one per batch a line
 * touched, negative) in a few multi-row statements, and medicine_stock once per medicine (medicine-stock.ts).
 * Lines of the same medicine take one after another, as if taken separately. Throws InsufficientStock (409)
 * naming the medicine, wanted and available for the first line the sellable stock cannot serve (unless
 * allowNegative). Returns each line's batches taken, in the lines' order.
 */
export async function consumeFefoLines(trx: Db, input: ConsumeFefoLinesInput): Promise<TakenBatch[][]> {
  for (const l of input.lines) assertUnits(l.quantity, 'quantity');
  if (input.lines.length === 0) return [];
  const asOf = input.asOf ?? (await branchToday(trx, input.branchId));
  const ids = [...new Set(input.lines.map((l) => l.medicineId))];
  const byMedicine = new Map<string, Candidate[]>(ids.map((id) => [id, []]));
  for (const b of await sellableBatches.all(trx, {
    branchId: input.branchId,
    ids: listParam(trx, ids),
    asOf,
  })) {
    const held = Number(b.held);
    byMedicine.get(b.medicine_id)?.push({ ...b, held, free: b.qty_on_hand - held });
  }
  const takes: Take[] = [];
  for (const [line, l] of input.lines.entries())
    takes.push(...(await planLine(trx, input, line, byMedicine.get(l.medicineId)!)));
  // Each batch's units in one UPDATE: what its lines take, guarded (the units on hand beyond those held must
  // cover what FEFO took; a shortfall put on it under allowNegative is not). The guard refuses only if another
  // writer took units between this transaction's read and its write.
  const perBatch = new Map<string, { take: number; needed: number | null }>();
  for (const t of takes) {
    const b = perBatch.get(t.batch.id) ?? { take: 0, needed: null };
    b.take += t.quantity;
    if (t.guarded) b.needed = (b.needed ?? t.batch.held) + t.quantity;
    perBatch.set(t.batch.id, b);
  }
  const changed = await takeUnits.all(trx, {
    at: nowIso(),
    rows: JSON.stringify([...perBatch].map(([id, b]) => [id, b.take, b.needed])),
  });
  if (changed.length !== perBatch.size)
    throw new Conflict('Stock changed while it was being taken; try again.', 'STOCK_CHANGED');
  const movementIds = await writeMovements(
    trx,
    takes.map((t) => ({
      batch: t.batch,
      type: input.movementType,
      quantity: -t.quantity,
      reference: input.reference,
      userId: input.userId,
      reason: input.reason ?? '',
    })),
  );
  await unitsMoved(
    trx,
    takes.map((t) => ({ batchId: t.batch.id, branchId: t.batch.branch_id, delta: -t.quantity })),
  );
  const taken: TakenBatch[][] = input.lines.map(() => []);
  for (const [i, t] of takes.entries())
    taken[t.line]!.push({
      batchId: t.batch.id,
      batchNumber: t.batch.batch_number,
      expiryDate: t.batch.expiry_date,
      quantity: t.quantity,
      unitCost: t.batch.unit_cost,
      movementId: movementIds[i]!,
    });
  return taken;
}

/**
 * Takes `quantity` units of a medicine from a branch, first-expiry-first-out (consumeFefoLines with one line);
 * writes one movement per batch touched (negative quantity). Throws InsufficientStock (409) naming the
 * medicine, wanted and available when the sellable stock is short (unless allowNegative).
 */
export async function consumeFefo(trx: Db, input: ConsumeFefoInput): Promise<TakenBatch[]> {
  const { medicineId, quantity, ...rest } = input;
  const [taken] = await consumeFefoLines(trx, { ...rest, lines: [{ medicineId, quantity }] });
  return taken!;
}

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
