import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { verifyFiscalChain } from '../fiscal/chain';
import { getLocalDeviceId } from '../fiscal/device';
import { addStock, batchOnHand, makeMedicineId, openSessionFor } from '../../testing/factory';

type Body = Record<string, unknown>;
let t: TestServer;
let admin: string;
let cashier: { id: string; token: string };
let manager: { id: string; token: string };

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  cashier = await t.userWithRole('cashier');
  manager = await t.userWithRole('branch_manager');
});
afterAll(() => t.close());

describe('cash session lifecycle and Z-report', () => {
  it('opens once, sells, refunds, declares, closes with variance and a sequential Z number', async () => {
    expect((await t.get('/api/v1/sessions/current', cashier.token)).status).toBe(404);
    const id = await openSessionFor(t, cashier.token, 100);
    const twice = await t.post<Body>('/api/v1/sessions/open', { opening_float: 1 }, cashier.token);
    expect(twice.status).toBe(409);
    const med = await makeMedicineId(t, { price: 10 });
    const batch = await addStock(t, med, 20);
    const s1 = await t.post<Body>(
      '/api/v1/sales',
      { items: [{ medicine_id: med, quantity: 3 }], payment_lines: [{ method: 'cash', amount: 50 }] },
      cashier.token,
    );
    expect(s1.status).toBe(201);
    const s2 = await t.post<Body>(
      '/api/v1/sales',
      { items: [{ medicine_id: med, quantity: 2 }], payment_method: 'card', global_discount: 1 },
      cashier.token,
    );
    expect(s2.status).toBe(201);
    expect(s2.body.total_amount).toBe('19.00');
    // return 1 unit of the cash sale (resaleable) and 1 damaged
    const lookup = await t.get<Body>(`/api/v1/returns/lookup/${s1.body.invoice_number}`, cashier.token);
    expect(lookup.status).toBe(200);
    const lineId = (lookup.body.lines_returnable as Body[])[0]!.sale_line_id;
    const r1 = await t.post<Body>(
      '/api/v1/returns',
      { sale_id: s1.body.id, lines: [{ sale_line_id: lineId, quantity: 1 }] },
      cashier.token,
    );
    expect(r1.status).toBe(201);
    expect(r1.body).toMatchObject({ refund_method: 'cash', total_amount: '10.00' });
    expect(String(r1.body.credit_note_number)).toMatch(/^CN-MAIN-[0-9A-F]{4}-\d{6}$/);
    expect(await batchOnHand(t, batch)).toBe(16);
    const r2 = await t.post<Body>(
      '/api/v1/returns',
      { sale_id: s1.body.id, lines: [{ sale_line_id: lineId, quantity: 1, condition: 'damaged' }] },
      cashier.token,
    );
    expect(r2.status).toBe(201);
    expect(await batchOnHand(t, batch)).toBe(16);
    const tooMany = await t.post<Body>(
      '/api/v1/returns',
      { sale_id: s1.body.id, lines: [{ sale_line_id: lineId, quantity: 2 }] },
      cashier.token,
    );
    expect(tooMany.status).toBe(409);
    expect(tooMany.body.code).toBe('RETURN_EXCEEDS_SOLD');
    const last = await t.post<Body>(
      '/api/v1/returns',
      { sale_id: s1.body.id, lines: [{ sale_line_id: lineId, quantity: 1 }] },
      cashier.token,
    );
    // the three refunds of a 30.00 line add up to exactly 30.00
    expect(last.body.total_amount).toBe('10.00');
    expect((await t.get<Body>(`/api/v1/sales/${s1.body.id}`, cashier.token)).body.has_return).toBe(true);
    // tender
    const tender = await t.post<Body>(
      '/api/v1/sessions/tender',
      {
        denominations: [
          { value: 50, count: 1 },
          { value: 10, count: 2 },
        ],
      },
      cashier.token,
    );
    expect(tender.status).toBe(201);
    expect(tender.body.amount).toBe('70.00');
    expect(
      (await t.get<{ total: number }>('/api/v1/sessions/tender/history', cashier.token)).body.total,
    ).toBe(1);
    // expected = 100 + 50 - 20 change - 30 refunds = 100
    const current = await t.get<Body>('/api/v1/sessions/current', cashier.token);
    expect(current.body).toMatchObject({
      id,
      status: 'open',
      total_sales: 2,
      total_revenue: '49.00',
      expected_cash: '100.00',
    });
    expect(JSON.parse(String(current.body.payment_breakdown))).toEqual({ cash: '30.00', card: '19.00' });
    const closed = await t.post<Body>('/api/v1/sessions/close', { counted_cash: 98.5 }, cashier.token);
    expect(closed.status).toBe(200);
    expect(closed.body).toMatchObject({
      status: 'closed',
      expected_cash: '100.00',
      counted_cash: '98.50',
      variance: '-1.50',
      z_number: 1,
    });
    const z = await t.get<Body>(`/api/v1/sessions/${id}/z-report`, cashier.token);
    expect(z.body).toMatchObject({
      z_number: 1,
      is_final: true,
      sales_count: 2,
      gross_sales: '49.00',
      cash_sales: '30.00',
      cash_refunds: '30.00',
      expected_cash: '100.00',
      variance: '-1.50',
      discounts: { global: '1.00', total: '1.00' },
      returns: { count: 3, total: '30.00' },
    });
    const sales = await t.get<{ items: Body[]; session: Body }>(
      `/api/v1/sessions/${id}/sales`,
      cashier.token,
    );
    expect(sales.body.items.map((s) => s.id)).toEqual([s2.body.id, s1.body.id]);
    expect(sales.body.session.id).toBe(id);
    expect((await t.get(`/api/v1/sessions/${randomUUID()}/sales`, cashier.token)).status).toBe(404);
    const hist = await t.get<{ total: number }>('/api/v1/sessions/history', cashier.token);
    expect(hist.body.total).toBe(1);
    // a second session gets Z 2
    await openSessionFor(t, cashier.token, 0);
    expect(
      (await t.post<Body>('/api/v1/sessions/close', { counted_cash: 0 }, cashier.token)).body.z_number,
    ).toBe(2);
    // the chain covers invoices and credit notes
    expect((await verifyFiscalChain(t.context.db, await getLocalDeviceId(t.context.db))).ok).toBe(true);
  });
});

