import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addDays, localDate } from '@pharmacy/contracts/time';
import type { SyntheticLine } from './synthetic-sales';
import { testSaleWriter } from '../../testing/sale-writer';
import {
  inDays,
  makeCategory,
  makeMedicine,
  makeSupplier,
  openSessionFor,
  receive,
} from '../../testing/factory';

let t: TestServer;
let admin: string;
let main: string;
let east: string;
let empty: string;
let auditor: string;
let cashier: { id: string; token: string };
let pharmacist: { id: string; token: string };
let managerEast: { token: string };
let std: SyntheticLine;
let zero: SyntheticLine;
let exempt: SyntheticLine;
let freebie: SyntheticLine;
let icv = 0;
let write: ReturnType<typeof testSaleWriter>;

const today = () => localDate('UTC');
const at = (day: string, time = '10:00:00') => `${day}T${time}.000Z`;

function sell(
  branchId: string,
  userId: string,
  soldAt: string,
  lines: SyntheticLine[],
  payments?: Array<{ method: string; amount: number }>,
) {
  return write({
    branchId,
    userId,
    deviceId: 'device-reports-test',
    icv: ++icv,
    soldAt,
    currency: 'USD',
    lines,
    payments,
  });
}

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  main = await t.mainBranchId();
  east = (
    await t.post<{ id: string }>(
      '/api/v1/branches',
      { name: 'East', code: 'EST', timezone: 'Africa/Dar_es_Salaam' },
      admin,
    )
  ).body.id;
  empty = await t.createBranch('EMP');
  auditor = (await t.userWithRole('auditor')).token;
  cashier = await t.userWithRole('cashier');
  pharmacist = await t.userWithRole('pharmacist');
  managerEast = await t.userWithRole('branch_manager', east);
  const cat = await makeCategory(t, 'Analgesics');
  const a = await makeMedicine(t, {
    name: 'Paracetamol 500',
    selling_price: 1.18,
    category: cat.slug,
    low_stock_threshold: 5,
  });
  const z = await makeMedicine(t, {
    name: 'ORS sachet',
    selling_price: 0.5,
    vat_category: 'zero',
    low_stock_threshold: 50,
  });
  const e = await makeMedicine(t, {
    name: '=HYPERLINK("x")',
    selling_price: 2,
    vat_category: 'exempt',
    low_stock_threshold: 0,
  });
  std = {
    medicineId: a.id,
    name: a.name,
    quantity: 1,
    unitPrice: 118,
    vatRate: 18,
    vatCategory: 'standard',
    unitCost: 50,
  };
  zero = {
    medicineId: z.id,
    name: z.name,
    quantity: 1,
    unitPrice: 50,
    vatRate: 0,
    vatCategory: 'zero',
    unitCost: 20,
  };
  exempt = {
    medicineId: e.id,
    name: e.name,
    quantity: 1,
    unitPrice: 200,
    vatRate: 0,
    vatCategory: 'exempt',
    unitCost: 100,
  };
  freebie = { ...zero, unitPrice: 0, unitCost: 10 };
  write = testSaleWriter(t);
  const d = today();
  // main (UTC): two sales today, one yesterday, one 40 days ago (outside the default window)
  await sell(
    main,
    cashier.id,
    at(d, '00:00:01'),
    [
      { ...std, quantity: 10 },
      { ...zero, quantity: 2 },
    ],
    [{ method: 'cash', amount: 1500 }],
  );
  await sell(
    main,
    pharmacist.id,
    at(d),
    [exempt, freebie],
    [
      { method: 'card', amount: 100 },
      { method: 'cash', amount: 100 },
    ],
  );
  await sell(main, cashier.id, at(addDays(d, -1)), [{ ...std, quantity: 5 }]);
  await sell(main, cashier.id, at(addDays(d, -40)), [{ ...std, quantity: 100 }]);
  // east (UTC+3): 22:30 UTC yesterday is 01:30 local today
  await sell(east, cashier.id, at(addDays(d, -1), '22:30:00'), [{ ...std, quantity: 3 }]);
});
afterAll(() => t.close());

// biome-ignore lint/suspicious/noExplicitAny: report bodies are asserted field by field
type Json = Record<string, any>;

