import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  addStock,
  inDays,
  makeMedicine,
  makeMedicineId,
  makeSupplier,
  openSessionFor,
  receive,
} from '../../testing/factory';
import { startTestServer, type TestServer } from '../../testing/harness';

// biome-ignore lint/suspicious/noExplicitAny: dashboard bodies are asserted field by field
type Json = Record<string, any>;
let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
});
afterAll(() => t.close());

describe('dashboard', () => {
  it("shows today's sales made at the till, and ranks the branch that sold first", async () => {
    const main = await t.mainBranchId();
    const quiet = await t.createBranch('QUI');
    const cashier = (await t.userWithRole('cashier')).token;
    await openSessionFor(t, cashier);
    const med = await makeMedicineId(t, { price: 5 });
    await addStock(t, med, 10);
    const sale = await t.post<Json>(
      '/api/v1/sales',
      { items: [{ medicine_id: med, quantity: 2 }], payment_lines: [{ method: 'cash', amount: 10 }] },
      cashier,
    );
    expect(sale.status).toBe(201);
    const summary = await t.get<Json>(`/api/v1/dashboard/summary?branch_id=${main}`, admin);
    expect(summary.body).toMatchObject({
      today_sales_count: 1,
      today_revenue: sale.body.total_amount,
      today_vat: sale.body.vat_amount,
    });
    const ranking = await t.get<Json>('/api/v1/dashboard/branch-comparison', admin);
    expect(ranking.body.items[0]).toMatchObject({ rank: 1, branch_id: main, sales_count: 1, share_pct: 100 });
    expect(ranking.body.items.find((b: Json) => b.branch_id === quiet)).toMatchObject({
      revenue: '0.00',
      share_pct: 0,
    });
  });

  it('counts expiring and expired batches, leaving quarantined and recalled out of the expiring counts', async () => {
    const branch = await t.createBranch('EXP');
    const supplier = (await makeSupplier(t)).id;
    const med = (await makeMedicine(t)).id;
    await receive(t, med, supplier, { branch_id: branch, expiry_date: inDays(10) });
    await receive(t, med, supplier, { branch_id: branch, expiry_date: inDays(60) });
    await receive(t, med, supplier, { branch_id: branch, expiry_date: inDays(200) });
    const q = await receive(t, med, supplier, { branch_id: branch, expiry_date: inDays(5) });
    const old = await receive(t, med, supplier, { branch_id: branch, expiry_date: inDays(5) });
    expect(
      (await t.post(`/api/v1/supplier-finance/batches/${q.id}/quarantine`, { status: 'quarantined' }, admin))
        .status,
    ).toBe(200);
    expect(await t.exec('UPDATE batches SET expiry_date = ? WHERE id = ?', inDays(-3), old.id)).toBe(1);
    const res = await t.get<Json>(`/api/v1/dashboard/summary?branch_id=${branch}`, admin);
    expect(res.body).toMatchObject({ expiring_30_count: 1, expiring_90_count: 2, expired_count: 1 });
  });

  it('counts low and out-of-stock medicines as the inventory report does: expired and quarantined stock is not sellable', async () => {
    const branch = await t.createBranch('LOW');
    const supplier = (await makeSupplier(t)).id;
    const stocked = (await makeMedicine(t, { low_stock_threshold: 5 })).id;
    const low = (await makeMedicine(t, { low_stock_threshold: 20 })).id;
    const expired = (await makeMedicine(t, { low_stock_threshold: 5 })).id;
    const held = (await makeMedicine(t, { low_stock_threshold: 5 })).id;
    await receive(t, stocked, supplier, { branch_id: branch, qty_received: 30 });
    await receive(t, low, supplier, { branch_id: branch, qty_received: 10 });
    const gone = await receive(t, expired, supplier, { branch_id: branch, qty_received: 30 });
    expect(await t.exec('UPDATE batches SET expiry_date = ? WHERE id = ?', inDays(-1), gone.id)).toBe(1);
    const q = await receive(t, held, supplier, { branch_id: branch, qty_received: 30 });
    expect(
      (await t.post(`/api/v1/supplier-finance/batches/${q.id}/quarantine`, { status: 'quarantined' }, admin))
        .status,
    ).toBe(200);
    const counts = (body: Json) => ({
      low_stock_count: body.low_stock_count,
      out_of_stock_count: body.out_of_stock_count,
      total_medicines: body.total_medicines,
    });
    const summary = await t.get<Json>(`/api/v1/dashboard/summary?branch_id=${branch}`, admin);
    const inventory = await t.get<Json>(`/api/v1/reports/inventory?branch_id=${branch}`, admin);
    // Every other active medicine has no stock in this branch: low and out, like `expired` and `held`.
    const others = inventory.body.total_medicines - 4;
    expect(counts(summary.body)).toEqual({
      low_stock_count: others + 3,
      out_of_stock_count: others + 2,
      total_medicines: others + 4,
    });
    expect(counts(summary.body)).toEqual(counts(inventory.body));
    const org = await t.get<Json>('/api/v1/dashboard/summary', admin);
    expect(counts(org.body)).toEqual(counts((await t.get<Json>('/api/v1/reports/inventory', admin)).body));
  });
});
