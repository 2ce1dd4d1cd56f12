import type { Dispensing, PrescriptionDetail, PrescriptionStatus } from '@pharmacy/contracts';
import { localDate } from '@pharmacy/contracts/time';
import { type ExpressionBuilder, sql } from 'kysely';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { containsText } from '../../db/like';
import { paginate } from '../../db/paginate';
import type { Database } from '../../db/schema';
import type { PrescriptionsTable } from '../../db/tables/prescriptions';
import { NotFound } from '../../lib/errors';
import { branchToday } from '../stock/ledger';
import { remainingOf, shownStatus } from './dispense';

/**
 * Reading prescriptions: the list (expiry derived per branch's day), one prescription with its lines and
 * dispensings. The writes (create, dispense, cancel) are in service.ts.
 */

/** The day that decides expiry, per branch (branches are few). */
async function todayByBranch(db: Db, onlyBranch?: string): Promise<Array<[string, string]>> {
  let q = db.selectFrom('branches').select(['id', 'timezone']);
  if (onlyBranch) q = q.where('id', '=', onlyBranch);
  return (await q.execute()).map((b) => [b.id, localDate(b.timezone)]);
}

type Eb = ExpressionBuilder<Database, 'prescriptions'>;
const expiredExpr = (eb: Eb, todays: Array<[string, string]>) =>
  eb.and([
    eb('prescriptions.status', 'in', ['active', 'partially_dispensed']),
    eb.or(
      todays.length === 0
        ? [eb.lit(false)]
        : todays.map(([b, d]) =>
            eb.and([eb('prescriptions.branch_id', '=', b), eb('prescriptions.valid_until', '<', d)]),
          ),
    ),
  ]);

export interface PrescriptionFilter {
  branch_id?: string;
  status?: PrescriptionStatus;
  patient?: string;
  customer_id?: string;
  from?: string;
  to?: string;
  page: number;
  page_size: number;
}

export async function listPrescriptions(app: AppContext, f: PrescriptionFilter) {
  const todays = await todayByBranch(app.db, f.branch_id);
  let q = app.db.selectFrom('prescriptions');
  if (f.branch_id) q = q.where('prescriptions.branch_id', '=', f.branch_id);
  if (f.customer_id) q = q.where('prescriptions.customer_id', '=', f.customer_id);
  if (f.from) q = q.where('prescriptions.issue_date', '>=', f.from);
  if (f.to) q = q.where('prescriptions.issue_date', '<=', f.to);
  if (f.patient) {
    const patient = f.patient;
    q = q.where((eb) =>
      eb.or([
        containsText('prescriptions.patient_name', patient),
        containsText('prescriptions.patient_id_number', patient),
        containsText('prescriptions.patient_phone', patient),
      ]),
    );
  }
  if (f.status === 'expired') q = q.where((eb) => expiredExpr(eb, todays));
  else if (f.status === 'active' || f.status === 'partially_dispensed') {
    const status = f.status;
    q = q.where('prescriptions.status', '=', status).where((eb) => eb.not(expiredExpr(eb, todays)));
  } else if (f.status) q = q.where('prescriptions.status', '=', f.status);
  const found = await paginate(q, f, (q) =>
    q
      .selectAll('prescriptions')
      .select([
        sql<number>`(SELECT count(*) FROM prescription_items i WHERE i.prescription_id = prescriptions.id)`.as(
          'item_count',
        ),
        sql<number>`(SELECT coalesce(sum(i.quantity - i.dispensed_quantity), 0) FROM prescription_items i WHERE i.prescription_id = prescriptions.id)`.as(
          'remaining_quantity',
        ),
      ])
      .orderBy('prescriptions.issue_date', 'desc')
      .orderBy('prescriptions.id', 'desc'),
  );
  const todayOf = new Map(todays);
  return {
    ...found,
    items: found.items.map((r) => ({
      ...toPrescription(r, todayOf.get(r.branch_id) ?? '0000-00-00'),
      item_count: Number(r.item_count),
      remaining_quantity: Number(r.remaining_quantity),
    })),
  };
}

const toPrescription = (r: PrescriptionsTable, today: string) => ({
  id: r.id,
  branch_id: r.branch_id,
  customer_id: r.customer_id,
  patient_name: r.patient_name,
  patient_id_number: r.patient_id_number,
  patient_phone: r.patient_phone,
  prescriber_name: r.prescriber_name,
  prescriber_licence_no: r.prescriber_licence_no,
  prescriber_facility: r.prescriber_facility,
  issue_date: r.issue_date,
  valid_until: r.valid_until,
  status: shownStatus(r, today),
  notes: r.notes,
  cancel_reason: r.cancel_reason,
  cancelled_at: r.cancelled_at,
  created_by: r.created_by,
  created_at: r.created_at,
  updated_at: r.updated_at,
});

export async function getPrescriptionRow(db: Db, id: string): Promise<PrescriptionsTable> {
  const row = await db.selectFrom('prescriptions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Prescription', id);
  return row;
}

/** The dispensings of some prescriptions (or dispense operations), oldest first. */
export async function listDispensings(
  db: Db,
  by: { prescriptionId?: string; willCallId?: string },
): Promise<Dispensing[]> {
  let q = db
    .selectFrom('dispensings as d')
    .innerJoin('medicines as m', 'm.id', 'd.medicine_id')
    .leftJoin('users as u', 'u.id', 'd.pharmacist_id')
    .select([
      'd.id',
      'd.dispense_id',
      'd.prescription_id',
      'd.prescription_item_id',
      'd.medicine_id',
      'm.name as medicine_name',
      'd.quantity',
      'd.fill_number',
      'd.source',
      'd.sale_id',
      'd.pharmacist_id',
      'u.full_name as pharmacist_name',
      'd.will_call_id',
      'd.created_at',
    ]);
  if (by.prescriptionId) q = q.where('d.prescription_id', '=', by.prescriptionId);
  if (by.willCallId) q = q.where('d.will_call_id', '=', by.willCallId);
  // Lines of a will-call returned to stock were never handed over.
  q = q.where('d.reversed_at', 'is', null);
  return q.orderBy('d.created_at').orderBy('d.id').execute();
}

export async function getPrescription(app: AppContext, id: string): Promise<PrescriptionDetail> {
  const row = await getPrescriptionRow(app.db, id);
  const today = await branchToday(app.db, row.branch_id);
  const items = await app.db
    .selectFrom('prescription_items as i')
    .innerJoin('medicines as m', 'm.id', 'i.medicine_id')
    .selectAll('i')
    .select(['m.name as medicine_name', 'm.generic_name', 'm.strength', 'm.form', 'm.is_controlled'])
    .where('i.prescription_id', '=', id)
    .orderBy('i.line_no')
    .execute();
  return {
    ...toPrescription(row, today),
    items: items.map((i) => ({
      id: i.id,
      medicine_id: i.medicine_id,
      medicine_name: i.medicine_name,
      generic_name: i.generic_name,
      strength: i.strength,
      form: i.form,
      is_controlled: i.is_controlled === 1,
      quantity: i.quantity,
      dosage: i.dosage,
      refills_allowed: i.refills_allowed,
      refills_used: i.refills_used,
      dispensed_quantity: i.dispensed_quantity,
      remaining_quantity: remainingOf(i),
      total_dispensed: i.total_dispensed,
    })),
    dispensings: await listDispensings(app.db, { prescriptionId: id }),
  };
}