describe('GET /reports/sales', () => {
  it('totals, by day, by payment, top sellers with margins and recent sales over the default 30 days', async () => {
    const res = await t.get<Json>(`/api/v1/reports/sales?branch_id=${main}`, auditor);
    expect(res.status).toBe(200);
    const r = res.body;
    expect(r).toMatchObject({
      to_date: today(),
      from_date: addDays(today(), -29),
      timezone: 'UTC',
      branch_id: main,
    });
    // 1180 + 100 + 200 + 0 + 590
    expect(r.totals).toMatchObject({
      sales_count: 3,
      gross_revenue: '20.70',
      returns_count: 0,
      returns_total: '0.00',
      gross_vat: '2.70',
      returns_vat: '0.00',
    });
    expect(r.totals.vat).toBe('2.70'); // 180 + 90
    expect(r.totals.net_revenue).toBe('20.70'); // no returns: net of returns = gross
    expect(r.totals.average_sale).toBe('6.90');
    expect(r.by_day).toHaveLength(30);
    expect(r.by_day.at(-1)).toEqual({
      date: today(),
      sales_count: 2,
      gross_revenue: '14.80',
      returns: '0.00',
      net_revenue: '14.80',
      revenue: '14.80',
      vat: '1.80',
    });
    expect(r.by_day.at(-2)).toMatchObject({ sales_count: 1, net_revenue: '5.90' });
    // cash: 1500 tendered - 220 change + 100 + 590; card 100
    expect(r.by_payment).toEqual([
      { method: 'cash', sales_count: 3, refunds: '0.00', total: '19.70' },
      { method: 'card', sales_count: 1, refunds: '0.00', total: '1.00' },
    ]);
    const para = r.top_selling.find((x: Json) => x.medicine_id === std.medicineId);
    expect(para).toMatchObject({
      quantity: 15,
      revenue: '17.70',
      net_revenue: '15.00',
      cost: '7.50',
      gross_profit: '7.50',
      margin_pct: 50,
    });
    const ors = r.top_selling.find((x: Json) => x.medicine_id === zero.medicineId);
    expect(ors).toMatchObject({
      quantity: 3,
      revenue: '1.00',
      cost: '0.50',
      gross_profit: '0.50',
      margin_pct: 50,
    });
    expect(r.top_selling[0].medicine_id).toBe(std.medicineId);
    expect(r.recent).toHaveLength(3);
    expect(r.recent[0]).toMatchObject({
      pharmacist_name: 'Test pharmacist',
      total_amount: '2.00',
      branch_id: main,
    });
  });

  it('reports 0 margin for zero revenue and honours an explicit window', async () => {
    const d = today();
    const res = await t.get<Json>(
      `/api/v1/reports/sales?branch_id=${main}&from_date=${addDays(d, -45)}&to_date=${addDays(d, -35)}`,
      admin,
    );
    expect(res.body.totals).toMatchObject({ sales_count: 1, net_revenue: '118.00' });
    expect(res.body.by_day).toHaveLength(11);
    const free = await sell(main, cashier.id, at(addDays(d, -60)), [freebie]);
    expect(free).toBeTruthy();
    const z = await t.get<Json>(
      `/api/v1/reports/sales?branch_id=${main}&from_date=${addDays(d, -60)}&to_date=${addDays(d, -60)}`,
      admin,
    );
    expect(z.body.top_selling).toEqual([
      expect.objectContaining({
        medicine_id: freebie.medicineId,
        revenue: '0.00',
        gross_profit: '-0.10',
        margin_pct: 0,
      }),
    ]);
  });

  it("uses the branch's time zone for its days", async () => {
    const res = await t.get<Json>(
      `/api/v1/reports/sales?branch_id=${east}&from_date=${localDate('Africa/Dar_es_Salaam')}`,
      admin,
    );
    expect(res.body.timezone).toBe('Africa/Dar_es_Salaam');
    const late = new Date().getUTCHours() >= 21; // after 21:00 UTC it is already tomorrow in Dar es Salaam
    expect(res.body.totals.sales_count).toBe(late ? 0 : 1);
  });

  it('scopes a branch manager to their branch and refuses bad windows', async () => {
    const res = await t.get<Json>(`/api/v1/reports/sales?branch_id=${main}`, managerEast.token);
    expect(res.status).toBe(200);
    expect(res.body.branch_id).toBe(east);
    const all = await t.get<Json>('/api/v1/reports/sales', admin);
    expect(all.body.branch_id).toBeNull();
    expect(all.body.totals.sales_count).toBeGreaterThanOrEqual(3);
    for (const q of [
      'from_date=2026-13-01',
      'to_date=yesterday',
      'from_date=2026-02-30',
      `from_date=${today()}&to_date=${addDays(today(), -1)}`,
      'format=xml',
      'section=everything',
      "branch_id=' OR 1=1",
      'from_date=1900-01-01',
      'from_date=2999-12-01&to_date=9999-12-31',
      'to_date=1969-12-31',
    ]) {
      expect((await t.get(`/api/v1/reports/sales?${q}`, admin)).status, q).toBe(400);
    }
    expect((await t.get(`/api/v1/reports/sales?branch_id=${randomUUID()}`, admin)).status).toBe(404);
    expect((await t.get('/api/v1/reports/sales', cashier.token)).status).toBe(403);
  });

  it('exports every section as CSV with a header row and neutralised formulas', async () => {
    const byDay = await t.request('GET', `/api/v1/reports/sales?format=csv&branch_id=${main}`, {
      token: admin,
    });
    expect(byDay.status).toBe(200);
    expect(byDay.headers.get('content-type')).toMatch(/^text\/csv/);
    const rows = String(byDay.body).trim().split('\r\n');
    expect(rows[0]).toBe('date,sales_count,gross_revenue,returns,net_revenue,vat');
    expect(rows).toHaveLength(31);
    const top = await t.request(
      'GET',
      `/api/v1/reports/sales?format=csv&section=top_selling&branch_id=${main}`,
      { token: admin },
    );
    expect(String(top.body)).toContain(`"'=HYPERLINK(""x"")"`);
    const none = await t.request(
      'GET',
      `/api/v1/reports/sales?format=csv&section=recent&branch_id=${empty}`,
      { token: admin },
    );
    expect(String(none.body)).toBe(
      'id,invoice_number,branch_id,user_id,pharmacist_name,total_amount,payment_method,sold_at\r\n',
    );
    for (const path of [
      'sales/by-pharmacist',
      'inventory',
      'inventory?section=low_stock_list&',
      'purchases',
      'purchases?section=by_medicine&',
      'vat',
    ]) {
      const url = `/api/v1/reports/${path}${path.includes('?') ? '' : '?'}format=csv`;
      const res = await t.request('GET', url, { token: auditor });
      expect(res.status, url).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(String(res.body).split('\r\n')[0]!.split(',').length).toBeGreaterThan(2);
    }
  });
});

