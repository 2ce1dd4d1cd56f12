import type { Collector } from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { Conflict, Invalid, NotFound } from '../../lib/errors';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { recordDispensingChanges, setPrescriptionStatus, statusAfterFill } from './dispense';
import { recordWillCallChange } from './service';

/**
 * A will-call pickup is a sale (issue 27.1): the till's cart holds the entry's medicines, the sale takes the
 * units reserved at dispensing (stock/reservations.ts) when it is paid, and in the same transaction the entry
 * is handed over: the collector (with an ID number for a controlled medicine), the sale that paid for it, the
 * prescription book rows linked to the sale, the prescription complete.
 */

export interface WillCallForSale {
  id: string;
  branchId: string;
  prescriptionId: string;
  hasControlled: boolean;
  /** Units per medicine still to hand over. */
  items: Map<string, { name: string; quantity: number }>;
  dispenseIds: string[];
}

/** The goods on will-call entries: their prescription book rows not reversed, with the medicine, in order. */
export function willCallLines(db: Db, willCallIds: string[]) {
  return db
    .selectFrom('dispensings as d')
    .innerJoin('medicines as m', 'm.id', 'd.medicine_id')
    .select([
      'd.will_call_id',
      'd.dispense_id',
      'd.medicine_id',
      'm.name as medicine_name',
      'm.is_controlled',
      'd.quantity',
    ])
    .where('d.will_call_id', 'in', willCallIds)
    .where('d.reversed_at', 'is', null)
    .orderBy('d.created_at')
    .orderBy('d.id')
    .execute();
}

/** The waiting entry a sale picks up: 404 unknown, 409 when not waiting or of another branch. */
export async function loadWillCallForSale(
  db: Db,
  willCallId: string,
  branchId: string,
): Promise<WillCallForSale> {
  const wc = await db.selectFrom('will_calls').selectAll().where('id', '=', willCallId).executeTakeFirst();
  if (!wc) throw new NotFound('Will-call entry', willCallId);
  if (wc.branch_id !== branchId)
    throw new Conflict('This will-call entry waits at another branch.', 'WILL_CALL_NOT_WAITING');
  if (wc.status !== 'waiting')
    throw new Conflict(
      wc.status === 'picked_up'
        ? `This will-call entry was already picked up at ${wc.picked_up_at}.`
        : 'This will-call entry was returned to stock.',
      'WILL_CALL_NOT_WAITING',
    );
  const lines = await willCallLines(db, [willCallId]);
  const items = new Map<string, { name: string; quantity: number }>();
  for (const l of lines) {
    const item = items.get(l.medicine_id) ?? { name: l.medicine_name, quantity: 0 };
    item.quantity += l.quantity;
    items.set(l.medicine_id, item);
  }
  return {
    id: wc.id,
    branchId: wc.branch_id,
    prescriptionId: wc.prescription_id,
    hasControlled: lines.some((l) => l.is_controlled === 1),
    items,
    dispenseIds: [...new Set(lines.map((l) => l.dispense_id))],
  };
}

/**
 * The sale's lines carry each of the entry's medicines once, at the prepared quantity (409 WILL_CALL_MISMATCH),
 * and the collector is named, with an ID number when a controlled medicine is handed over (400).
 */
export function checkWillCallSale(
  wc: WillCallForSale,
  items: ReadonlyArray<{ medicine_id: string; quantity: number }>,
  collector: Collector | null | undefined,
): Collector {
  for (const [medicineId, want] of wc.items) {
    const lines = items.filter((i) => i.medicine_id === medicineId);
    if (lines.length !== 1 || lines[0]!.quantity !== want.quantity)
      throw new Conflict(
        `The will-call entry holds ${want.quantity} × ${want.name}: the sale must carry exactly that line.`,
        'WILL_CALL_MISMATCH',
      );
  }
  if (!collector)
    throw new Invalid('Say who collects the will-call entry.', [
      { path: 'collected_by.name', message: 'required for a will-call pickup' },
    ]);
  if (wc.hasControlled && !collector.id_number)
    throw new Invalid(
      "A controlled medicine is handed over: the collector's ID document number is required.",
      [{ path: 'collected_by.id_number', message: 'required for controlled medicines' }],
    );
  return collector;
}

/** Hands the entry over in the sale's transaction (after its stock was taken). */
export async function completeWillCallSale(
  trx: Db,
  actor: Actor,
  wc: WillCallForSale,
  sale: { id: string; userId: string },
  collector: Collector,
): Promise<void> {
  const at = nowIso();
  const handed = {
    status: 'picked_up' as const,
    collected_by_name: collector.name,
    collector_relationship: collector.relationship,
    collector_id_number: collector.id_number,
    picked_up_by: sale.userId,
    picked_up_at: at,
    sale_id: sale.id,
  };
  const done = await trx
    .updateTable('will_calls')
    .set(handed)
    .where('id', '=', wc.id)
    .where('status', '=', sql.lit('waiting'))
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1)
    throw new Conflict('This will-call entry was picked up meanwhile.', 'WILL_CALL_NOT_WAITING');
  await recordWillCallChange(
    trx,
    await trx.selectFrom('will_calls').selectAll().where('id', '=', wc.id).executeTakeFirstOrThrow(),
  );
  await trx
    .updateTable('dispensings')
    .set({ sale_id: sale.id })
    .where('will_call_id', '=', wc.id)
    .where('reversed_at', 'is', null)
    .execute();
  await recordDispensingChanges(
    trx,
    await trx.selectFrom('dispensings').selectAll().where('will_call_id', '=', wc.id).execute(),
  );
  const rx = await trx
    .selectFrom('prescriptions')
    .select(['status'])
    .where('id', '=', wc.prescriptionId)
    .executeTakeFirstOrThrow();
  const items = await trx
    .selectFrom('prescription_items')
    .selectAll()
    .where('prescription_id', '=', wc.prescriptionId)
    .execute();
  const status = rx.status === 'ready' ? statusAfterFill(items) : rx.status;
  await setPrescriptionStatus(trx, wc.prescriptionId, status, at);
  await writeAudit(trx, actor, {
    action: 'will_call.pickup',
    entity: 'will_call',
    entityId: wc.id,
    branchId: wc.branchId,
    after: { ...handed, prescription_status: status },
  });
}

/**
 * For central's check of a pushed sale: the medicines of the will-call entries the sale paid for (their
 * prescription was dispensed by a pharmacist when prepared, so the sale needs no prescription rule of its own).
 */
export async function willCallMedicinesOfSale(trx: Db, saleId: string): Promise<Set<string>> {
  const rows = await trx
    .selectFrom('dispensings as d')
    .innerJoin('will_calls as w', 'w.id', 'd.will_call_id')
    .select('d.medicine_id')
    .where('w.sale_id', '=', saleId)
    .execute();
  return new Set(rows.map((r) => r.medicine_id));
}
