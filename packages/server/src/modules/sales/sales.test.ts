import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { getLocalDeviceId } from '../fiscal/device';
import { verifyFiscalChain } from '../fiscal/chain';
import { addStock, batchOnHand, makeMedicineId, openSessionFor } from '../../testing/factory';

let t: TestServer;
let cashier: { id: string; token: string };
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  cashier = await t.userWithRole('cashier');
  await openSessionFor(t, cashier.token, 50);
});
afterAll(() => t.close());

type Body = Record<string, unknown>;
const sell = (body: Body, token = cashier.token) => t.post<Body>('/api/v1/sales', body, token);

/** An approval the cashier asked for and a branch manager granted: its id. */
async function approved(request: { kind: string; payload: Body }): Promise<string> {
  const manager = await t.userWithRole('branch_manager');
  const asked = await t.post<{ id: string }>('/api/v1/approvals', { ...request, reason: 'x' }, cashier.token);
  expect(asked.status, JSON.stringify(asked.body)).toBe(201);
  const decided = await t.put(
    `/api/v1/approvals/${asked.body.id}`,
    { status: 'approved', reason: 'ok' },
    manager.token,
  );
  expect(decided.status).toBe(200);
  return asked.body.id;
}

describe('POST /sales', () => {
  it('sells with VAT per line, FEFO batches, fiscal identity and every receipt field', async () => {
    const med = await makeMedicineId(t, { price: 11.8, name: 'Paracetamol 500' });
    const late = await addStock(t, med, 10, { expiry: '2099-01-01' });
    const early = await addStock(t, med, 3, { expiry: '2098-01-01' });
    const clientMutationId = randomUUID();
    const res = await sell({
      items: [{ medicine_id: med, quantity: 4 }],
      payment_lines: [{ method: 'cash', amount: 50 }],
      client_mutation_id: clientMutationId,
    });
    expect(res.status).toBe(201);
    const s = res.body;
    expect(s.total_amount).toBe('47.20');
    expect(s.vat_amount).toBe('7.20');
    expect(s.subtotal_amount).toBe('40.00');
    expect(s.change_amount).toBe('2.80');
    expect(s.vat_breakdown).toEqual([{ rate: 18, taxable_amount: 40, vat_amount: 7.2 }]);
    expect(s.payment_lines).toEqual([{ method: 'cash', amount: 50 }]);
    expect(s.payment_method).toBe('cash');
    expect(s.invoice_number).toMatch(/^MAIN-[0-9A-F]{4}-000001$/);
    expect(s.icv).toBe(1);
    expect(s.fiscal_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(s.fiscal_status).toBe('pending');
    expect(s.sync_status).toBe('pending');
    expect(String(s.fiscal_xml)).toContain('<cbc:ID>MAIN-');
    expect(s.pharmacist_name).toBe('Test cashier');
    expect(s.customer_display_name).toBe('Walk-in customer');
    expect(s.is_deleted).toBe(0);
    expect(s.has_return).toBe(false);
    expect(s.device_id).toBe(await getLocalDeviceId(t.context.db));
    for (const k of [
      'branch_name',
      'organization_name',
      'receipt_footer',
      'return_policy',
      'payload_hash',
      'uuid',
    ])
      expect(typeof s[k]).toBe('string');
    const items = s.items as Array<Body>;
    expect(items[0]).toMatchObject({ quantity: 4, unit_price: '11.80', line_total: '47.20', vat_rate: 18 });
    expect((items[0]!.batches as Body[]).map((b) => [b.batch_id, b.quantity])).toEqual([
      [early, 3],
      [late, 1],
    ]);
    expect(await batchOnHand(t, early)).toBe(0);
    expect(await batchOnHand(t, late)).toBe(9);

    // replay: same body, same id -> the first sale, 200
    const again = await sell({
      items: [{ medicine_id: med, quantity: 4 }],
      payment_lines: [{ method: 'cash', amount: 50 }],
      client_mutation_id: clientMutationId,
    });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(s);
    expect(await batchOnHand(t, late)).toBe(9);
    const reused = await sell({
      items: [{ medicine_id: med, quantity: 1 }],
      client_mutation_id: clientMutationId,
    });
    expect(reused.status).toBe(409);
    expect(reused.body.code).toBe('MUTATION_ID_REUSED');

    const one = await t.get<Body>(`/api/v1/sales/${s.id}`, cashier.token);
    expect(one.body).toEqual(s);
    const inv = await t.get<Body>(`/api/v1/sales/${s.id}/invoice`, cashier.token);
    expect(inv.body).toMatchObject({ invoice_number: s.invoice_number, icv: 1, fiscal_hash: s.fiscal_hash });
    const tlv = Buffer.from(String(inv.body.qr_payload), 'base64');
    expect(tlv[0]).toBe(1);
  });

  it('refuses short payments, naming both figures, and writes nothing', async () => {
    const med = await makeMedicineId(t, { price: 10 });
    await addStock(t, med, 5);
    const before = [
      await t.count('sales'),
      await t.count('stock_movements'),
      await t.count('change_log'),
      await t.count('audit_log'),
    ];
    const res = await sell({
      items: [{ medicine_id: med, quantity: 2 }],
      payment_lines: [{ method: 'cash', amount: 15 }],
    });
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('PAYMENT_SHORT');
    expect(res.body.detail).toContain('15.00');
    expect(res.body.detail).toContain('20.00');
    expect([
      await t.count('sales'),
      await t.count('stock_movements'),
      await t.count('change_log'),
      await t.count('audit_log'),
    ]).toEqual(before);
  });

  it('rolls back everything when a later step fails (credit over the limit after stock was taken)', async () => {
    const med = await makeMedicineId(t, { price: 10 });
    const batch = await addStock(t, med, 5);
    const cust = await t.post<Body>(
      '/api/v1/customers',
      { name: 'Limited', credit_limit: 5, is_credit_allowed: true },
      admin,
    );
    expect(cust.status).toBe(201);
    const counts = () =>
      t.counts([
        'sales',
        'sale_lines',
        'stock_movements',
        'customer_ledger',
        'change_log',
        'fiscal_chain',
        'audit_log',
      ]);
    const before = await counts();
    const res = await sell({
      items: [{ medicine_id: med, quantity: 1 }],
      customer_id: cust.body.id,
      payment_lines: [{ method: 'credit', amount: 10 }],
    });
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CREDIT_LIMIT_EXCEEDED');
    expect(await counts()).toEqual(before);
    expect(await batchOnHand(t, batch)).toBe(5);
    // the next sale takes the next ICV: no gap
    const ok = await sell({ items: [{ medicine_id: med, quantity: 1 }] });
    expect(ok.status).toBe(201);
    const [last] = await t.query<{ m: number; n: number }>(
      'SELECT max(icv) AS m, count(*) AS n FROM fiscal_chain',
    );
    expect(last!.m).toBe(last!.n);
  });

  it('needs an open session for cashiers, and refuses sales during a break', async () => {
    const other = await t.userWithRole('pharmacist');
    const med = await makeMedicineId(t, { price: 1 });
    await addStock(t, med, 5);
    const none = await sell({ items: [{ medicine_id: med, quantity: 1 }] }, other.token);
    expect(none.status).toBe(409);
    expect(none.body.code).toBe('NO_OPEN_SESSION');
    await openSessionFor(t, other.token);
    expect((await t.post('/api/v1/sessions/break/start', undefined, other.token)).status).toBe(200);
    const onBreak = await sell({ items: [{ medicine_id: med, quantity: 1 }] }, other.token);
    expect(onBreak.body.code).toBe('SESSION_ON_BREAK');
    expect((await t.post('/api/v1/sessions/break/end', undefined, other.token)).status).toBe(200);
    expect((await sell({ items: [{ medicine_id: med, quantity: 1 }] }, other.token)).status).toBe(201);
  });

  it('applies approvals, price ceilings and prescription rules', async () => {
    const med = await makeMedicineId(t, { price: 10, max_public_price: 12 });
    await addStock(t, med, 20);
    const below = await sell({ items: [{ medicine_id: med, quantity: 1, unit_price: 9 }] });
    expect(below.body.code).toBe('APPROVAL_REQUIRED');
    const forged = await sell({
      items: [{ medicine_id: med, quantity: 1, unit_price: 9 }],
      approval_id: randomUUID(),
    });
    expect(forged.status).toBe(403);
    expect(forged.body.code).toBe('APPROVAL_REQUIRED');
    // the real flow: the cashier asks, a manager of the branch approves, the sale consumes it once
    const manager = await t.userWithRole('branch_manager');
    const asked = await t.post<{ id: string }>(
      '/api/v1/approvals',
      {
        kind: 'price_override',
        reason: 'damaged box, 10% off',
        payload: { medicine_id: med, quantity: 1, unit_price: 9 },
      },
      cashier.token,
    );
    expect(asked.status).toBe(201);
    const wrongKind = await t.post<{ id: string }>(
      '/api/v1/approvals',
      { kind: 'discount', reason: 'x', payload: { max_discount: 1 } },
      cashier.token,
    );
    for (const id of [asked.body.id, wrongKind.body.id]) {
      expect(
        (await t.put(`/api/v1/approvals/${id}`, { status: 'approved', reason: 'ok' }, manager.token)).status,
      ).toBe(200);
    }
    const mismatched = await sell({
      items: [{ medicine_id: med, quantity: 1, unit_price: 9 }],
      approval_id: wrongKind.body.id,
    });
    expect(mismatched.body.code).toBe('APPROVAL_REQUIRED');
    const approved = await sell({
      items: [{ medicine_id: med, quantity: 1, unit_price: 9 }],
      approval_id: asked.body.id,
    });
    expect(approved.status).toBe(201);
    const reused = await sell({
      items: [{ medicine_id: med, quantity: 1, unit_price: 9 }],
      approval_id: asked.body.id,
    });
    expect(reused.status).toBe(403);
    expect(reused.body.code).toBe('APPROVAL_REQUIRED');
    const above = await sell({ items: [{ medicine_id: med, quantity: 1, unit_price: 13 }] });
    expect(above.body.code).toBe('PRICE_ABOVE_MAXIMUM');
    const bigDiscount = await sell({ items: [{ medicine_id: med, quantity: 1, discount: 2 }] });
    expect(bigDiscount.body.code).toBe('APPROVAL_REQUIRED');
    expect((await sell({ items: [{ medicine_id: med, quantity: 1, discount: 1 }] })).status).toBe(201);
    const rx = await makeMedicineId(t, { price: 5, requires_prescription: true, name: 'Amoxicillin' });
    await addStock(t, rx, 5);
    const refused = await sell({ items: [{ medicine_id: rx, quantity: 1 }] });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('PRESCRIPTION_REQUIRED');
    expect(refused.body.detail).toContain('Amoxicillin');
    const ctrl = await makeMedicineId(t, { price: 5, is_controlled: true, requires_prescription: true });
    await addStock(t, ctrl, 5);
    expect((await sell({ items: [{ medicine_id: ctrl, quantity: 1 }] })).body.code).toBe(
      'CONTROLLED_NEEDS_PHARMACIST',
    );
  });

  it('M2: a price_override approval covers its medicine, its units and its price, nothing more', async () => {
    const a = await makeMedicineId(t, { price: 10, name: 'Approved A' });
    const b = await makeMedicineId(t, { price: 10, name: 'Other B' });
    await addStock(t, a, 20);
    await addStock(t, b, 20);
    const approval = await approved({
      kind: 'price_override',
      payload: { medicine_id: a, quantity: 2, unit_price: 8 },
    });
    const tables = ['sales', 'sale_lines', 'stock_movements', 'fiscal_chain', 'change_log'];
    const before = await t.counts(tables);
    const refused: Array<[Body[], string]> = [
      [[{ medicine_id: a, quantity: 3, unit_price: 8 }], 'it allows 2 units, the sale has 3'],
      [
        [
          { medicine_id: a, quantity: 1, unit_price: 8 },
          { medicine_id: a, quantity: 2, unit_price: 9 },
        ],
        'the sale has 3',
      ],
      [[{ medicine_id: a, quantity: 2, unit_price: 7.99 }], 'it allows Approved A at 8.00, not 7.99'],
      [[{ medicine_id: b, quantity: 1, unit_price: 8 }], 'it is not for Other B'],
      [[{ medicine_id: a, quantity: 1, unit_price: 8, discount: 4 }], 'also has a discount'],
    ];
    for (const [items, why] of refused) {
      const res = await sell({ items, approval_id: approval });
      expect(res.status, why).toBe(403);
      expect(res.body.code).toBe('APPROVAL_MISMATCH');
      expect(res.body.detail).toContain(why);
    }
    expect(await t.counts(tables)).toEqual(before);
    const ok = await sell({
      items: [
        { medicine_id: a, quantity: 2, unit_price: 8.5 },
        { medicine_id: b, quantity: 1 },
      ],
      approval_id: approval,
    });
    expect(ok.status).toBe(201);
    expect(ok.body.approval_id).toBe(approval);
  });

  it('M2: a discount approval without a medicine covers the global discount up to its maximum only', async () => {
    const med = await makeMedicineId(t, { price: 10 });
    await addStock(t, med, 20);
    const approval = await approved({ kind: 'discount', payload: { max_discount: 5 } });
    const over = await sell({
      items: [{ medicine_id: med, quantity: 2 }],
      global_discount: 6,
      approval_id: approval,
    });
    expect(over.body.code).toBe('APPROVAL_MISMATCH');
    expect(over.body.detail).toContain('global discount of at most 5.00, not 6.00');
    const line = await sell({
      items: [{ medicine_id: med, quantity: 2, discount: 5 }],
      approval_id: approval,
    });
    expect(line.body.code).toBe('APPROVAL_MISMATCH');
    const euros = await approved({ kind: 'discount', payload: { max_discount: 5, currency_code: 'EUR' } });
    const currency = await sell({
      items: [{ medicine_id: med, quantity: 2 }],
      global_discount: 5,
      approval_id: euros,
    });
    expect(currency.body.detail).toContain('its amounts are in EUR, the sale is in USD');
    const ok = await sell({
      items: [{ medicine_id: med, quantity: 2 }],
      global_discount: 5,
      approval_id: approval,
    });
    expect(ok.status).toBe(201);
    expect(ok.body.total_amount).toBe('15.00');
  });

  it('sells in a foreign currency at the rate in force, with base amounts, and reads back the same', async () => {
    const rate = await t.post(
      '/api/v1/currency/rates',
      { from_code: 'EUR', rate: '1.25', effective_at: '2026-01-01T00:00:00Z' },
      admin,
    );
    expect(rate.status).toBe(201);
    const med = await makeMedicineId(t, { price: 10 });
    await addStock(t, med, 5);
    const sale = await sell({
      items: [{ medicine_id: med, quantity: 2 }],
      currency_code: 'EUR',
      payment_lines: [{ method: 'cash', amount: 20 }],
    });
    expect(sale.status).toBe(201);
    expect(sale.body).toMatchObject({
      currency_code: 'EUR',
      base_currency_code: 'USD',
      total_amount: '16.00',
      base_total_amount: '20.00',
      change_amount: '4.00',
      payment_lines: [{ method: 'cash', amount: 20 }],
    });
    expect(Number(sale.body.fx_rate_to_base)).toBe(1.25);
    expect((await t.get<Body>(`/api/v1/sales/${sale.body.id}`, admin)).body).toEqual(sale.body);
  });

  it('splits tender, gives change from cash only, and refuses non-cash over the total', async () => {
    const med = await makeMedicineId(t, { price: 10 });
    await addStock(t, med, 10);
    const split = await sell({
      items: [{ medicine_id: med, quantity: 3 }],
      payment_lines: [
        { method: 'card', amount: 20 },
        { method: 'cash', amount: 20 },
      ],
    });
    expect(split.status).toBe(201);
    expect(split.body).toMatchObject({ payment_method: 'split', change_amount: '10.00' });
    expect((await t.get<Body>(`/api/v1/sales/${split.body.id}`, admin)).body).toEqual(split.body);
    const over = await sell({
      items: [{ medicine_id: med, quantity: 1 }],
      payment_lines: [{ method: 'card', amount: 20 }],
    });
    expect(over.body.code).toBe('OVERPAYMENT');
  });

  it('never oversells: 20 parallel sales of 10 units give exactly 10 sales', async () => {
    const med = await makeMedicineId(t, { price: 2 });
    const batch = await addStock(t, med, 10);
    const results = await Promise.all(
      Array.from({ length: 20 }, () =>
        sell({ items: [{ medicine_id: med, quantity: 1 }], client_mutation_id: randomUUID() }),
      ),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409).every((r) => r.body.code === 'INSUFFICIENT_STOCK')).toBe(
      true,
    );
    expect(await batchOnHand(t, batch)).toBe(0);
  });

  it('detects tampering by re-walking the fiscal chain', async () => {
    const device = await getLocalDeviceId(t.context.db);
    const ok = await verifyFiscalChain(t.context.db, device);
    expect(ok.ok).toBe(true);
    expect(ok.checked).toBeGreaterThan(5);
    const [victim] = await t.query<{ id: string; icv: number }>(
      'SELECT id, icv FROM sales ORDER BY icv LIMIT 1 OFFSET 2',
    );
    if (!victim) throw new Error('no third sale to tamper with');
    await t.exec('UPDATE sales SET total_amount = total_amount - 1 WHERE id = ?', victim.id);
    const bad = await verifyFiscalChain(t.context.db, device);
    expect(bad.ok).toBe(false);
    expect(bad.first_broken).toMatchObject({ icv: victim.icv, doc_id: victim.id });
    await t.exec('UPDATE sales SET total_amount = total_amount + 1 WHERE id = ?', victim.id);
    await t.exec('UPDATE sale_lines SET quantity = quantity + 1 WHERE sale_id = ?', victim.id);
    expect((await verifyFiscalChain(t.context.db, device)).first_broken?.doc_id).toBe(victim.id);
    await t.exec('UPDATE sale_lines SET quantity = quantity - 1 WHERE sale_id = ?', victim.id);
    expect((await verifyFiscalChain(t.context.db, device)).ok).toBe(true);
  });

  it('lists sales newest first, scoped: pharmacists see their own', async () => {
    const list = await t.get<{ total: number; items: Body[]; page: number; page_size: number }>(
      '/api/v1/sales?page_size=5',
      cashier.token,
    );
    expect(list.status).toBe(200);
    expect(list.body.items.length).toBe(5);
    const times = list.body.items.map((s) => String(s.sold_at));
    expect([...times].sort().reverse()).toEqual(times);
    const pharmacist = await t.userWithRole('pharmacist');
    const own = await t.get<{ items: Body[] }>('/api/v1/sales', pharmacist.token);
    expect(own.body.items.every((s) => s.user_id === pharmacist.id)).toBe(true);
    const other = await t.createBranch('OTH');
    const manager = await t.userWithRole('branch_manager', other);
    expect((await t.get<{ total: number }>('/api/v1/sales', manager.token)).body.total).toBe(0);
    const first = list.body.items[0]!;
    expect((await t.get(`/api/v1/sales/${first.id}`, manager.token)).status).toBe(403);
    expect((await t.get(`/api/v1/sales/${randomUUID()}`, admin)).status).toBe(404);
  });
});
