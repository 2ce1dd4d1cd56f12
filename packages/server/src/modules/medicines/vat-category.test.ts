import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';

let t: TestServer;
let admin: string;
let cashier: { token: string };

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  cashier = await t.userWithRole('cashier');
  await openSessionFor(t, cashier.token);
});
afterAll(() => t.close());

const PROTOTYPE_KEYS = ['constructor', '__proto__', 'toString', 'hasOwnProperty', 'valueOf'];

async function sell(medicineId: string) {
  return t.post<{ vat_amount: string }>(
    '/api/v1/sales',
    { items: [{ medicine_id: medicineId, quantity: 1 }], payment_lines: [{ method: 'cash', amount: 50 }] },
    cashier.token,
  );
}

async function setVatRates(vat_rates: Record<string, number>) {
  return t.put('/api/v1/settings', { tax_policy: { vat_rates, prices_include_vat: true } }, admin);
}

describe('M4: a VAT category is a key of the tax policy, never of Object.prototype', () => {
  it.each([...PROTOTYPE_KEYS, 'reduced'])(
    'refuses vat_category %s on create (400 naming vat_category)',
    async (key) => {
      const before = await t.count('medicines');
      const res = await t.post(
        '/api/v1/medicines',
        { name: `M ${key}`, selling_price: 5, vat_category: key },
        admin,
      );
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([expect.objectContaining({ path: 'vat_category' })]);
      expect(await t.count('medicines')).toBe(before);
    },
  );

  it('refuses a prototype key on update, leaving the medicine as it was', async () => {
    const id = await makeMedicineId(t, { price: 5 });
    for (const key of PROTOTYPE_KEYS) {
      const res = await t.put(`/api/v1/medicines/${id}`, { vat_category: key }, admin);
      expect(res.status, key).toBe(400);
    }
    const after = await t.get(`/api/v1/medicines/${id}`, admin);
    expect(after.body.vat_category).toBe('standard');
  });

  it('a medicine stored with a prototype key (older data) is refused at the till with 409, never a 500', async () => {
    const id = await makeMedicineId(t, { price: 5 });
    await addStock(t, id, 5);
    expect(await t.exec("UPDATE medicines SET vat_category = 'constructor' WHERE id = ?", id)).toBe(1);
    const before = await t.count('sales');
    const res = await sell(id);
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'UNKNOWN_VAT_CATEGORY' });
    expect(await t.count('sales')).toBe(before);
  });

  it('a category the policy really defines, even one named like an Object method, sells at its rate', async () => {
    expect((await setVatRates({ standard: 18, zero: 0, exempt: 0, constructor: 5 })).status).toBe(200);
    const id = await makeMedicineId(t, { price: 10.5, vat_category: 'constructor' });
    await addStock(t, id, 5);
    const res = await sell(id);
    expect(res.status).toBe(201);
    expect(res.body.vat_amount).toBe('0.50');
  });

  it('the tax policy cannot drop a category that active medicines use (409), so they stay sellable', async () => {
    const res = await setVatRates({ standard: 18, zero: 0, exempt: 0 });
    expect(res.status).toBe(409);
    expect(res.body).toMatchObject({ code: 'VAT_CATEGORY_IN_USE' });
    expect(res.body.detail).toMatch(/constructor \(2 medicines\)/);
    const settings = await t.get<{ tax_policy: { vat_rates: Record<string, number> } }>(
      '/api/v1/settings',
      admin,
    );
    expect(settings.body.tax_policy.vat_rates).toHaveProperty('constructor', 5);
  });
});
