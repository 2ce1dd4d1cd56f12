import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';

type Body = Record<string, unknown>;
let t: TestServer;
let manager: { id: string; token: string };

beforeAll(async () => {
  t = await startTestServer();
  manager = await t.userWithRole('branch_manager');
  await openSessionFor(t, manager.token);
});
afterAll(() => t.close());

async function coupon(body: Body): Promise<string> {
  const res = await t.post<{ id: string }>('/api/v1/coupons', { usage_limit: 1, ...body }, manager.token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function medicine(price: number): Promise<string> {
  const id = await makeMedicineId(t, { price });
  await addStock(t, id, 10);
  return id;
}

const sell = (body: Body) => t.post<Body>('/api/v1/sales', { print_receipt: false, ...body }, manager.token);

const usedCount = async (id: string) =>
  (await t.query<{ n: number }>('SELECT used_count AS n FROM coupons WHERE id = ?', id))[0]?.n;

describe('L7: a coupon that discounts nothing is not used up', () => {
  it('L7: a 1 % coupon on a 0.40 basket (discount rounds to 0.00) stays usable for the next sale', async () => {
    const id = await coupon({ code: 'TINY1', discount_type: 'percent', discount_value: 1 });
    const cheap = await medicine(0.4);
    const redemptions = await t.count('coupon_redemptions');
    const zero = await sell({ items: [{ medicine_id: cheap, quantity: 1 }], coupon_code: 'tiny1' });
    expect(zero.status).toBe(201);
    expect(zero.body).toMatchObject({ coupon_discount: '0.00', coupon_id: null, total_amount: '0.40' });
    expect(await t.count('coupon_redemptions')).toBe(redemptions);
    expect(await usedCount(id)).toBe(0);
    const check = await t.get<Body>('/api/v1/coupons/validate/TINY1?subtotal=10', manager.token);
    expect(check.body).toMatchObject({ valid: true, discount_amount: '0.10' });

    const used = await sell({
      items: [{ medicine_id: await medicine(10), quantity: 1 }],
      coupon_code: 'TINY1',
    });
    expect(used.status).toBe(201);
    expect(used.body).toMatchObject({ coupon_discount: '0.10', coupon_id: id });
    expect(await t.count('coupon_redemptions')).toBe(redemptions + 1);
    expect(await usedCount(id)).toBe(1);
    const spent = await sell({ items: [{ medicine_id: cheap, quantity: 1 }], coupon_code: 'TINY1' });
    expect(spent.status).toBe(409);
    expect(spent.body.code).toBe('COUPON_NOT_APPLICABLE');
  });

  it('L7: a fixed coupon on a basket the global discount already took to 0.00 stays usable', async () => {
    const id = await coupon({ code: 'FIVE', discount_type: 'fixed', discount_value: 5 });
    const med = await medicine(10);
    const free = await sell({
      items: [{ medicine_id: med, quantity: 1 }],
      global_discount: 10,
      coupon_code: 'FIVE',
    });
    expect(free.status).toBe(201);
    expect(free.body).toMatchObject({ coupon_discount: '0.00', coupon_id: null, total_amount: '0.00' });
    expect(await usedCount(id)).toBe(0);
    const used = await sell({ items: [{ medicine_id: med, quantity: 1 }], coupon_code: 'FIVE' });
    expect(used.body).toMatchObject({ coupon_discount: '5.00', total_amount: '5.00' });
    expect(await usedCount(id)).toBe(1);
  });
});
