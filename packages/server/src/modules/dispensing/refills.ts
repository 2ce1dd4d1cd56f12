import type { RefillReminder } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordUpsert } from '../../db/changes';
import { assertBranchAccess, type AuthUser } from '../../http/auth';
import { Invalid } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { getMedicineRow } from '../medicines/service';
import { getPrescriptionRow } from '../prescriptions/read';
import { checkCustomer, targetBranch } from '../prescriptions/service';
import type { RefillRemindersTable } from '../../db/tables/prescriptions';
import { branchToday } from '../stock/ledger';
import { paginate } from '../../db/paginate';

/** Refill reminders: a prescription's next fill, due on a day, for the counter to call the patient about. */

const selectReminders = (db: Db) =>
  db
    .selectFrom('refill_reminders as r')
    .innerJoin('medicines as m', 'm.id', 'r.medicine_id')
    .selectAll('r')
    .select('m.name as medicine_name');

export async function listRefills(
  app: AppContext,
  f: { branch_id?: string; due_before?: string; medicine_id?: string; page: number; page_size: number },
) {
  let q = selectReminders(app.db);
  if (f.branch_id) q = q.where('r.branch_id', '=', f.branch_id);
  if (f.due_before) q = q.where('r.due_date', '<=', f.due_before);
  if (f.medicine_id) q = q.where('r.medicine_id', '=', f.medicine_id);
  const found = await paginate(q, f, (q) => q.orderBy('r.due_date').orderBy('r.id'));
  const items: RefillReminder[] = found.items;
  return { ...found, items };
}

export async function createRefill(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: {
    branch_id?: string;
    customer_id?: string;
    prescription_id?: string;
    patient_name: string;
    medicine_id: string;
    due_date: string;
    contact: string;
    notes: string;
  },
): Promise<RefillReminder> {
  let branchId: string;
  if (input.prescription_id) {
    const rx = await getPrescriptionRow(app.db, input.prescription_id);
    assertBranchAccess(user, rx.branch_id, 'prescription');
    if (input.branch_id && input.branch_id !== rx.branch_id)
      throw new Invalid('branch_id differs from the prescription’s branch.', [
        { path: 'branch_id', message: 'must be the prescription’s branch' },
      ]);
    branchId = await targetBranch(app.db, user, rx.branch_id);
  } else branchId = await targetBranch(app.db, user, input.branch_id);
  await getMedicineRow(app.db, input.medicine_id);
  await checkCustomer(app.db, input.customer_id);
  const today = await branchToday(app.db, branchId);
  if (input.due_date < today)
    throw new Invalid(`due_date ${input.due_date} is in the past.`, [
      { path: 'due_date', message: 'must be today or later' },
    ]);
  const row: RefillRemindersTable = {
    id: newId(),
    branch_id: branchId,
    customer_id: input.customer_id ?? null,
    prescription_id: input.prescription_id ?? null,
    patient_name: input.patient_name,
    medicine_id: input.medicine_id,
    due_date: input.due_date,
    contact: input.contact,
    notes: input.notes,
    created_by: user.id,
    created_at: nowIso(),
  };
  await app.db.transaction().execute(async (trx) => {
    await trx.insertInto('refill_reminders').values(row).execute();
    await recordUpsert(trx, 'refill_reminder', row, branchId);
    await writeAudit(trx, actor, {
      action: 'refill_reminder.create',
      entity: 'refill_reminder',
      entityId: row.id,
      branchId,
      after: row,
    });
  });
  return selectReminders(app.db).where('r.id', '=', row.id).executeTakeFirstOrThrow();
}
