import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';
import { startTestServer, type TestServer } from '../../testing/harness';

/** Issue 29: head office's recalls and announcements reach the counter, each until its person acknowledges it. */

type Notices = { items: Array<{ kind: string; id: string; title: string }> };

let t: TestServer;
let admin: string;
let cashier: { id: string; token: string };
let pharmacist: { id: string; token: string };
let medicine: string;
let batch: string;
let announcement: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  cashier = await t.userWithRole('cashier');
  pharmacist = await t.userWithRole('pharmacist');
  medicine = await makeMedicineId(t, { price: 10 });
  batch = await addStock(t, medicine, 12, { batch: 'RC-1' });
  const recalled = await t.post(
    `/api/v1/supplier-finance/batches/${batch}/quarantine`,
    { status: 'recalled', reason: 'regulator notice' },
    admin,
  );
  expect(recalled.status, JSON.stringify(recalled.body)).toBe(200);
  const published = await t.post<{ id: string }>(
    '/api/v1/changelog',
    { title: 'Stocktake on Sunday', body: 'Close the counter at 16:00.', kind: 'announcement' },
    admin,
  );
  expect(published.status).toBe(201);
  announcement = published.body.id;
}, 60_000);
afterAll(() => t.close());

const notices = async (token: string) => (await t.get<Notices>('/api/v1/notices', token)).body.items;

describe('29: announcements and recalls at the counter', () => {
  it('29: a recall and an announcement show for each person until they acknowledge it', async () => {
    expect((await notices(cashier.token)).map((n) => [n.kind, n.id])).toEqual([
      ['recall', batch],
      ['announcement', announcement],
    ]);
    expect((await notices(cashier.token))[0]?.title).toMatch(/^Recall: .*, batch RC-1$/);
    for (const n of [
      { kind: 'recall', id: batch },
      { kind: 'announcement', id: announcement },
    ]) {
      const res = await t.post('/api/v1/notices/acknowledge', n, cashier.token);
      expect(res.status).toBe(204);
      expect((await t.post('/api/v1/notices/acknowledge', n, cashier.token)).status).toBe(204);
    }
    expect(await notices(cashier.token)).toEqual([]);
    expect(await notices(pharmacist.token)).toHaveLength(2);
    const unknown = await t.post(
      '/api/v1/notices/acknowledge',
      { kind: 'recall', id: 'nope' },
      cashier.token,
    );
    expect(unknown.status).toBe(404);
  });

  it('29: a recalled batch cannot be sold', async () => {
    await openSessionFor(t, cashier.token);
    const sale = await t.post<{ code: string }>(
      '/api/v1/sales',
      { items: [{ medicine_id: medicine, quantity: 1 }], payment_lines: [{ method: 'cash', amount: 10 }] },
      cashier.token,
    );
    expect(sale.status).toBe(409);
    expect(sale.body.code).toBe('INSUFFICIENT_STOCK');
    const [row] = await t.query<{ qty_on_hand: number }>(
      'SELECT qty_on_hand FROM batches WHERE id = ?',
      batch,
    );
    expect(Number(row?.qty_on_hand)).toBe(12);
  });
});
