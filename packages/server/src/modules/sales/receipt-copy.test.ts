import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';
import { startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let cashier: { token: string };
let saleId: string;

beforeAll(async () => {
  t = await startTestServer();
  cashier = await t.userWithRole('cashier');
  const medicine = await makeMedicineId(t, { price: 10 });
  await addStock(t, medicine, 5);
  await openSessionFor(t, cashier.token);
  const sold = await t.post<{ id: string }>(
    '/api/v1/sales',
    { items: [{ medicine_id: medicine, quantity: 1 }], payment_lines: [{ method: 'cash', amount: 10 }] },
    cashier.token,
  );
  expect(sold.status).toBe(201);
  saleId = sold.body.id;
}, 60_000);
afterAll(() => t.close());

describe('29: a receipt reprinted at the till', () => {
  it('29: the receipt text is marked COPY when asked for as a reprint, and only then', async () => {
    const receipt = (copy?: string) =>
      t.get<{ text: string }>(`/api/v1/sales/${saleId}/receipt${copy ? `?copy=${copy}` : ''}`, cashier.token);
    expect((await receipt('true')).body.text).toContain('COPY');
    expect((await receipt()).body.text).not.toContain('COPY');
    expect((await receipt('maybe')).status).toBe(400);
  });
});
