import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';
import { startTestServer, type TestServer } from '../../testing/harness';
import { GENESIS_HASH, verifyFiscalChain } from './chain';
import { getLocalDeviceId } from './device';

type Body = Record<string, unknown>;
let t: TestServer;
let cashier: string;
let device: string;
const saleIds: string[] = [];

beforeAll(async () => {
  t = await startTestServer();
  cashier = (await t.userWithRole('cashier')).token;
  await openSessionFor(t, cashier);
  const med = await makeMedicineId(t, { price: 4 });
  await addStock(t, med, 50);
  for (const quantity of [1, 2, 3]) {
    const sale = await t.post<Body>(
      '/api/v1/sales',
      { items: [{ medicine_id: med, quantity }], payment_lines: [{ method: 'cash', amount: 20 }] },
      cashier,
    );
    expect(sale.status).toBe(201);
    saleIds.push(String(sale.body.id));
  }
  device = await getLocalDeviceId(t.context.db);
});
afterAll(() => t.close());

const chainRows = () =>
  t.query<{ icv: number; previous_hash: string; hash: string }>(
    'SELECT icv, previous_hash, fiscal_hash AS hash FROM fiscal_chain WHERE device_id = ? ORDER BY icv',
    device,
  );

describe('the fiscal chain of a device', () => {
  it('numbers invoices 1, 2, 3 without gaps, each linking to the hash before it from the genesis hash', async () => {
    const rows = await chainRows();
    expect(rows.map((r) => r.icv)).toEqual([1, 2, 3]);
    expect(rows[0]?.previous_hash).toBe(GENESIS_HASH);
    expect(rows[1]?.previous_hash).toBe(rows[0]?.hash);
    expect(rows[2]?.previous_hash).toBe(rows[1]?.hash);
    expect(await verifyFiscalChain(t.context.db, device)).toMatchObject({
      ok: true,
      checked: 3,
      first_broken: null,
    });
  });

  it('names the first document whose stored line no longer hashes to the chain (an edited quantity)', async () => {
    const [, second] = saleIds;
    await t.exec('UPDATE sale_lines SET quantity = quantity + 1 WHERE sale_id = ?', second);
    try {
      const report = await verifyFiscalChain(t.context.db, device);
      expect(report.ok).toBe(false);
      expect(report.first_broken).toMatchObject({ icv: 2, doc_type: 'invoice', doc_id: second });
    } finally {
      await t.exec('UPDATE sale_lines SET quantity = quantity - 1 WHERE sale_id = ?', second);
    }
    expect((await verifyFiscalChain(t.context.db, device)).ok).toBe(true);
  });
});
