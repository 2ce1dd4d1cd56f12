import { sql } from 'kysely';
import type { WillCall } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { assertBranchAccess, type AuthUser } from '../../http/auth';
import { Conflict, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import {
  NOT_VALID,
  recordDispensingChanges,
  setPrescriptionStatus,
  statusAfterFill,
} from '../prescriptions/dispense';
import { getPrescriptionRow } from '../prescriptions/read';
import { recordWillCallChange } from '../prescriptions/service';
import { willCallLines } from '../prescriptions/will-call-sale';
import type { DispensingsTable, WillCallsTable } from '../../db/tables/prescriptions';
import { moveBatchQuantity } from '../stock/ledger';
import { heldReservations, releaseReserved } from '../stock/reservations';
import { paginate } from '../../db/paginate';

async function toWillCalls(db: Db, rows: WillCallsTable[]): Promise<WillCall[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const lines = await willCallLines(db, ids);
  const patients = await db
    .selectFrom('prescriptions')
    .select(['id', 'patient_name', 'patient_phone'])
    .where(
      'id',
      'in',
      rows.map((r) => r.prescription_id),
    )
    .execute();
  const patientOf = new Map(patients.map((p) => [p.id, p]));
  return rows.map((r) => {
    const mine = lines.filter((l) => l.will_call_id === r.id);
    return {
      id: r.id,
      prescription_id: r.prescription_id,
      branch_id: r.branch_id,
      patient_name: patientOf.get(r.prescription_id)?.patient_name ?? '',
      patient_phone: patientOf.get(r.prescription_id)?.patient_phone ?? '',
      bin_location: r.bin_location,
      notes: r.notes,
      status: r.status,
      has_controlled: mine.some((l) => l.is_controlled === 1),
      items: mine.map((l) => ({
        medicine_id: l.medicine_id,
        medicine_name: l.medicine_name,
        quantity: l.quantity,
      })),
      placed_by: r.placed_by,
      placed_at: r.placed_at,
      collected_by_name: r.collected_by_name,
      collector_relationship: r.collector_relationship,
      collector_id_number: r.collector_id_number,
      picked_up_by: r.picked_up_by,
      picked_up_at: r.picked_up_at,
      sale_id: r.sale_id,
      returned_at: r.returned_at,
      return_reason: r.return_reason,
    };
  });
}

export async function getWillCallRow(db: Db, id: string): Promise<WillCallsTable> {
  const row = await db.selectFrom('will_calls').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Will-call entry', id);
  return row;
}

export async function listWillCalls(
  app: AppContext,
  f: {
    branch_id?: string;
    status: 'waiting' | 'picked_up' | 'returned' | 'all';
    page: number;
    page_size: number;
  },
) {
  let q = app.db.selectFrom('will_calls');
  if (f.branch_id) q = q.where('branch_id', '=', f.branch_id);
  if (f.status !== 'all') q = q.where('status', '=', f.status);
  const found = await paginate(q, f, (q) =>
    q
      .selectAll()
      .orderBy('placed_at', f.status === 'waiting' ? 'asc' : 'desc')
      .orderBy('id'),
  );
  return { ...found, items: await toWillCalls(app.db, found.items) };
}

/**
 * Puts the prepared goods of a prescription on the will-call shelf: every dispensing made through the dispense
 * route and not yet handed over. The prescription becomes `ready`.
 */
export async function createWillCall(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: { prescription_id: string; bin_location: string; notes: string },
): Promise<WillCall> {
  const before = await getPrescriptionRow(app.db, input.prescription_id);
  assertBranchAccess(user, before.branch_id, 'prescription');
  const id = await app.db.transaction().execute(async (trx) => {
    const rx = await trx
      .selectFrom('prescriptions')
      .selectAll()
      .where('id', '=', input.prescription_id)
      .executeTakeFirstOrThrow();
    if (rx.status === 'cancelled') throw new Conflict('This prescription is cancelled.', NOT_VALID);
    if (rx.status === 'ready')
      throw new Conflict(
        'This prescription is already waiting on the will-call shelf.',
        'ALREADY_ON_WILL_CALL',
      );
    const prepared = await trx
      .selectFrom('dispensings')
      .select('id')
      .where('prescription_id', '=', rx.id)
      .where('source', '=', 'dispense')
      .where('will_call_id', 'is', null)
      .execute();
    if (prepared.length === 0)
      throw new Conflict(
        'Nothing prepared is waiting to be handed over: dispense the prescription first.',
        'NOTHING_PREPARED',
      );
    const row: WillCallsTable = {
      id: newId(),
      prescription_id: rx.id,
      branch_id: rx.branch_id,
      bin_location: input.bin_location,
      notes: input.notes,
      status: 'waiting',
      placed_by: user.id,
      placed_at: nowIso(),
      collected_by_name: null,
      collector_relationship: null,
      collector_id_number: null,
      picked_up_by: null,
      picked_up_at: null,
      sale_id: null,
      returned_by: null,
      returned_at: null,
      return_reason: null,
    };
    await trx.insertInto('will_calls').values(row).execute();
    await trx
      .updateTable('dispensings')
      .set({ will_call_id: row.id })
      .where(
        'id',
        'in',
        prepared.map((p) => p.id),
      )
      .execute();
    // The shelf entry replicates before the dispensings that point at it.
    await recordWillCallChange(trx, row);
    for (const p of prepared)
      await recordDispensingChanges(trx, [
        await trx.selectFrom('dispensings').selectAll().where('id', '=', p.id).executeTakeFirstOrThrow(),
      ]);
    await setPrescriptionStatus(trx, rx.id, 'ready', row.placed_at);
    await writeAudit(trx, actor, {
      action: 'will_call.create',
      entity: 'will_call',
      entityId: row.id,
      branchId: rx.branch_id,
      before: { prescription_status: rx.status },
      after: { ...row, dispensing_ids: prepared.map((p) => p.id) },
    });
    return row.id;
  });
  return (await toWillCalls(app.db, [await getWillCallRow(app.db, id)]))[0]!;
}

/**
 * The old hand-over without payment is gone (issue 27.1): a pickup is a sale (POST /sales with will_call_id),
 * which takes the reserved stock when it is paid. 409 ALREADY_PICKED_UP, else 409 PICKUP_NEEDS_SALE.
 */
export function refusePickupWithoutSale(wc: WillCallsTable): never {
  if (wc.status === 'picked_up')
    throw new Conflict(
      `This will-call entry was already picked up at ${wc.picked_up_at}.`,
      'ALREADY_PICKED_UP',
    );
  throw new Conflict(
    'A will-call pickup is a sale: load it into the cart on the Sell screen (Pick up) and take the payment.',
    'PICKUP_NEEDS_SALE',
  );
}

/** Puts an item's quantities back as they were before dispensing `d` (the latest fill of that item). */
async function reverseDispensing(trx: Db, d: DispensingsTable): Promise<void> {
  const it = await trx
    .selectFrom('prescription_items')
    .selectAll()
    .where('id', '=', d.prescription_item_id)
    .executeTakeFirstOrThrow();
  // A dispensing that started a refill (fill 2 or later, alone in its fill) gives the refill back.
  const startedRefill = d.fill_number > 1 && it.dispensed_quantity === d.quantity && it.refills_used > 0;
  await trx
    .updateTable('prescription_items')
    .set({
      refills_used: startedRefill ? it.refills_used - 1 : it.refills_used,
      dispensed_quantity: startedRefill ? it.quantity : it.dispensed_quantity - d.quantity,
      total_dispensed: it.total_dispensed - d.quantity,
    })
    .where('id', '=', it.id)
    .execute();
}

/**
 * Returns a waiting will-call entry to stock (not collected): its reserved units are released (an entry
 * prepared before reservations gets its units back with a `return` movement), its prescription book rows are
 * marked reversed and the prescription's quantities restored, so it can be dispensed again.
 */
export async function returnWillCall(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  reason: string,
): Promise<WillCall> {
  const before = await getWillCallRow(app.db, id);
  assertBranchAccess(user, before.branch_id, 'will-call entry');
  await app.db.transaction().execute(async (trx) => {
    const at = nowIso();
    const done = await trx
      .updateTable('will_calls')
      .set({ status: 'returned', returned_by: user.id, returned_at: at, return_reason: reason })
      .where('id', '=', id)
      .where('status', '=', sql.lit('waiting'))
      .executeTakeFirst();
    if (Number(done.numUpdatedRows) !== 1)
      throw new Conflict(
        'Only a will-call entry waiting on the shelf can go back to stock.',
        'WILL_CALL_NOT_WAITING',
      );
    const wc = await getWillCallRow(trx, id);
    await recordWillCallChange(trx, wc);
    const lines = await trx
      .selectFrom('dispensings')
      .selectAll()
      .where('will_call_id', '=', id)
      .where('reversed_at', 'is', null)
      .execute();
    const dispenseIds = [...new Set(lines.map((l) => l.dispense_id))];
    const held = await heldReservations(trx, dispenseIds);
    await releaseReserved(trx, held);
    if (held.length === 0) await restockLegacy(trx, dispenseIds, user.id);
    for (const d of lines) {
      await reverseDispensing(trx, d);
      await trx.updateTable('dispensings').set({ reversed_at: at }).where('id', '=', d.id).execute();
      await recordDispensingChanges(trx, [{ ...d, reversed_at: at }]);
    }
    await setPrescriptionStatus(trx, wc.prescription_id, await restoredStatus(trx, wc.prescription_id), at);
    await writeAudit(trx, actor, {
      action: 'will_call.return',
      entity: 'will_call',
      entityId: id,
      branchId: wc.branch_id,
      before: { status: 'waiting' },
      after: {
        status: 'returned',
        reason,
        released: held.map((r) => ({ batch_id: r.batch_id, quantity: r.quantity })),
      },
    });
  });
  return (await toWillCalls(app.db, [await getWillCallRow(app.db, id)]))[0]!;
}

/** An entry prepared before reservations took its stock at dispensing: give it back to the same batches. */
async function restockLegacy(trx: Db, dispenseIds: string[], userId: string): Promise<void> {
  if (dispenseIds.length === 0) return;
  const moved = await trx
    .selectFrom('stock_movements')
    .select(['batch_id', 'quantity', 'reference_id'])
    .where('reference_type', '=', 'dispense')
    .where('reference_id', 'in', dispenseIds)
    .execute();
  for (const m of moved)
    await moveBatchQuantity(trx, {
      batchId: m.batch_id,
      delta: -m.quantity,
      type: 'return',
      reference: { type: 'dispense', id: m.reference_id! },
      userId,
      reason: 'Will-call not collected: returned to stock',
    });
}

/** The prescription's status once a will-call's dispensings are reversed. */
async function restoredStatus(trx: Db, prescriptionId: string) {
  const items = await trx
    .selectFrom('prescription_items')
    .selectAll()
    .where('prescription_id', '=', prescriptionId)
    .execute();
  return items.every((i) => i.total_dispensed === 0) ? ('active' as const) : statusAfterFill(items);
}
