import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let token: string;
beforeAll(async () => {
  t = await startTestServer();
  token = (await t.userWithRole('inventory_manager')).token;
});
afterAll(() => t.close());

const classify = (code: unknown) =>
  t.post<Record<string, unknown>>('/api/v1/scanners/classify', { code }, token);

describe('POST /scanners/classify', () => {
  it('reads a GS1 DataMatrix as a wedge types it: GTIN, expiry and batch, with or without a GS', async () => {
    const plain = await classify('010501234567890017271231' + '10LOT-42');
    expect(plain.status).toBe(200);
    expect(plain.body).toEqual({
      kind: 'gs1',
      raw: '01050123456789001727123110LOT-42',
      gtin: '05012345678900',
      expiry: '2027-12-31',
      batch: 'LOT-42',
    });
    const withGs = await classify(']d2010501234567890010AB12\u001d17280600');
    expect(withGs.body).toMatchObject({ kind: 'gs1', batch: 'AB12', expiry: '2028-06-30' });
  });

  it('reads retail codes and says why anything else is not one', async () => {
    expect((await classify('5012345678900')).body).toMatchObject({ kind: 'ean13', code: '5012345678900' });
    expect((await classify('5012345678901')).body).toMatchObject({
      kind: 'unknown',
      reason: 'check digit mismatch',
    });
    expect((await classify('paracetamol')).body).toMatchObject({ kind: 'unknown' });
    expect((await classify("'; DROP TABLE medicines; --")).body).toMatchObject({ kind: 'unknown' });
  });

  it('refuses what is not a code with 400, and strangers with 401', async () => {
    expect((await classify('')).status).toBe(400);
    expect((await classify(42)).status).toBe(400);
    expect((await classify('x'.repeat(513))).status).toBe(400);
    expect((await t.post('/api/v1/scanners/classify', { code: '1', extra: 1 }, token)).status).toBe(400);
    expect((await t.post('/api/v1/scanners/classify', { code: '5012345678900' })).status).toBe(401);
  });
});