describe('customers and credit', () => {
  it('creates, searches, charges credit, takes payments and keeps the ledger', async () => {
    const refused = await t.post<Body>('/api/v1/customers', { name: 'X', credit_limit: 100 }, cashier.token);
    expect(refused.status).toBe(403);
    const c = await t.post<Body>(
      '/api/v1/customers',
      {
        name: 'Amina Juma',
        phone: '+255700111222',
        national_id: 'NID-9',
        credit_limit: 100,
        is_credit_allowed: true,
      },
      manager.token,
    );
    expect(c.status).toBe(201);
    expect(c.body).toMatchObject({
      credit_limit: '100.00',
      current_balance: '0.00',
      is_credit_allowed: true,
    });
    expect((await t.get<{ total: number }>('/api/v1/customers?search=amina', cashier.token)).body.total).toBe(
      1,
    );
    expect((await t.get<{ total: number }>('/api/v1/customers?search=0111', cashier.token)).body.total).toBe(
      1,
    );
    expect((await t.get<{ total: number }>('/api/v1/customers?search=NID', cashier.token)).body.total).toBe(
      0,
    );
    expect((await t.get<{ total: number }>('/api/v1/customers?search=NID-9', cashier.token)).body.total).toBe(
      1,
    );
    expect((await t.put<Body>(`/api/v1/customers/${c.body.id}`, {}, cashier.token)).body.detail).toContain(
      'No fields to update',
    );
    await openSessionFor(t, manager.token);
    const med = await makeMedicineId(t, { price: 30 });
    await addStock(t, med, 10);
    const sale = await t.post<Body>(
      '/api/v1/sales',
      {
        items: [{ medicine_id: med, quantity: 2 }],
        customer_id: c.body.id,
        payment_lines: [{ method: 'credit', amount: 60 }],
      },
      manager.token,
    );
    expect(sale.status).toBe(201);
    expect(sale.body.customer_display_name).toBe('Amina Juma');
    // The answer is built from what the sale wrote; it must read back the same.
    expect((await t.get<Body>(`/api/v1/sales/${sale.body.id}`, manager.token)).body).toEqual(sale.body);
    const over = await t.post<Body>(`/api/v1/customers/${c.body.id}/payments`, { amount: 61 }, cashier.token);
    expect(over.status).toBe(400);
    expect(over.body.detail).toContain('61.00');
    expect(over.body.detail).toContain('60.00');
    expect(
      (await t.post<Body>(`/api/v1/customers/${c.body.id}/payments`, { amount: 0 }, cashier.token)).status,
    ).toBe(400);
    const changes = t.count('change_log');
    const pay = await t.post<Body>(
      `/api/v1/customers/${c.body.id}/payments`,
      { amount: 25.5 },
      cashier.token,
    );
    expect(pay.body).toMatchObject({ amount_paid: '25.50', previous_balance: '60.00', new_balance: '34.50' });
    expect(t.count('change_log')).toBe(changes + 2);
    const ledger = await t.get<{ items: Body[] }>(`/api/v1/customers/${c.body.id}/ledger`, cashier.token);
    expect(ledger.body.items.map((r) => [r.transaction_type, r.balance_after])).toEqual([
      ['PAYMENT', '34.50'],
      ['SALE', '60.00'],
    ]);
    expect(ledger.body.items[0]!.created_by_name).toBe('Test cashier');
    // a return of the credit sale goes back to the account
    const line = (sale.body.items as Body[])[0]!;
    const ret = await t.post<Body>(
      '/api/v1/returns',
      { sale_id: sale.body.id, lines: [{ sale_line_id: line.id, quantity: 1 }] },
      manager.token,
    );
    expect(ret.body.refund_method).toBe('credit');
    expect((await t.get<Body>(`/api/v1/customers/${c.body.id}`, cashier.token)).body.current_balance).toBe(
      '4.50',
    );
  });
});

