import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';

type Body = Record<string, unknown>;
type Problem = { code: string; detail: string };
let t: TestServer;
let cashier: { id: string; token: string };
let manager: { id: string; token: string };
let medicine: string;

beforeAll(async () => {
  t = await startTestServer();
  cashier = await t.userWithRole('cashier');
  manager = await t.userWithRole('branch_manager');
  await openSessionFor(t, cashier.token);
  await openSessionFor(t, manager.token);
  medicine = await makeMedicineId(t, { price: 10 });
  await addStock(t, medicine, 100);
});
afterAll(() => t.close());

/** A sale of two units (20.00) paid as given; its id and line id. */
async function sold(payment: Body): Promise<{ id: string; line: string }> {
  const res = await t.post<{ id: string; items: Array<{ id: string }> }>(
    '/api/v1/sales',
    { items: [{ medicine_id: medicine, quantity: 2 }], ...payment, print_receipt: false },
    cashier.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, line: res.body.items[0]!.id };
}

const refund = (sale: { id: string; line: string }, body: Body, token = cashier.token) =>
  t.post<Problem & { refund_method: string; total_amount: string }>(
    '/api/v1/returns',
    { sale_id: sale.id, lines: [{ sale_line_id: sale.line, quantity: 1 }], ...body },
    token,
  );

async function approval(payload: Body): Promise<string> {
  const asked = await t.post<{ id: string }>(
    '/api/v1/approvals',
    { kind: 'refund_tender', reason: 'card terminal down', payload },
    cashier.token,
  );
  expect(asked.status, JSON.stringify(asked.body)).toBe(201);
  await t.put(`/api/v1/approvals/${asked.body.id}`, { status: 'approved', reason: 'ok' }, manager.token);
  return asked.body.id;
}

const TABLES = ['returns', 'return_lines', 'stock_movements', 'fiscal_chain', 'change_log'];
const counts = () => t.counts(TABLES);
const returned = async (line: string) =>
  (await t.query<{ n: number }>('SELECT returned_quantity AS n FROM sale_lines WHERE id = ?', line))[0]?.n;

describe('L5: a refund to another tender than the sale was paid with', () => {
  it('L5: refuses a cash refund of a card sale without a manager approval (403 APPROVAL_REQUIRED, nothing written)', async () => {
    const sale = await sold({ payment_method: 'card' });
    const before = await counts();
    const cash = await refund(sale, { refund_method: 'cash' });
    expect(cash.status).toBe(403);
    expect(cash.body.code).toBe('APPROVAL_REQUIRED');
    expect(cash.body.detail).toContain('was paid by card');
    expect(cash.body.detail).toContain('refund_tender');
    expect(await counts()).toEqual(before);
    expect(await returned(sale.line)).toBe(0);
    const card = await refund(sale, {});
    expect(card.status).toBe(201);
    expect(card.body).toMatchObject({ refund_method: 'card', total_amount: '10.00' });
  });

  it('L5: a refund_tender approval covers its sale, tenders and amount, once', async () => {
    const sale = await sold({ payment_method: 'card' });
    const other = await sold({ payment_method: 'card' });
    const bound = { sale_id: sale.id, from_method: 'card', to_method: 'cash' };
    const refused: Array<[Body, string]> = [
      [{ ...bound, max_amount: 9.99 }, 'at most 9.99, not 10.00'],
      [{ ...bound, to_method: 'mobile_money', max_amount: 10 }, 'by mobile_money, not by cash'],
      [{ ...bound, from_method: 'mobile_money', max_amount: 10 }, 'the sale was not paid by mobile_money'],
      [{ ...bound, sale_id: other.id, max_amount: 10 }, `it is for sale ${other.id}`],
    ];
    const ids = [];
    for (const [payload] of refused) ids.push(await approval(payload));
    const before = await counts();
    for (const [i, [, why]] of refused.entries()) {
      const res = await refund(sale, { refund_method: 'cash', approval_id: ids[i] });
      expect(res.status, why).toBe(403);
      expect(res.body.code).toBe('APPROVAL_MISMATCH');
      expect(res.body.detail).toContain(why);
    }
    expect(await counts()).toEqual(before);
    const unused = await t.get<{ items: Array<{ id: string }> }>(
      '/api/v1/approvals?status=approved',
      cashier.token,
    );
    expect(unused.body.items.map((i) => i.id)).toEqual(expect.arrayContaining(ids));
    const granted = await approval({ ...bound, max_amount: 10 });
    const ok = await refund(sale, { refund_method: 'cash', approval_id: granted });
    expect(ok.status).toBe(201);
    expect(ok.body).toMatchObject({ refund_method: 'cash', total_amount: '10.00' });
    const again = await refund(sale, { refund_method: 'cash', approval_id: granted });
    expect(again.body.code).toBe('APPROVAL_REQUIRED');
  });

  it('L5: each tender of a split sale refunds up to what it paid; a manager refunds to any tender', async () => {
    const split = await sold({
      payment_lines: [
        { method: 'cash', amount: 5 },
        { method: 'card', amount: 15 },
      ],
    });
    expect((await refund(split, { refund_method: 'cash' })).body.code).toBe('APPROVAL_REQUIRED');
    expect((await refund(split, { refund_method: 'card' })).status).toBe(201);
    // 5.00 left on the card, 5.00 in cash: the last unit (10.00) fits neither alone
    expect((await refund(split, { refund_method: 'card' })).body.code).toBe('APPROVAL_REQUIRED');
    const byManager = await refund(split, { refund_method: 'cash' }, manager.token);
    expect(byManager.status).toBe(201);

    const cash = await sold({ payment_lines: [{ method: 'cash', amount: 50 }] });
    expect((await refund(cash, { refund_method: 'card' })).body.code).toBe('APPROVAL_REQUIRED');
    expect((await refund(cash, {})).body.refund_method).toBe('cash');
    expect((await refund(cash, {})).status).toBe(201);
  });
});
