import { withinUtcDays } from '../../db/utc-days';
import type { AppContext } from '../../app-context';
import { NotFound } from '../../lib/errors';
import { controlledRegistry } from '../stock/queries';
import { paginate } from '../../db/paginate';

export interface BookFilter {
  branch_id?: string;
  medicine_id?: string;
  from?: string;
  to?: string;
  page: number;
  page_size: number;
}

const selectBook = (app: AppContext) =>
  app.db
    .selectFrom('dispensings as d')
    .innerJoin('prescriptions as p', 'p.id', 'd.prescription_id')
    .innerJoin('medicines as m', 'm.id', 'd.medicine_id')
    .leftJoin('users as u', 'u.id', 'd.pharmacist_id')
    .select([
      'd.id',
      'd.created_at as dispensed_at',
      'd.branch_id',
      'd.prescription_id',
      'p.patient_name',
      'p.patient_id_number',
      'p.prescriber_name',
      'p.prescriber_licence_no',
      'p.prescriber_facility',
      'd.medicine_id',
      'm.name as medicine_name',
      'm.strength',
      'm.form',
      'm.is_controlled',
      'd.quantity',
      'd.fill_number',
      'd.pharmacist_id',
      'u.full_name as pharmacist_name',
      'd.source',
      'd.dispense_id',
      'd.sale_id',
    ]);

/** The prescription book: one row per dispensed line (a dispense or a sale against a prescription), oldest first. */
export async function prescriptionBook(app: AppContext, f: BookFilter, all = false) {
  // A will-call returned to stock uncollected reversed its lines: nothing was handed over.
  let q = selectBook(app).where('d.reversed_at', 'is', null);
  if (f.branch_id) q = q.where('d.branch_id', '=', f.branch_id);
  if (f.medicine_id) q = q.where('d.medicine_id', '=', f.medicine_id);
  q = withinUtcDays(q, 'd.created_at', f);
  const found = await paginate(q, f, (q) => q.orderBy('d.created_at').orderBy('d.id'), { all });
  return { ...found, items: found.items.map((r) => ({ ...r, is_controlled: r.is_controlled === 1 })) };
}

/** Most rows a CSV export carries in one file. */
export const CSV_MAX_ROWS = 50_000;

export const BOOK_COLUMNS = [
  'dispensed_at',
  'branch_id',
  'prescription_id',
  'patient_name',
  'patient_id_number',
  'prescriber_name',
  'prescriber_licence_no',
  'prescriber_facility',
  'medicine_name',
  'strength',
  'form',
  'is_controlled',
  'quantity',
  'fill_number',
  'pharmacist_name',
  'source',
  'dispense_id',
  'sale_id',
];

/**
 * The controlled (classified) drugs book: the catalogue's controlled registry (every movement of a controlled
 * medicine per branch, opening balance before the window, running balance, and whether the ledger equals the
 * batches on hand), each dispensing movement joined with its prescription, patient, prescriber and collector;
 * a will-call pickup's movement names its sale and the collector recorded with it.
 */
export async function classifiedDrugsBook(app: AppContext, f: BookFilter) {
  const registry = await controlledRegistry(app, f);
  const refs = registry.items.flatMap((e) =>
    e.movements
      .filter((m) => (m.reference_type === 'dispense' || m.reference_type === 'sale') && m.reference_id)
      .map((m) => m.reference_id as string),
  );
  const details = new Map<
    string,
    {
      prescription_id: string;
      patient_name: string;
      patient_id_number: string;
      prescriber_name: string;
      prescriber_licence_no: string;
      collected_by_name: string | null;
      collector_id_number: string | null;
    }
  >();
  for (let i = 0; i < refs.length; i += 400) {
    const chunk = refs.slice(i, i + 400);
    const rows = await app.db
      .selectFrom('dispensings as d')
      .innerJoin('prescriptions as p', 'p.id', 'd.prescription_id')
      .leftJoin('will_calls as w', 'w.id', 'd.will_call_id')
      .select([
        'd.source',
        'd.dispense_id',
        'd.sale_id',
        'd.medicine_id',
        'd.prescription_id',
        'p.patient_name',
        'p.patient_id_number',
        'p.prescriber_name',
        'p.prescriber_licence_no',
        'w.collected_by_name',
        'w.collector_id_number',
      ])
      .where((eb) => eb.or([eb('d.dispense_id', 'in', chunk), eb('d.sale_id', 'in', chunk)]))
      .execute();
    for (const r of rows) {
      // A will-call pickup is a sale of goods dispensed before: its movement names the sale.
      if (r.sale_id) details.set(`sale:${r.sale_id}:${r.medicine_id}`, r);
      if (r.source === 'dispense') details.set(`dispense:${r.dispense_id}:${r.medicine_id}`, r);
    }
  }
  return {
    ...registry,
    items: registry.items.map((e) => ({
      ...e,
      movements: e.movements.map((m) => {
        const d = details.get(`${m.reference_type}:${m.reference_id}:${m.medicine_id}`);
        return {
          ...m,
          prescription_id: d?.prescription_id ?? null,
          patient_name: d?.patient_name ?? null,
          patient_id_number: d?.patient_id_number ?? null,
          prescriber_name: d?.prescriber_name ?? null,
          prescriber_licence_no: d?.prescriber_licence_no ?? null,
          collected_by_name: d?.collected_by_name ?? null,
          collector_id_number: d?.collector_id_number ?? null,
        };
      }),
    })),
  };
}

/** The fiscal-authority payload of a sale, read from the selling module's sales table. */
export async function fiscalPreview(app: AppContext, saleId: string) {
  const row = await app.db
    .selectFrom('sales')
    .select([
      'id',
      'branch_id',
      'invoice_number',
      'uuid',
      'icv',
      'fiscal_status',
      'fiscal_hash',
      'fiscal_xml',
    ])
    .where('id', '=', saleId)
    .executeTakeFirst();
  if (!row) throw new NotFound('Sale', saleId);
  const { id, ...rest } = row;
  return { sale_id: id, ...rest };
}