describe('coupons', () => {
  it('validates, applies in a sale and counts uses up to the limit', async () => {
    expect(
      (
        await t.post(
          '/api/v1/coupons',
          { code: 'X1', discount_type: 'percent', discount_value: 10 },
          cashier.token,
        )
      ).status,
    ).toBe(403);
    const c = await t.post<Body>(
      '/api/v1/coupons',
      {
        code: 'save10',
        discount_type: 'percent',
        discount_value: 10,
        max_discount: 5,
        min_subtotal: 20,
        usage_limit: 1,
      },
      manager.token,
    );
    expect(c.status).toBe(201);
    expect(c.body.code).toBe('SAVE10');
    expect(
      (
        await t.post<Body>(
          '/api/v1/coupons',
          { code: 'SAVE10', discount_type: 'fixed', discount_value: 1 },
          manager.token,
        )
      ).status,
    ).toBe(409);
    const small = await t.get<Body>('/api/v1/coupons/validate/save10?subtotal=10', cashier.token);
    expect(small.body).toMatchObject({ valid: false, reason: 'MIN_SUBTOTAL' });
    const ok = await t.get<Body>('/api/v1/coupons/validate/SAVE10?subtotal=30', cashier.token);
    expect(ok.body).toMatchObject({ valid: true, discount_amount: '3.00' });
    expect((await t.get('/api/v1/coupons/validate/NOPE', cashier.token)).status).toBe(404);
    const med = await makeMedicineId(t, { price: 100 });
    await addStock(t, med, 5);
    const sale = await t.post<Body>(
      '/api/v1/sales',
      { items: [{ medicine_id: med, quantity: 1 }], coupon_code: 'save10' },
      manager.token,
    );
    expect(sale.status).toBe(201);
    expect(sale.body).toMatchObject({ coupon_discount: '5.00', total_amount: '95.00', coupon_id: c.body.id });
    expect((await t.get<Body>(`/api/v1/sales/${sale.body.id}`, manager.token)).body).toEqual(sale.body);
    const again = await t.post<Body>(
      '/api/v1/sales',
      { items: [{ medicine_id: med, quantity: 1 }], coupon_code: 'save10' },
      manager.token,
    );
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('COUPON_NOT_APPLICABLE');
    const upd = await t.put<Body>(`/api/v1/coupons/${c.body.id}`, { usage_limit: 5 }, manager.token);
    expect(upd.body).toMatchObject({ usage_limit: 5, used_count: 1 });
  });
});

describe('parked carts', () => {
  it('parks, lists, recalls once, voids with a reason, scoped by branch', async () => {
    const med = await makeMedicineId(t, { price: 1 });
    const p = await t.post<Body>(
      '/api/v1/parked',
      { label: 'Mrs K', items: [{ medicine_id: med, quantity: 2 }] },
      cashier.token,
    );
    expect(p.status).toBe(201);
    expect((await t.get<{ total: number }>('/api/v1/parked', cashier.token)).body.total).toBe(1);
    const other = await t.userWithRole('cashier', await t.createBranch('PRK'));
    expect((await t.get<{ total: number }>('/api/v1/parked', other.token)).body.total).toBe(0);
    expect((await t.post(`/api/v1/parked/${p.body.id}/recall`, undefined, other.token)).status).toBe(403);
    const rec = await t.post<Body>(`/api/v1/parked/${p.body.id}/recall`, undefined, manager.token);
    expect(rec.body).toMatchObject({ status: 'recalled', items: [{ medicine_id: med, quantity: 2 }] });
    const twice = await t.post<Body>(`/api/v1/parked/${p.body.id}/recall`, undefined, cashier.token);
    expect(twice.body.code).toBe('ALREADY_RECALLED');
    const p2 = await t.post<Body>(
      '/api/v1/parked',
      { label: 'Walk-in', items: [{ medicine_id: med, quantity: 1 }] },
      cashier.token,
    );
    const v = await t.post<Body>(
      `/api/v1/parked/${p2.body.id}/void`,
      { reason: 'customer left' },
      cashier.token,
    );
    expect(v.body).toMatchObject({ status: 'voided', void_reason: 'customer left' });
    expect((await t.get<{ total: number }>('/api/v1/parked?status=all', cashier.token)).body.total).toBe(2);
    expect(admin).toBeTruthy();
  });
});
