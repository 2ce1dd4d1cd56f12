import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';

type Body = Record<string, unknown>;
let t: TestServer;
let cashier: { id: string; token: string };
let manager: { id: string; token: string };

beforeAll(async () => {
  t = await startTestServer();
  cashier = await t.userWithRole('cashier');
  manager = await t.userWithRole('branch_manager');
  await openSessionFor(t, manager.token);
});
afterAll(() => t.close());

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
