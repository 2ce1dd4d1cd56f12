import type { PrescriptionStatus } from '@pharmacy/contracts';
import type { Db } from '../../db/connection';
import { recordChange, recordUpsert } from '../../db/changes';
import { Conflict, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { branchToday } from '../stock/ledger';
import type {
  DispensingsTable,
  PrescriptionItemsTable,
  PrescriptionsTable,
  StoredPrescriptionStatus,
} from '../../db/tables/prescriptions';

/**
 * The dispensing engine shared by the dispense route and dispenseForSale: checks that a prescription may be
 * dispensed, plans which quantities come from the current fill or start a refill, and writes the prescription
 * book rows and the remaining quantities. Runs INSIDE the caller's transaction; stock is the caller's business
 * (the dispense route consumes it FEFO, a sale consumes it as sale lines).
 */

export const NOT_VALID = 'PRESCRIPTION_NOT_VALID';

export interface PlannedLine {
  item: PrescriptionItemsTable;
  quantity: number;
  /** True when this line starts the item's next fill (a refill). */
  refill: boolean;
}

export const remainingOf = (i: Pick<PrescriptionItemsTable, 'quantity' | 'dispensed_quantity'>) =>
  i.quantity - i.dispensed_quantity;

/** The status a prescription shows: `expired` when past valid_until while it could still be dispensed. */
export function shownStatus(
  row: Pick<PrescriptionsTable, 'status' | 'valid_until'>,
  today: string,
): PrescriptionStatus {
  if ((row.status === 'active' || row.status === 'partially_dispensed') && row.valid_until < today)
    return 'expired';
  return row.status;
}

/** The stored status after a dispensing or a pickup: complete current fills are `dispensed`. */
export const statusAfterFill = (items: PrescriptionItemsTable[]): StoredPrescriptionStatus =>
  items.every((i) => remainingOf(i) === 0) ? 'dispensed' : 'partially_dispensed';

/** Loads a prescription for dispensing: 404 when unknown, 409 PRESCRIPTION_NOT_VALID when it may not be dispensed. */
export async function loadDispensable(
  trx: Db,
  prescriptionId: string,
  branchId: string,
): Promise<{ rx: PrescriptionsTable; items: PrescriptionItemsTable[] }> {
  const rx = await trx
    .selectFrom('prescriptions')
    .selectAll()
    .where('id', '=', prescriptionId)
    .executeTakeFirst();
  if (!rx) throw new NotFound('Prescription', prescriptionId);
  if (rx.branch_id !== branchId)
    throw new Conflict(
      'This prescription was registered at another branch; it cannot be dispensed here.',
      NOT_VALID,
    );
  if (rx.status === 'cancelled') throw new Conflict('This prescription is cancelled.', NOT_VALID);
  if (rx.status === 'ready')
    throw new Conflict(
      'This prescription is waiting on the will-call shelf; hand it over (pickup) before dispensing more.',
      NOT_VALID,
    );
  const today = await branchToday(trx, branchId);
  if (rx.valid_until < today)
    throw new Conflict(
      `This prescription expired on ${rx.valid_until}; it can no longer be dispensed.`,
      NOT_VALID,
    );
  const items = await trx
    .selectFrom('prescription_items')
    .selectAll()
    .where('prescription_id', '=', prescriptionId)
    .orderBy('line_no')
    .execute();
  return { rx, items };
}

/**
 * What to dispense. Without `lines`: everything left in the current fills; when nothing is left, a refill of
 * every item that still has refills. With `lines`: each from its item's current fill (409 beyond what
 * remains), or, when that fill is complete, as the item's next refill (409 beyond the prescribed quantity or
 * without refills left). Lines of medicines not on the prescription are returned in `uncovered`.
 */
export function planDispense(
  items: PrescriptionItemsTable[],
  lines: Array<{ medicineId: string; quantity: number }> | undefined,
): { planned: PlannedLine[]; uncovered: string[] } {
  if (!lines) {
    const open = items.filter((i) => remainingOf(i) > 0);
    if (open.length > 0)
      return {
        planned: open.map((item) => ({ item, quantity: remainingOf(item), refill: false })),
        uncovered: [],
      };
    const refillable = items.filter((i) => i.refills_used < i.refills_allowed);
    if (refillable.length === 0)
      throw new Conflict('Nothing is left to dispense: every fill and refill has been dispensed.', NOT_VALID);
    return {
      planned: refillable.map((item) => ({ item, quantity: item.quantity, refill: true })),
      uncovered: [],
    };
  }
  const wanted = new Map<string, number>();
  for (const l of lines) {
    if (!Number.isSafeInteger(l.quantity) || l.quantity <= 0)
      throw new Invalid('Quantities must be positive whole numbers.', [
        { path: 'quantity', message: 'must be positive' },
      ]);
    wanted.set(l.medicineId, (wanted.get(l.medicineId) ?? 0) + l.quantity);
  }
  const byMedicine = new Map(items.map((i) => [i.medicine_id, i]));
  const planned: PlannedLine[] = [];
  const uncovered: string[] = [];
  for (const [medicineId, quantity] of wanted) {
    const item = byMedicine.get(medicineId);
    if (!item) {
      uncovered.push(medicineId);
      continue;
    }
    const remaining = remainingOf(item);
    if (remaining > 0) {
      if (quantity > remaining)
        throw new Conflict(
          `Medicine ${medicineId}: ${quantity} wanted but only ${remaining} remain on this prescription.`,
          NOT_VALID,
        );
      planned.push({ item, quantity, refill: false });
    } else if (item.refills_used < item.refills_allowed) {
      if (quantity > item.quantity)
        throw new Conflict(
          `Medicine ${medicineId}: a refill is at most ${item.quantity} units, ${quantity} wanted.`,
          NOT_VALID,
        );
      planned.push({ item, quantity, refill: true });
    } else {
      throw new Conflict(`Medicine ${medicineId} is fully dispensed and has no refills left.`, NOT_VALID);
    }
  }
  return { planned, uncovered };
}

/** Replicates a prescription: its row and its items (entities prescription and prescription_item). */
export async function recordPrescriptionChange(trx: Db, id: string): Promise<void> {
  const row = await trx
    .selectFrom('prescriptions')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  await recordChange(trx, {
    entity: 'prescription',
    entityId: id,
    op: 'upsert',
    payload: row,
    branchId: row.branch_id,
  });
  const items = await trx
    .selectFrom('prescription_items')
    .selectAll()
    .where('prescription_id', '=', id)
    .orderBy('line_no')
    .execute();
  for (const item of items) await recordUpsert(trx, 'prescription_item', item, item.branch_id);
}

/** Sets a prescription's status (and `updated_at`) and replicates it with its items. */
export async function setPrescriptionStatus(
  trx: Db,
  id: string,
  status: StoredPrescriptionStatus,
  at: string,
): Promise<void> {
  await trx.updateTable('prescriptions').set({ status, updated_at: at }).where('id', '=', id).execute();
  await recordPrescriptionChange(trx, id);
}

/** Replicates prescription book rows as they now stand (entity dispensing). */
export async function recordDispensingChanges(trx: Db, rows: Iterable<DispensingsTable>): Promise<void> {
  for (const d of rows) await recordUpsert(trx, 'dispensing', d, d.branch_id);
}

export interface WriteDispenseInput {
  rx: PrescriptionsTable;
  items: PrescriptionItemsTable[];
  planned: PlannedLine[];
  dispenseId: string;
  source: 'dispense' | 'sale';
  saleId: string | null;
  userId: string | null;
  willCallId: string | null;
  notes: string;
}

/**
 * Writes the plan: item quantities (guarded UPDATEs, so a concurrent dispensing can never over-dispense),
 * one prescription book row per line, the prescription's new status, change_log rows and the audit entry.
 */
export async function writeDispense(
  trx: Db,
  actor: Actor,
  w: WriteDispenseInput,
): Promise<DispensingsTable[]> {
  const at = nowIso();
  const rows: DispensingsTable[] = [];
  for (const p of w.planned) {
    const it = p.item;
    const result = p.refill
      ? await trx
          .updateTable('prescription_items')
          .set((eb) => ({
            refills_used: eb('refills_used', '+', 1),
            dispensed_quantity: p.quantity,
            total_dispensed: eb('total_dispensed', '+', p.quantity),
          }))
          .where('id', '=', it.id)
          .where('refills_used', '=', it.refills_used)
          .where('dispensed_quantity', '=', it.quantity)
          .executeTakeFirst()
      : await trx
          .updateTable('prescription_items')
          .set((eb) => ({
            dispensed_quantity: eb('dispensed_quantity', '+', p.quantity),
            total_dispensed: eb('total_dispensed', '+', p.quantity),
          }))
          .where('id', '=', it.id)
          .where('dispensed_quantity', '=', it.dispensed_quantity)
          .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1)
      throw new Conflict(
        'The prescription changed while it was being dispensed; try again.',
        'PRESCRIPTION_CHANGED',
      );
    if (p.refill) {
      it.refills_used += 1;
      it.dispensed_quantity = p.quantity;
    } else it.dispensed_quantity += p.quantity;
    it.total_dispensed += p.quantity;
    const row: DispensingsTable = {
      id: newId(),
      dispense_id: w.dispenseId,
      prescription_id: w.rx.id,
      prescription_item_id: it.id,
      branch_id: w.rx.branch_id,
      medicine_id: it.medicine_id,
      quantity: p.quantity,
      fill_number: it.refills_used + 1,
      source: w.source,
      sale_id: w.saleId,
      pharmacist_id: w.userId,
      will_call_id: w.willCallId,
      notes: w.notes,
      created_at: at,
      reversed_at: null,
    };
    await trx.insertInto('dispensings').values(row).execute();
    await recordDispensingChanges(trx, [row]);
    rows.push(row);
  }
  const status = statusAfterFill(w.items);
  await setPrescriptionStatus(trx, w.rx.id, status, at);
  await writeAudit(trx, actor, {
    action: w.source === 'sale' ? 'prescription.dispense_sale' : 'prescription.dispense',
    entity: 'prescription',
    entityId: w.rx.id,
    branchId: w.rx.branch_id,
    before: { status: w.rx.status },
    after: {
      status,
      dispense_id: w.dispenseId,
      sale_id: w.saleId,
      lines: rows.map((r) => ({
        medicine_id: r.medicine_id,
        quantity: r.quantity,
        fill_number: r.fill_number,
      })),
    },
  });
  return rows;
}