describe('GET /reports/sales/by-pharmacist and /reports/vat', () => {
  it('ranks sellers by revenue with average transaction value', async () => {
    const res = await t.get<Json>(`/api/v1/reports/sales/by-pharmacist?branch_id=${main}`, auditor);
    expect(res.body.items).toEqual([
      {
        user_id: cashier.id,
        pharmacist_name: 'Test cashier',
        branch_id: main,
        branch_name: 'Main Branch',
        sales_count: 2,
        revenue: '18.70',
        vat: '2.70',
        average_sale: '9.35',
      },
      expect.objectContaining({
        user_id: pharmacist.id,
        sales_count: 1,
        revenue: '2.00',
        average_sale: '2.00',
      }),
    ]);
  });

  it('splits VAT by month and rate, newest month first (every line here at 18 %; taxable_15 is its alias)', async () => {
    const d = today();
    const res = await t.get<Json>(
      `/api/v1/reports/vat?branch_id=${main}&from_date=${addDays(d, -45)}`,
      auditor,
    );
    expect(res.status).toBe(200);
    const months = res.body.items.map((m: Json) => m.month);
    expect(months).toEqual([...months].sort().reverse());
    expect(months[0]).toBe(d.slice(0, 7));
    const sum = (k: string) =>
      res.body.items.reduce((a: number, m: Json) => a + Math.round(Number(m[k]) * 100), 0);
    // 10 + 5 + 100 units of 1.18 (0.18 VAT each) = 135.70; zero 1.00; exempt 2.00
    expect(sum('taxable_18')).toBe(11_500);
    expect(sum('taxable_15')).toBe(11_500);
    expect(sum('taxable_0')).toBe(100);
    expect(sum('exempt')).toBe(200);
    expect(sum('vat_collected')).toBe(2_070);
    expect(sum('grand_total')).toBe(11_500 + 100 + 200 + 2_070);
    expect(res.body.items.reduce((a: number, m: Json) => a + m.sales_count, 0)).toBe(4);
    expect(res.body.items[0].by_rate.map((r: Json) => r.rate)).toEqual([18, 0]);
  });

  it('L8, 27.5: a line at another rate (5 %, 15 %) gets its own by_rate bucket only; taxable_15 is the alias of taxable_18; the CSV has no column twice', async () => {
    const branch = await t.createBranch('VAT5');
    const d = today();
    const reduced = { ...std, unitPrice: 105, vatRate: 5, vatCategory: 'reduced' };
    const fifteen = { ...std, unitPrice: 115, vatRate: 15, vatCategory: 'standard' };
    await sell(branch, cashier.id, at(d), [reduced, { ...std, quantity: 2 }, fifteen, zero, exempt]);
    const res = await t.get<Json>(`/api/v1/reports/vat?branch_id=${branch}&from_date=${d}`, auditor);
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      expect.objectContaining({
        month: d.slice(0, 7),
        taxable_18: '2.00',
        taxable_15: '2.00',
        taxable_0: '0.50',
        exempt: '2.00',
        by_rate: [
          { rate: 18, taxable: '2.00', vat: '0.36' },
          { rate: 15, taxable: '1.00', vat: '0.15' },
          { rate: 5, taxable: '1.00', vat: '0.05' },
          { rate: 0, taxable: '0.50', vat: '0.00' },
        ],
        vat_collected: '0.56',
      }),
    ]);
    const csv = await t.request('GET', `/api/v1/reports/vat?branch_id=${branch}&from_date=${d}&format=csv`, {
      token: auditor,
    });
    const [header, row] = String(csv.body).trim().split('\r\n');
    const names = header!.split(',');
    expect(new Set(names).size).toBe(names.length);
    expect(names).not.toContain('taxable_15');
    expect(header).toMatch(/,vat_18pct,taxable_15pct,vat_15pct,taxable_5pct,vat_5pct,vat_0pct$/);
    expect(row).toMatch(/,0\.36,1\.00,0\.15,1\.00,0\.05,0\.00$/);
  });
});

