import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';

/** Issue 27 finding 9: a scanned barcode in the cash field is never recorded as cash without a confirmation. */

let t: TestServer;
let cashier: { token: string };
let medicine: string;
const TABLES = ['sales', 'sale_lines', 'sale_payments', 'stock_movements', 'change_log'];

beforeAll(async () => {
  t = await startTestServer();
  cashier = await t.userWithRole('cashier');
  await openSessionFor(t, cashier.token, 20);
  medicine = await makeMedicineId(t, { price: 1.5 });
  await addStock(t, medicine, 20);
});
afterAll(() => t.close());

const sell = (cash: number, extra: Record<string, unknown> = {}) =>
  t.post<{ code: string; detail: string; change_amount: string }>(
    '/api/v1/sales',
    {
      items: [{ medicine_id: medicine, quantity: 1 }],
      payment_lines: [{ method: 'cash', amount: cash }],
      print_receipt: false,
      ...extra,
    },
    cashier.token,
  );

describe('27.9: an absurd cash tender needs the cashier to confirm it', () => {
  it('27.9: a 12-digit barcode as cash for a 1.50 sale is refused in plain words (400), nothing written', async () => {
    const before = await t.counts(TABLES);
    const res = await sell(123456789050);
    expect(res.status).toBe(400);
    expect(res.body.code).toBe('CASH_TENDER_UNCONFIRMED');
    expect(res.body.detail).toMatch(
      /^Cash received of 123456789050\.00 USD is far more than the total of 1\.50/,
    );
    expect(res.body.detail).not.toMatch(/payment_lines|\/sales/);
    expect(await t.counts(TABLES)).toEqual(before);
  });

  it("27.9: the customer's largest note for a small sale needs no confirmation; 20x the total is the line above that", async () => {
    expect((await sell(100)).status).toBe(201);
    expect((await sell(100.01)).status).toBe(400);
    expect((await sell(100.01, { confirm_large_cash: true })).status).toBe(201);
  });

  it('27.9: with the confirmation the sale is recorded as tendered', async () => {
    const res = await sell(5000, { confirm_large_cash: true });
    expect(res.status).toBe(201);
    expect(res.body.change_amount).toBe('4998.50');
  });
});
