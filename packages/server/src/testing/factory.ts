import { CreateMedicineRequest } from '@pharmacy/contracts';
import { SYSTEM } from '../modules/audit/service';
import { createMedicine } from '../modules/medicines/service';
import { unitsMoved } from '../modules/stock/medicine-stock';
import { receiveBatch } from '../modules/stock/receive';
import type { TestServer } from './harness';

/**
 * The one test factory (tests only): records made the way the product makes them, over HTTP where the route
 * is what is under test, through the area's own service where a test only needs the record.
 * - Catalogue and stock over HTTP: makeCategory, makeMedicine (the created body), makeSupplier, receive,
 *   setStatus, setOnHand, setExpiry, inDays, ledgerMismatches.
 * - Selling: makeMedicineId (a medicine by price, its id, through the service), addStock, batchOnHand,
 *   openSessionFor.
 * - Prescriptions: rxBody, makeRx, medicineOnHand (all batches of a medicine in a branch).
 */

// Catalogue and stock
let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export const inDays = (days: number) => {
  const d = new Date();
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
};

async function ok<T>(p: Promise<{ status: number; body: T }>, want: number): Promise<T> {
  const res = await p;
  if (res.status !== want)
    throw new Error(`expected ${want}, got ${res.status}: ${JSON.stringify(res.body)}`);
  return res.body;
}

export async function makeCategory(t: TestServer, name = `Category ${unique()}`) {
  return ok(
    t.post<{ slug: string; name: string }>('/api/v1/categories', { name }, await t.adminToken()),
    201,
  );
}

export async function makeMedicine(t: TestServer, fields: Record<string, unknown> = {}) {
  return ok(
    t.post<{ id: string; name: string; barcode: string | null }>(
      '/api/v1/medicines',
      { name: `Medicine ${unique()}`, selling_price: 2.5, ...fields },
      await t.adminToken(),
    ),
    201,
  );
}

export async function makeSupplier(t: TestServer, fields: Record<string, unknown> = {}) {
  return ok(
    t.post<{ id: string; name: string }>(
      '/api/v1/suppliers',
      { name: `Supplier ${unique()}`, ...fields },
      await t.adminToken(),
    ),
    201,
  );
}

export interface BatchBody {
  id: string;
  qty_on_hand: number;
  qty_received: number;
  batch_number: string;
  expiry_date: string;
  branch_id: string;
  unit_cost: string;
  regulator_status: string;
}

export async function receive(
  t: TestServer,
  medicineId: string,
  supplierId: string,
  fields: Record<string, unknown> = {},
  token?: string,
) {
  return ok(
    t.post<BatchBody>(
      '/api/v1/purchases',
      {
        medicine_id: medicineId,
        supplier_id: supplierId,
        batch_number: `B${unique()}`,
        expiry_date: inDays(365),
        qty_received: 10,
        unit_cost: 1.25,
        ...fields,
      },
      token ?? (await t.adminToken()),
    ),
    201,
  );
}

/** Sets a batch's regulator status directly (the quarantine endpoint belongs to supplier finance). */
export async function setStatus(
  t: TestServer,
  batchId: string,
  status: 'active' | 'quarantined' | 'recalled',
) {
  await t.exec('UPDATE batches SET regulator_status = ? WHERE id = ?', status, batchId);
}

/**
 * Sets a batch's units on hand directly (a shortage the API never makes without a sale under
 * negative_stock_policy 'allow'), keeping medicine_stock as every write of units does (stock/medicine-stock.ts).
 */
export async function setOnHand(t: TestServer, batchId: string, qty: number) {
  await t.context.db.transaction().execute(async (trx) => {
    const b = await trx
      .selectFrom('batches')
      .select(['branch_id', 'qty_on_hand'])
      .where('id', '=', batchId)
      .executeTakeFirstOrThrow();
    await trx.updateTable('batches').set({ qty_on_hand: qty }).where('id', '=', batchId).execute();
    await unitsMoved(trx, [{ batchId, branchId: b.branch_id, delta: qty - b.qty_on_hand }]);
  });
}

/** Sets a batch's expiry directly (the API refuses to receive expired stock). */
export async function setExpiry(t: TestServer, batchId: string, date: string) {
  await t.exec('UPDATE batches SET expiry_date = ? WHERE id = ?', date, batchId);
}