describe('GET /reports/inventory and /reports/purchases', () => {
  it('values sellable stock by category and lists the emptiest medicines first', async () => {
    const supplier = (await makeSupplier(t)).id;
    const para = std.medicineId;
    await receive(t, para, supplier, { qty_received: 4, unit_cost: 0.5 });
    await receive(t, zero.medicineId, supplier, { qty_received: 10, unit_cost: 0.2, branch_id: east });
    const res = await t.get<Json>(`/api/v1/reports/inventory?branch_id=${main}`, auditor);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      branch_id: main,
      total_units: 4,
      total_value: '4.72',
      total_cost_value: '2.00',
    });
    expect(res.body.by_category[0]).toMatchObject({ category: 'analgesics', units: 4, value: '4.72' });
    const list = res.body.low_stock_list as Json[];
    expect(list.length).toBeLessThanOrEqual(20);
    expect(list.map((m) => m.stock_quantity)).toEqual(
      [...list.map((m) => m.stock_quantity)].sort((a, b) => a - b),
    );
    expect(list.find((m) => m.medicine_id === para)).toMatchObject({
      stock_quantity: 4,
      low_stock_threshold: 5,
    });
    const org = await t.get<Json>('/api/v1/reports/inventory', auditor);
    expect(org.body.total_units).toBe(14);
    const scoped = await t.get<Json>(`/api/v1/reports/inventory?branch_id=${main}`, managerEast.token);
    expect(scoped.body).toMatchObject({ branch_id: east, total_units: 10 });
  });

  it('sums purchase receipts in the window by supplier and medicine', async () => {
    const s1 = await makeSupplier(t, { name: 'Big Pharma' });
    const s2 = await makeSupplier(t, { name: 'Small Pharma' });
    const branch = await t.createBranch('PUR');
    const med = await makeMedicine(t, { name: 'Ibuprofen 200' });
    await receive(t, med.id, s1.id, { branch_id: branch, qty_received: 100, unit_cost: 0.1 });
    await receive(t, med.id, s1.id, { branch_id: branch, qty_received: 50, unit_cost: 0.3 });
    await receive(t, std.medicineId, s2.id, { branch_id: branch, qty_received: 10, unit_cost: 0.5 });
    const res = await t.get<Json>(`/api/v1/reports/purchases?branch_id=${branch}`, auditor);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ total_spend: '30.00', batch_count: 3, units: 160 });
    expect(res.body.by_supplier).toEqual([
      { supplier_id: s1.id, supplier_name: 'Big Pharma', batch_count: 2, units: 150, spend: '25.00' },
      { supplier_id: s2.id, supplier_name: 'Small Pharma', batch_count: 1, units: 10, spend: '5.00' },
    ]);
    expect(res.body.by_medicine[0]).toMatchObject({
      medicine_id: med.id,
      units: 150,
      batch_count: 2,
      spend: '25.00',
    });
    const old = await t.get<Json>(
      `/api/v1/reports/purchases?branch_id=${branch}&to_date=${inDays(-1)}`,
      auditor,
    );
    expect(old.body.total_spend).toBe('0.00');
  });
});

