import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { verifyFiscalChain } from '../fiscal/chain';
import { getLocalDeviceId } from '../fiscal/device';
import { addStock, batchOnHand, makeMedicineId, openSessionFor } from '../../testing/factory';

type Body = Record<string, unknown>;
let t: TestServer;
let cashier: { id: string; token: string };

beforeAll(async () => {
  t = await startTestServer();
  cashier = await t.userWithRole('cashier');
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
