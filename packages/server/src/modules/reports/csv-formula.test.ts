import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeMedicine } from '../../testing/factory';
import { startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe('CSV exports and spreadsheet formulas', () => {
  it('L1: a cell whose text after a ; or , starts with = + - @ is neutralised and kept in one cell', async () => {
    const names = ['Aspirin;=1+2', 'Ibuprofen, @SUM(A1)', 'Paracetamol;+cmd', 'Zinc; -2+3'];
    for (const name of names) await makeMedicine(t, { name, low_stock_threshold: 100 });
    const res = await t.request('GET', '/api/v1/reports/inventory?format=csv&section=low_stock_list', {
      token: await t.adminToken(),
    });
    expect(res.status).toBe(200);
    const body = String(res.body);
    for (const name of names) expect(body, name).toContain(`"'${name}"`);
    // A plain name and a negative number stay as they are.
    expect(body).not.toContain(`"'medicine_name`);
  });
});