describe('dashboard', () => {
  it('summarises today against yesterday with a sparkline and stock counts, branch-bound roles on their branch', async () => {
    const res = await t.get<Json>(`/api/v1/dashboard/summary?branch_id=${main}`, admin);
    expect(res.status).toBe(200);
    const s = res.body;
    expect(s).toMatchObject({
      branch_id: main,
      date: today(),
      today_sales_count: 2,
      today_revenue: '14.80',
      today_vat: '1.80',
      yesterday_revenue: '5.90',
      revenue_trend: 150.8,
    });
    expect(s.sparkline_30d).toHaveLength(30);
    expect(s.sparkline_30d.at(-1)).toEqual({ date: today(), revenue: '14.80', sales_count: 2 });
    expect(s.total_medicines).toBeGreaterThanOrEqual(3);
    const mine = await t.get<Json>(`/api/v1/dashboard/summary?branch_id=${east}`, cashier.token);
    expect(mine.body.branch_id).toBe(main);
    const none = await t.get<Json>(`/api/v1/dashboard/summary?branch_id=${empty}`, admin);
    expect(none.body).toMatchObject({
      today_revenue: '0.00',
      revenue_trend: 0,
      low_stock_count: none.body.total_medicines,
    });
    expect((await t.get(`/api/v1/dashboard/summary?branch_id=${randomUUID()}`, admin)).status).toBe(404);
  });

  it('ranks every active branch by revenue with its share, zero-revenue branches included', async () => {
    const res = await t.get<Json>('/api/v1/dashboard/branch-comparison', cashier.token);
    expect(res.status).toBe(200);
    const items = res.body.items as Json[];
    const [active] = await t.query<{ n: number }>('SELECT count(*) AS n FROM branches WHERE is_active = 1');
    expect(items).toHaveLength(active!.n);
    expect(items[0]).toMatchObject({ rank: 1, branch_id: main, revenue: '20.70', sales_count: 3 });
    expect(items.find((b) => b.branch_id === empty)).toMatchObject({
      revenue: '0.00',
      sales_count: 0,
      share_pct: 0,
    });
    const total = Number(res.body.total_revenue);
    expect(items[0]!.share_pct).toBe(Math.round((20.7 / total) * 1000) / 10);
    expect(
      (await t.get('/api/v1/dashboard/branch-comparison?from_date=2026-01-10&to_date=2026-01-01', admin))
        .status,
    ).toBe(400);
  });
});

describe('a sale made at the till', () => {
  it('shows in the sales, VAT and pharmacist reports and the dashboard', async () => {
    const branch = await t.createBranch('TIL');
    const supplier = (await makeSupplier(t)).id;
    await receive(t, std.medicineId, supplier, { branch_id: branch, qty_received: 20, unit_cost: 0.4 });
    const manager = await t.userWithRole('branch_manager', branch);
    await openSessionFor(t, manager.token);
    const sale = await t.post<Json>(
      '/api/v1/sales',
      { items: [{ medicine_id: std.medicineId, quantity: 3 }], payment_method: 'cash' },
      manager.token,
    );
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    const report = await t.get<Json>('/api/v1/reports/sales', manager.token);
    expect(report.body).toMatchObject({
      branch_id: branch,
      totals: { sales_count: 1, net_revenue: '3.54', vat: '0.54' },
    });
    expect(report.body.top_selling[0]).toMatchObject({
      quantity: 3,
      cost: '1.20',
      gross_profit: '1.80',
      margin_pct: 60,
    });
    const vat = await t.get<Json>(`/api/v1/reports/vat?branch_id=${branch}`, admin);
    expect(vat.body.items[0]).toMatchObject({
      taxable_18: '3.00',
      vat_collected: '0.54',
      grand_total: '3.54',
    });
    const dash = await t.get<Json>('/api/v1/dashboard/summary', manager.token);
    expect(dash.body).toMatchObject({ branch_id: branch, today_sales_count: 1, today_revenue: '3.54' });
  });
});
