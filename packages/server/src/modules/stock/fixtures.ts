import type { TestServer } from '../../testing/harness';

/** Test fixtures over HTTP for the catalogue and stock areas (tests only). */
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
export function setStatus(t: TestServer, batchId: string, status: 'active' | 'quarantined' | 'recalled') {
  t.context.sqlite.prepare('UPDATE batches SET regulator_status = ? WHERE id = ?').run(status, batchId);
}

/** Sets a batch's expiry directly (the API refuses to receive expired stock). */
export function setExpiry(t: TestServer, batchId: string, date: string) {
  t.context.sqlite.prepare('UPDATE batches SET expiry_date = ? WHERE id = ?').run(date, batchId);
}

/** Every batch's on-hand quantity equals the sum of its movements. */
export function ledgerMismatches(t: TestServer): unknown[] {
  return t.context.sqlite
    .prepare(
      `SELECT b.id, b.qty_on_hand, coalesce(sum(sm.quantity), 0) AS ledger FROM batches b
       LEFT JOIN stock_movements sm ON sm.batch_id = b.id GROUP BY b.id HAVING b.qty_on_hand <> ledger`,
    )
    .all();
}
