import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { inList, type JsonColumn, jsonRows, listParam } from '../../db/dialect';
import { prepared, preparedSql } from '../../db/prepared';
import { Conflict } from '../../lib/errors';
import { nowIso } from '../../lib/time';
import { branchToday } from '../branches/time-zone';
import {
  assertUnits,
  type ConsumeFefoInput,
  heldInBatch,
  InsufficientStock,
  medicineName,
  type TakenBatch,
  writeMovements,
} from './ledger';
import { unitsMoved } from './medicine-stock';

/**
 * Taking stock first-expiry-first-out: a sale's or dispensing's lines planned against the branch's sellable
 * batches (expiry, regulator status, what reservations hold), then taken in one guarded UPDATE.
 */
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
