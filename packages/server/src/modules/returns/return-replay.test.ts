import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';

/** Issue 27 finding 8: a repeated POST /returns with the same client key makes one credit note. */

type SaleReturn = { id: string; credit_note_number: string; total_amount: string };
let t: TestServer;
let cashier: { token: string };
let medicine: string;

beforeAll(async () => {
  t = await startTestServer();
  cashier = await t.userWithRole('cashier');
  await openSessionFor(t, cashier.token, 20);
  medicine = await makeMedicineId(t, { price: 1.5 });
  await addStock(t, medicine, 20);
});
afterAll(() => t.close());

async function sale(): Promise<{ id: string; line: string }> {
  const res = await t.post<{ id: string; items: Array<{ id: string }> }>(
    '/api/v1/sales',
    {
      items: [{ medicine_id: medicine, quantity: 3 }],
      payment_lines: [{ method: 'cash', amount: 4.5 }],
      print_receipt: false,
    },
    cashier.token,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return { id: res.body.id, line: res.body.items[0]!.id };
}

const TABLES = ['returns', 'return_lines', 'stock_movements', 'fiscal_chain', 'audit_log', 'change_log'];
const returned = async (line: string) =>
  (await t.query<{ n: number }>('SELECT returned_quantity AS n FROM sale_lines WHERE id = ?', line))[0]?.n;
const cashRefunds = async (saleId: string) =>
  (await t.query<{ n: number }>('SELECT count(*) AS n FROM returns WHERE sale_id = ?', saleId))[0]?.n;

describe('27.8: a return is made once per client key', () => {
  it('27.8: the same request sent again answers the first credit note (200) and writes nothing', async () => {
    const s = await sale();
    const body = {
      sale_id: s.id,
      lines: [{ sale_line_id: s.line, quantity: 1 }],
      reason: 'Wrong strength',
      client_mutation_id: randomUUID(),
    };
    const first = await t.post<SaleReturn>('/api/v1/returns', body, cashier.token);
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.total_amount).toBe('1.50');
    const before = await t.counts(TABLES);
    const again = await t.post<SaleReturn>('/api/v1/returns', body, cashier.token);
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
    expect(again.body.credit_note_number).toBe(first.body.credit_note_number);
    expect(await t.counts(TABLES)).toEqual(before);
    expect(await returned(s.line)).toBe(1);
  });

  it('27.8: two clicks that reach the server at once make one credit note, both answered with it', async () => {
    const s = await sale();
    const body = {
      sale_id: s.id,
      lines: [{ sale_line_id: s.line, quantity: 1 }],
      client_mutation_id: randomUUID(),
    };
    const [a, b] = await Promise.all([
      t.post<SaleReturn>('/api/v1/returns', body, cashier.token),
      t.post<SaleReturn>('/api/v1/returns', body, cashier.token),
    ]);
    expect([a.status, b.status].sort()).toEqual([200, 201]);
    expect(a.body.id).toBe(b.body.id);
    expect(await cashRefunds(s.id)).toBe(1);
    expect(await returned(s.line)).toBe(1);
  });

  it('27.8: the same key with another body is refused (409 MUTATION_ID_REUSED), nothing written', async () => {
    const s = await sale();
    const key = randomUUID();
    const first = await t.post(
      '/api/v1/returns',
      { sale_id: s.id, lines: [{ sale_line_id: s.line, quantity: 1 }], client_mutation_id: key },
      cashier.token,
    );
    expect(first.status).toBe(201);
    const before = await t.counts(TABLES);
    const other = await t.post<{ code: string }>(
      '/api/v1/returns',
      { sale_id: s.id, lines: [{ sale_line_id: s.line, quantity: 2 }], client_mutation_id: key },
      cashier.token,
    );
    expect(other.status).toBe(409);
    expect(other.body.code).toBe('MUTATION_ID_REUSED');
    expect(await t.counts(TABLES)).toEqual(before);
  });
});
