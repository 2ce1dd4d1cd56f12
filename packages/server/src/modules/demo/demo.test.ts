import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, testingOnPostgres } from '../../testing/harness';
import { ean13, generateDemoCatalogue } from './generate';
import { loadSmallDemoCatalogue } from './small';
import { ledgerMismatches } from '../../testing/factory';

type Page = { items: Array<Record<string, unknown>>; total: number };

describe('loadSmallDemoCatalogue', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('fills an empty catalogue once, with stock in Main Branch, and is idempotent', async () => {
    expect(await loadSmallDemoCatalogue(t.context)).toBe(true);
    const counts = [
      await t.count('medicines'),
      await t.count('batches'),
      await t.count('suppliers'),
      await t.count('categories'),
    ];
    expect(counts[0]).toBe(50);
    expect(await loadSmallDemoCatalogue(t.context)).toBe(false);
    expect([
      await t.count('medicines'),
      await t.count('batches'),
      await t.count('suppliers'),
      await t.count('categories'),
    ]).toEqual(counts);
    const admin = await t.adminToken();
    const controlled = await t.get<Page>('/api/v1/medicines?is_controlled=true', admin);
    expect(controlled.body.total).toBeGreaterThanOrEqual(3);
    const rx = await t.get<Page>('/api/v1/medicines?requires_prescription=true', admin);
    expect(rx.body.total).toBeGreaterThanOrEqual(10);
    const panadol = await t.get<Page>('/api/v1/medicines?search=pana', admin);
    expect(panadol.body.items[0]).toMatchObject({ name: 'Panadol', selling_price: '1.50' });
    expect(Number(panadol.body.items[0]!.stock_quantity)).toBeGreaterThan(0);
    expect((await t.get<Page>('/api/v1/alerts/low-stock', admin)).body.total).toBeGreaterThan(0);
    expect(await ledgerMismatches(t)).toEqual([]);
    // replicated like hand-entered data
    const [changes] = await t.query<{ n: number }>(
      "SELECT count(*) AS n FROM change_log WHERE entity = 'medicine'",
    );
    expect(changes!.n).toBe(50);
  });
});

describe('generateDemoCatalogue', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  // generateDemoCatalogue bulk-loads SQLite through prepared statements (its CLI requires SQLite): no PostgreSQL form.
  it.skipIf(testingOnPostgres())(
    'bulk-loads medicines with valid EAN-13s and batches over branches, keeping the ledger balanced',
    async () => {
      expect(ean13('400638133393')).toBe('4006381333931');
      const result = generateDemoCatalogue(t.sqlite, {
        medicines: 500,
        batches: 1500,
        branches: 3,
        suppliers: 10,
        seed: 7,
      });
      expect(result).toMatchObject({ medicines: 500, batches: 1500 });
      expect(result.branches).toHaveLength(3);
      expect(await t.count('medicines')).toBe(500);
      expect(await t.count('stock_movements')).toBe(1500);
      expect(await ledgerMismatches(t)).toEqual([]);
      const barcodes = await t.query<{ barcode: string }>('SELECT barcode FROM medicines');
      for (const { barcode } of barcodes) expect(ean13(barcode.slice(0, 12))).toBe(barcode);
      const admin = await t.adminToken();
      const first = barcodes[0]!.barcode;
      const found = await t.get(`/api/v1/medicines/barcode/0${first}`, admin);
      expect(found.status).toBe(200);
      const name = String(found.body.name).slice(0, 4);
      const search = await t.get<Page>(`/api/v1/medicines?search=${encodeURIComponent(name)}`, admin);
      expect(search.body.total).toBeGreaterThan(0);
      const sheet = await t.get<{ total: number }>('/api/v1/stockcount', admin);
      expect(sheet.body.total).toBeGreaterThan(400);
    },
  );
});
