import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { makeMedicine, makeSupplier, receive } from '../../testing/factory';

let t: TestServer;
let admin: string;
let main: string;
let other: string;
let supplierId: string;
let managerOther: { token: string };

type Invoice = {
  id: string;
  status: string;
  paid_amount: string;
  total_amount: string;
  balance: string;
  branch_id: string;
};

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  main = await t.mainBranchId();
  other = await t.createBranch('SFB');
  supplierId = (await makeSupplier(t, { lead_time_days: 4 })).id;
  managerOther = await t.userWithRole('branch_manager', other);
});
afterAll(() => t.close());

async function invoice(fields: Record<string, unknown> = {}, token = admin) {
  const res = await t.post<Invoice>(
    '/api/v1/supplier-finance/invoices',
    { supplier_id: supplierId, total_amount: 100, ...fields },
    token,
  );
  expect(res.status).toBe(201);
  return res.body;
}

describe('supplier invoices', () => {
  it('creates an unpaid invoice with paid_amount 0 in the caller branch, audited and replicated', async () => {
    const changes = await t.count('change_log');
    const inv = await invoice({ invoice_no: 'INV-1', due_date: '2030-01-31', notes: 'March delivery' });
    expect(inv).toMatchObject({
      status: 'unpaid',
      paid_amount: '0.00',
      total_amount: '100.00',
      balance: '100.00',
      branch_id: main,
    });
    expect(await t.count('change_log')).toBe(changes + 1);
    const audit = await t.query('SELECT action FROM audit_log WHERE entity_id = ?', inv.id);
    expect(audit).toEqual([{ action: 'supplier_invoice.create' }]);
    const dup = await t.post<{ code: string }>(
      '/api/v1/supplier-finance/invoices',
      { supplier_id: supplierId, total_amount: 5, invoice_no: 'INV-1' },
      admin,
    );
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe('DUPLICATE_INVOICE');
  });

  it('refuses bad input (400), unknown supplier or branch (404) and another branch (403), writing nothing', async () => {
    const before = await t.count('supplier_invoices');
    for (const body of [
      {},
      { supplier_id: supplierId },
      { supplier_id: supplierId, total_amount: 0 },
      { supplier_id: supplierId, total_amount: -5 },
      { supplier_id: supplierId, total_amount: 1.234 },
      { supplier_id: supplierId, total_amount: '10' },
      { supplier_id: supplierId, total_amount: 10, due_date: 'tomorrow' },
      { supplier_id: "' OR 1=1 --", total_amount: 10 },
      { supplier_id: supplierId, total_amount: 10, invoice_no: 'x'.repeat(100) },
    ]) {
      expect(
        (await t.post('/api/v1/supplier-finance/invoices', body, admin)).status,
        JSON.stringify(body),
      ).toBe(400);
    }
    expect(
      (
        await t.post(
          '/api/v1/supplier-finance/invoices',
          { supplier_id: randomUUID(), total_amount: 1 },
          admin,
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await t.post(
          '/api/v1/supplier-finance/invoices',
          { supplier_id: supplierId, total_amount: 1, branch_id: randomUUID() },
          admin,
        )
      ).status,
    ).toBe(404);
    expect(
      (
        await t.post(
          '/api/v1/supplier-finance/invoices',
          { supplier_id: supplierId, total_amount: 1, branch_id: main },
          managerOther.token,
        )
      ).status,
    ).toBe(403);
    const cashier = await t.userWithRole('cashier');
    expect(
      (
        await t.post(
          '/api/v1/supplier-finance/invoices',
          { supplier_id: supplierId, total_amount: 1 },
          cashier.token,
        )
      ).status,
    ).toBe(403);
    expect(await t.count('supplier_invoices')).toBe(before);
  });

  it('lists newest first, at most 50, filtered by supplier and scoped to the branch', async () => {
    const s2 = (await makeSupplier(t)).id;
    const mine = await invoice({ supplier_id: s2 }, managerOther.token);
    expect(mine.branch_id).toBe(other);
    const later = await invoice({ supplier_id: s2 });
    const list = await t.get<{ items: Invoice[] }>(
      `/api/v1/supplier-finance/invoices?supplier_id=${s2}`,
      admin,
    );
    expect(list.body.items.map((i) => i.id)).toEqual([later.id, mine.id]);
    const scoped = await t.get<{ items: Invoice[] }>('/api/v1/supplier-finance/invoices', managerOther.token);
    expect(scoped.body.items.map((i) => i.id)).toEqual([mine.id]);
    for (let i = 0; i < 52; i++) await invoice({ total_amount: 1 });
    const capped = await t.get<{ items: Invoice[] }>('/api/v1/supplier-finance/invoices', admin);
    expect(capped.body.items).toHaveLength(50);
  });

  it('takes payments unpaid -> partial -> paid and refuses an overpayment naming both figures', async () => {
    const inv = await invoice({ total_amount: 250.5 });
    const url = `/api/v1/supplier-finance/invoices/${inv.id}/payments`;
    const first = await t.post<{ payment: Record<string, unknown>; invoice: Invoice }>(
      url,
      { amount: 100 },
      admin,
    );
    expect(first.status).toBe(201);
    expect(first.body.payment).toMatchObject({
      amount: '100.00',
      method: 'cash',
      reference: '',
      invoice_id: inv.id,
    });
    expect(first.body.invoice).toMatchObject({ status: 'partial', paid_amount: '100.00', balance: '150.50' });
    const over = await t.post<{ detail: string; code: string }>(url, { amount: 150.51 }, admin);
    expect(over.status).toBe(400);
    expect(over.body.detail).toContain('150.51');
    expect(over.body.detail).toContain('150.50');
    const rest = await t.post<{ payment: Record<string, unknown>; invoice: Invoice }>(
      url,
      { amount: 150.5, method: 'bank_transfer', reference: 'TRX-77' },
      admin,
    );
    expect(rest.body.invoice).toMatchObject({ status: 'paid', paid_amount: '250.50', balance: '0.00' });
    expect(rest.body.payment).toMatchObject({ method: 'bank_transfer', reference: 'TRX-77' });
    const paidAgain = await t.post<{ detail: string }>(url, { amount: 0.01 }, admin);
    expect(paidAgain.status).toBe(400);
    for (const body of [
      { amount: 0 },
      { amount: -1 },
      { amount: 1.001 },
      {},
      { amount: 1, method: 'Cash Money!' },
    ]) {
      expect((await t.post(url, body, admin)).status, JSON.stringify(body)).toBe(400);
    }
    expect(await t.count('supplier_payments')).toBe(2);
    expect(
      (await t.post(`/api/v1/supplier-finance/invoices/${randomUUID()}/payments`, { amount: 1 }, admin))
        .status,
    ).toBe(404);
    expect((await t.post(url, { amount: 1 }, managerOther.token)).status).toBe(403);
    const inventory = await t.userWithRole('inventory_manager');
    expect((await t.post(url, { amount: 1 }, inventory.token)).status).toBe(403);
  });
});

type JsonSchema = {
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: unknown;
};

/** The 201 answer schema of POST /supplier-finance/invoices/{invoiceId}/payments, from the OpenAPI document. */
async function paymentAnswerSchema(): Promise<JsonSchema> {
  const doc = await t.get<{ paths: Record<string, Record<string, unknown>> }>('/api/v1/openapi.json');
  const op = doc.body.paths['/api/v1/supplier-finance/invoices/{invoiceId}/payments']?.post as {
    responses: Record<string, { content: Record<string, { schema: JsonSchema }> }>;
  };
  return op.responses['201']!.content['application/json']!.schema;
}

describe('supplier payments as the schema says', () => {
  it('answers a payment with exactly the fields its response schema allows (branch_id included)', async () => {
    const inv = await invoice({ total_amount: 40 });
    const paid = await t.post<{ payment: Record<string, unknown>; invoice: Record<string, unknown> }>(
      `/api/v1/supplier-finance/invoices/${inv.id}/payments`,
      { amount: 15, reference: 'CHQ-1' },
      admin,
    );
    expect(paid.status).toBe(201);
    expect(paid.body.payment.branch_id).toBe(main);
    const schema = await paymentAnswerSchema();
    for (const part of ['payment', 'invoice'] as const) {
      const declared = schema.properties![part]!;
      expect(declared.additionalProperties, part).toBe(false);
      expect(Object.keys(paid.body[part]).sort(), part).toEqual(Object.keys(declared.properties!).sort());
      expect(declared.required!.sort(), part).toEqual(Object.keys(declared.properties!).sort());
    }
  });

  it('lists an invoice with its payments oldest first; another branch 403, unknown 404', async () => {
    const inv = await invoice({ total_amount: 90, due_date: '2031-05-01' });
    const url = `/api/v1/supplier-finance/invoices/${inv.id}`;
    const none = await t.get<{ items: unknown[]; invoice: Invoice }>(`${url}/payments`, admin);
    expect(none.status).toBe(200);
    expect(none.body).toMatchObject({
      items: [],
      invoice: { id: inv.id, status: 'unpaid', balance: '90.00' },
    });
    const first = await t.post<{ payment: Record<string, unknown> }>(
      `${url}/payments`,
      { amount: 30 },
      admin,
    );
    const second = await t.post<{ payment: Record<string, unknown> }>(
      `${url}/payments`,
      { amount: 20.25, method: 'bank_transfer' },
      admin,
    );
    const listed = await t.get<{ items: Array<Record<string, unknown>>; invoice: Invoice }>(
      `${url}/payments`,
      admin,
    );
    expect(listed.body.items).toEqual([first.body.payment, second.body.payment]);
    expect(listed.body.invoice).toMatchObject({ status: 'partial', paid_amount: '50.25', balance: '39.75' });
    const auditor = await t.userWithRole('auditor');
    expect((await t.get(`${url}/payments`, auditor.token)).status).toBe(200);
    expect((await t.get(`${url}/payments`, managerOther.token)).status).toBe(403);
    const cashier = await t.userWithRole('cashier');
    expect((await t.get(`${url}/payments`, cashier.token)).status).toBe(403);
    const unknown = `/api/v1/supplier-finance/invoices/${randomUUID()}/payments`;
    expect((await t.get(unknown, admin)).status).toBe(404);
    expect((await t.get('/api/v1/supplier-finance/invoices/not-an-id/payments', admin)).status).toBe(400);
  });
});

describe('reorder suggestions and quarantine', () => {
  it('lists medicines at or below threshold with 2 x threshold - stock, lowest first, with lead time', async () => {
    const branch = await t.createBranch('RSB');
    const low = (await makeMedicine(t, { name: 'Low One', low_stock_threshold: 10 })).id;
    const empty = (await makeMedicine(t, { name: 'Empty One', low_stock_threshold: 6 })).id;
    const plenty = (await makeMedicine(t, { name: 'Plenty', low_stock_threshold: 5 })).id;
    await receive(t, low, supplierId, { branch_id: branch, qty_received: 4 });
    await receive(t, plenty, supplierId, { branch_id: branch, qty_received: 50 });
    const res = await t.get<{ items: Array<Record<string, unknown>> }>(
      `/api/v1/supplier-finance/reorder-suggestions?branch_id=${branch}`,
      admin,
    );
    expect(res.status).toBe(200);
    const ids = res.body.items.map((i) => i.medicine_id);
    expect(ids).not.toContain(plenty);
    expect(ids.indexOf(empty)).toBeLessThan(ids.indexOf(low));
    expect(res.body.items.find((i) => i.medicine_id === low)).toMatchObject({
      stock_quantity: 4,
      suggested_qty: 16,
      supplier_id: supplierId,
      lead_time_days: 4,
    });
    expect(res.body.items.find((i) => i.medicine_id === empty)).toMatchObject({
      stock_quantity: 0,
      suggested_qty: 12,
      lead_time_days: null,
    });
    expect(res.body.items.length).toBeLessThanOrEqual(100);
  });

  it('quarantines, recalls and releases a batch, audited; other values 400; another branch 403', async () => {
    const med = (await makeMedicine(t, { low_stock_threshold: 1 })).id;
    const batch = await receive(t, med, supplierId, { qty_received: 5 });
    const url = `/api/v1/supplier-finance/batches/${batch.id}/quarantine`;
    const changes = await t.count('change_log');
    const q = await t.post<{ regulator_status: string; qty_on_hand: number }>(
      url,
      { status: 'quarantined', reason: 'regulator notice 12' },
      admin,
    );
    expect(q.status).toBe(200);
    expect(q.body).toMatchObject({ regulator_status: 'quarantined', qty_on_hand: 5 });
    expect(await t.count('change_log')).toBe(changes + 1);
    const stock = await t.get<{ stock_quantity: number }>(`/api/v1/medicines/${med}`, admin);
    expect(stock.body.stock_quantity).toBe(0);
    expect(
      (await t.post<{ regulator_status: string }>(url, { status: 'recalled' }, admin)).body.regulator_status,
    ).toBe('recalled');
    expect(
      (await t.post<{ regulator_status: string }>(url, { status: 'active' }, admin)).body.regulator_status,
    ).toBe('active');
    for (const status of ['expired', 'ACTIVE', '', 1, null]) {
      expect((await t.post(url, { status }, admin)).status).toBe(400);
    }
    expect((await t.post(url, { status: 'quarantined' }, managerOther.token)).status).toBe(403);
    expect(
      (
        await t.post(
          `/api/v1/supplier-finance/batches/${randomUUID()}/quarantine`,
          { status: 'active' },
          admin,
        )
      ).status,
    ).toBe(404);
    const audit = (
      await t.query<{ after_json: string }>(
        "SELECT after_json FROM audit_log WHERE action = 'batch.regulator_status' AND entity_id = ? ORDER BY created_at, id",
        batch.id,
      )
    ).map((r) => JSON.parse(r.after_json).regulator_status);
    expect(audit).toEqual(['quarantined', 'recalled', 'active']);
  });
});
