import {
  type CreatePrescriptionRequest,
  type DispenseRequest,
  PRESCRIPTION_CONTROLLED_MAX_VALIDITY_DAYS,
  PRESCRIPTION_CONTROLLED_VALIDITY_DAYS,
  PRESCRIPTION_DEFAULT_VALIDITY_DAYS,
  PRESCRIPTION_MAX_VALIDITY_DAYS,
  type PrescriptionDetail,
} from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordUpsert } from '../../db/changes';
import { assertBranchAccess, type AuthUser } from '../../http/auth';
import { Conflict, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { requireActiveBranch } from '../branches/active-branch';
import { addDays } from '@pharmacy/contracts/time';
import { branchToday } from '../stock/ledger';
import { reserveFefo } from '../stock/reservations';
import { assertDispenseHandsNothingOver } from './hand-over';
import {
  loadDispensable,
  NOT_VALID,
  planDispense,
  recordPrescriptionChange,
  remainingOf,
  writeDispense,
} from './dispense';
import type {
  PrescriptionItemsTable,
  PrescriptionsTable,
  WillCallsTable,
} from '../../db/tables/prescriptions';
import { getPrescription, getPrescriptionRow } from './read';

/** 404 for a customer_id that is not a customer. */
export async function checkCustomer(db: Db, customerId: string | undefined): Promise<void> {
  if (!customerId) return;
  const found = await db.selectFrom('customers').select('id').where('id', '=', customerId).executeTakeFirst();
  if (!found) throw new NotFound('Customer', customerId);
}

/** The branch a record is created in: the caller's, or the one an organisation-wide role names (403 otherwise). */
export async function targetBranch(db: Db, user: AuthUser, requested: string | undefined): Promise<string> {
  const branchId = requested ?? user.branchId;
  assertBranchAccess(user, branchId, 'branch');
  await requireActiveBranch(db, branchId);
  return branchId;
}

export async function createPrescription(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: CreatePrescriptionRequest,
): Promise<PrescriptionDetail> {
  const branchId = await targetBranch(app.db, user, input.branch_id);
  await checkCustomer(app.db, input.customer_id);
  const seen = new Set<string>();
  const medicines = [];
  for (const [i, item] of input.items.entries()) {
    if (seen.has(item.medicine_id))
      throw new Invalid(
        'A medicine appears twice on the prescription; give it once with the total quantity.',
        [{ path: `items.${i}.medicine_id`, message: 'duplicate medicine' }],
      );
    seen.add(item.medicine_id);
    const m = await app.db
      .selectFrom('medicines')
      .select(['id', 'name', 'is_controlled', 'is_active'])
      .where('id', '=', item.medicine_id)
      .executeTakeFirst();
    if (!m) throw new NotFound('Medicine', item.medicine_id);
    if (!m.is_active)
      throw new Invalid(`${m.name} is deactivated and cannot be prescribed here.`, [
        { path: `items.${i}.medicine_id`, message: 'inactive medicine' },
      ]);
    if (m.is_controlled && item.refills_allowed > 0)
      throw new Invalid(
        `${m.name} is a controlled medicine: it cannot be refilled; write a new prescription.`,
        [{ path: `items.${i}.refills_allowed`, message: 'must be 0 for a controlled medicine' }],
      );
    medicines.push(m);
  }
  const controlled = medicines.some((m) => m.is_controlled === 1);
  const today = await branchToday(app.db, branchId);
  if (input.issue_date > today)
    throw new Invalid(`issue_date ${input.issue_date} is in the future.`, [
      { path: 'issue_date', message: 'must not be in the future' },
    ]);
  const validUntil =
    input.valid_until ??
    addDays(
      input.issue_date,
      controlled ? PRESCRIPTION_CONTROLLED_VALIDITY_DAYS : PRESCRIPTION_DEFAULT_VALIDITY_DAYS,
    );
  const maxDays = controlled ? PRESCRIPTION_CONTROLLED_MAX_VALIDITY_DAYS : PRESCRIPTION_MAX_VALIDITY_DAYS;
  if (validUntil < input.issue_date || validUntil > addDays(input.issue_date, maxDays))
    throw new Invalid(
      `valid_until must be between the issue date and ${maxDays} days after it${controlled ? ' (controlled medicine)' : ''}.`,
      [{ path: 'valid_until', message: `must be within ${maxDays} days of issue_date` }],
    );
  if (validUntil < today)
    throw new Invalid(`This prescription expired on ${validUntil}; it cannot be registered.`, [
      { path: 'valid_until', message: 'already expired' },
    ]);
  const at = nowIso();
  const row: PrescriptionsTable = {
    id: newId(),
    branch_id: branchId,
    customer_id: input.customer_id ?? null,
    patient_name: input.patient_name,
    patient_id_number: input.patient_id_number,
    patient_phone: input.patient_phone,
    prescriber_name: input.prescriber_name,
    prescriber_licence_no: input.prescriber_licence_no,
    prescriber_facility: input.prescriber_facility,
    issue_date: input.issue_date,
    valid_until: validUntil,
    status: 'active',
    notes: input.notes,
    cancel_reason: null,
    cancelled_at: null,
    cancelled_by: null,
    created_by: user.id,
    created_at: at,
    updated_at: at,
  };
  const items: PrescriptionItemsTable[] = input.items.map((it, i) => ({
    id: newId(),
    prescription_id: row.id,
    branch_id: branchId,
    line_no: i + 1,
    medicine_id: it.medicine_id,
    quantity: it.quantity,
    dosage: it.dosage,
    refills_allowed: it.refills_allowed,
    refills_used: 0,
    dispensed_quantity: 0,
    total_dispensed: 0,
  }));
  await app.db.transaction().execute(async (trx) => {
    await trx.insertInto('prescriptions').values(row).execute();
    await trx.insertInto('prescription_items').values(items).execute();
    await recordPrescriptionChange(trx, row.id);
    await writeAudit(trx, actor, {
      action: 'prescription.create',
      entity: 'prescription',
      entityId: row.id,
      branchId,
      after: { ...row, items },
    });
  });
  return getPrescription(app, row.id);
}

async function medicineNameOf(trx: Db, id: string): Promise<string> {
  const m = await trx.selectFrom('medicines').select('name').where('id', '=', id).executeTakeFirst();
  return m?.name ?? id;
}

/**
 * Dispenses without a sale: writes the prescription book and the remaining quantities, and leaves the goods
 * prepared for the will-call shelf, their units reserved per batch until the pickup's sale takes them or the
 * entry goes back to stock. Nothing is handed over here: a hand-over is a sale (hand-over.ts), so a collector
 * named is refused 409 HANDOVER_NEEDS_SALE before anything is written.
 */
export async function dispensePrescription(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  input: DispenseRequest,
): Promise<{ dispense_id: string; prescription: PrescriptionDetail }> {
  const before = await getPrescriptionRow(app.db, id);
  assertBranchAccess(user, before.branch_id, 'prescription');
  assertDispenseHandsNothingOver(input);
  const dispenseId = newId();
  await app.db.transaction().execute(async (trx) => {
    const { rx, items } = await loadDispensable(trx, id, before.branch_id);
    const lines = input.items?.map((l) => ({ medicineId: l.medicine_id, quantity: l.quantity }));
    const { planned, uncovered } = planDispense(items, lines);
    if (uncovered.length > 0)
      throw new Invalid(`Medicine ${uncovered[0]} is not on this prescription.`, [
        { path: 'items', message: `not on the prescription: ${uncovered.join(', ')}` },
      ]);
    // Prepared for the will-call shelf: held, not taken; the pickup's sale takes it (issue 27.1).
    for (const p of planned)
      await reserveFefo(trx, {
        branchId: rx.branch_id,
        medicineId: p.item.medicine_id,
        medicineName: await medicineNameOf(trx, p.item.medicine_id),
        quantity: p.quantity,
        prescriptionId: rx.id,
        dispenseId,
        userId: user.id,
      });
    await writeDispense(trx, actor, {
      rx,
      items,
      planned,
      dispenseId,
      source: 'dispense',
      saleId: null,
      userId: user.id,
      willCallId: null,
      notes: input.notes,
    });
  });
  return { dispense_id: dispenseId, prescription: await getPrescription(app, id) };
}

export async function recordWillCallChange(trx: Db, wc: WillCallsTable): Promise<void> {
  await recordUpsert(trx, 'will_call', wc, wc.branch_id);
}

/**
 * Cancels: while nothing has been dispensed, with or without a reason; once something has (a partial fill, or
 * a complete fill with refills left), only with a reason, which closes what remains. Refused (409) while the
 * prescription waits on the will-call shelf, when it is already cancelled, or when nothing remains to cancel.
 */
export async function cancelPrescription(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  reason: string,
): Promise<PrescriptionDetail> {
  const before = await getPrescriptionRow(app.db, id);
  assertBranchAccess(user, before.branch_id, 'prescription');
  await app.db.transaction().execute(async (trx) => {
    const rx = await trx
      .selectFrom('prescriptions')
      .selectAll()
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    if (rx.status === 'cancelled') throw new Conflict('This prescription is already cancelled.', NOT_VALID);
    if (rx.status === 'ready')
      throw new Conflict(
        'This prescription waits on the will-call shelf; it must be picked up (or its goods returned) before it can be cancelled.',
        NOT_VALID,
      );
    const items = await trx
      .selectFrom('prescription_items')
      .selectAll()
      .where('prescription_id', '=', id)
      .execute();
    const anyDispensed = items.some((i) => i.total_dispensed > 0);
    const anyLeft = items.some((i) => remainingOf(i) > 0 || i.refills_used < i.refills_allowed);
    if (!anyLeft)
      throw new Conflict('This prescription is fully dispensed; nothing is left to cancel.', NOT_VALID);
    if (anyDispensed && !reason)
      throw new Invalid(
        'Part of this prescription has been dispensed: give a reason to cancel the rest.',
        [{ path: 'reason', message: 'required once anything has been dispensed' }],
        'REASON_REQUIRED',
      );
    const at = nowIso();
    const guarded = await trx
      .updateTable('prescriptions')
      .set({
        status: 'cancelled',
        cancel_reason: reason,
        cancelled_at: at,
        cancelled_by: user.id,
        updated_at: at,
      })
      .where('id', '=', id)
      .where('status', '=', rx.status)
      .executeTakeFirst();
    if (Number(guarded.numUpdatedRows) !== 1)
      throw new Conflict(
        'The prescription changed while it was being cancelled; try again.',
        'PRESCRIPTION_CHANGED',
      );
    await recordPrescriptionChange(trx, id);
    await writeAudit(trx, actor, {
      action: 'prescription.cancel',
      entity: 'prescription',
      entityId: id,
      branchId: rx.branch_id,
      before: { status: rx.status },
      after: { status: 'cancelled', reason },
    });
  });
  return getPrescription(app, id);
}