/** Every batch's on-hand quantity equals the sum of its movements. */
export function ledgerMismatches(t: TestServer): Promise<unknown[]> {
  return t.query(
    `SELECT b.id, b.qty_on_hand, coalesce(sum(sm.quantity), 0) AS ledger FROM batches b
     LEFT JOIN stock_movements sm ON sm.batch_id = b.id GROUP BY b.id
     HAVING b.qty_on_hand <> coalesce(sum(sm.quantity), 0)`,
  );
}

// Selling
let seq = 0;

export async function makeMedicineId(
  t: TestServer,
  o: {
    price: number;
    name?: string;
    vat_category?: string;
    max_public_price?: number | null;
    requires_prescription?: boolean;
    is_controlled?: boolean;
  },
): Promise<string> {
  const row = await createMedicine(
    t.context,
    SYSTEM,
    CreateMedicineRequest.parse({
      name: o.name ?? `Medicine ${++seq}`,
      selling_price: o.price,
      max_public_price: o.max_public_price ?? null,
      vat_category: o.vat_category ?? 'standard',
      requires_prescription: o.requires_prescription ?? false,
      is_controlled: o.is_controlled ?? false,
      is_active: true,
      requires_cold_chain: false,
      regulator_registration_no: '',
    }),
  );
  return row.id;
}

export async function addStock(
  t: TestServer,
  medicineId: string,
  quantity: number,
  o: { branchId?: string; expiry?: string; batch?: string; unitCost?: number } = {},
): Promise<string> {
  const branchId = o.branchId ?? (await t.mainBranchId());
  return t.context.db.transaction().execute(async (trx) => {
    const { batch } = await receiveBatch(trx, {
      branchId,
      medicineId,
      batchNumber: o.batch ?? `B${++seq}`,
      expiryDate: o.expiry ?? '2099-12-31',
      quantity,
      unitCost: o.unitCost ?? 100,
      reference: { type: 'test', id: 'fixture' },
      userId: null,
    });
    return batch.id;
  });
}

export async function batchOnHand(t: TestServer, batchId: string): Promise<number> {
  const row = await t.context.db
    .selectFrom('batches')
    .select('qty_on_hand')
    .where('id', '=', batchId)
    .executeTakeFirstOrThrow();
  return row.qty_on_hand;
}

export async function openSessionFor(t: TestServer, token: string, float = 100): Promise<string> {
  const res = await t.post<{ id: string }>('/api/v1/sessions/open', { opening_float: float }, token);
  if (res.status !== 201) throw new Error(`open session: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.id;
}

// Prescriptions
export interface RxItem {
  id: string;
  medicine_id: string;
  quantity: number;
  dispensed_quantity: number;
  remaining_quantity: number;
  refills_allowed: number;
  refills_used: number;
  total_dispensed: number;
}
export interface Rx {
  id: string;
  branch_id: string;
  status: string;
  valid_until: string;
  items: RxItem[];
  dispensings: Array<{
    id: string;
    dispense_id: string;
    medicine_id: string;
    quantity: number;
    fill_number: number;
    source: string;
    will_call_id: string | null;
  }>;
}

export const rxBody = (items: Array<Record<string, unknown>>, fields: Record<string, unknown> = {}) => ({
  patient_name: 'Amina Juma',
  patient_id_number: 'NID-123',
  patient_phone: '+255700000001',
  prescriber_name: 'Dr. Mushi',
  prescriber_licence_no: 'MCT-9981',
  prescriber_facility: 'Mnazi Mmoja Hospital',
  issue_date: inDays(-1),
  items,
  ...fields,
});

export async function makeRx(
  t: TestServer,
  token: string,
  items: Array<Record<string, unknown>>,
  fields: Record<string, unknown> = {},
): Promise<Rx> {
  const res = await t.post<Rx>('/api/v1/prescriptions', rxBody(items, fields), token);
  if (res.status !== 201) throw new Error(`create prescription: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/** Units on hand of a medicine in a branch (every batch, as the controlled book counts them). */
export const medicineOnHand = async (
  t: TestServer,
  medicineId: string,
  branchId: string,
): Promise<number> => {
  const [row] = await t.query<{ n: number }>(
    'SELECT coalesce(sum(qty_on_hand), 0) AS n FROM batches WHERE medicine_id = ? AND branch_id = ?',
    medicineId,
    branchId,
  );
  return Number(row?.n ?? 0);
};
