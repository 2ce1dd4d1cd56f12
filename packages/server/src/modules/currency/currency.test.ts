import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
});
afterAll(() => t.close());

describe('currency registry', () => {
  it('lists active currencies, and inactive ones on request', async () => {
    expect((await t.patch('/api/v1/currency/JPY', { is_active: false }, admin)).status).toBe(200);
    const active = await t.get<{ items: Array<{ code: string }> }>('/api/v1/currency', admin);
    expect(active.body.items.map((c) => c.code)).not.toContain('JPY');
    const all = await t.get<{ items: Array<{ code: string; is_active: boolean }> }>(
      '/api/v1/currency?include_inactive=true',
      admin,
    );
    expect(all.body.items.find((c) => c.code === 'JPY')).toMatchObject({ is_active: false });
    expect((await t.get('/api/v1/currency?include_inactive=maybe', admin)).status).toBe(400);
  });

  it('creates and patches currencies; refuses duplicates and deactivating the base currency', async () => {
    const res = await t.post(
      '/api/v1/currency',
      { code: 'chf', name: 'Swiss Franc', symbol: 'CHF', exponent: 2 },
      admin,
    );
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      code: 'CHF',
      name: 'Swiss Franc',
      symbol: 'CHF',
      exponent: 2,
      is_active: true,
    });
    expect(
      (await t.post('/api/v1/currency', { code: 'CHF', name: 'x', symbol: 'x', exponent: 2 }, admin)).status,
    ).toBe(409);
    expect(
      (await t.post('/api/v1/currency', { code: 'CH', name: 'x', symbol: 'x', exponent: 2 }, admin)).status,
    ).toBe(400);
    expect(
      (await t.post('/api/v1/currency', { code: 'CHX', name: 'x', symbol: 'x', exponent: 9 }, admin)).status,
    ).toBe(400);
    const base = await t.patch('/api/v1/currency/USD', { is_active: false }, admin);
    expect(base.status).toBe(409);
    expect((await t.patch('/api/v1/currency/USD', { exponent: 3 }, admin)).status).toBe(409);
    expect((await t.patch('/api/v1/currency/QQQ', { name: 'x' }, admin)).status).toBe(404);
    expect((await t.patch('/api/v1/currency/CHF', {}, admin)).status).toBe(400);
  });

  it("gives the caller's branch currency and an overview", async () => {
    const cashier = await t.userWithRole('cashier');
    const branch = await t.get('/api/v1/currency/branch', cashier.token);
    expect(branch.body).toMatchObject({ branch_name: 'Main Branch', currency: { code: 'USD', exponent: 2 } });
    const overview = await t.get<{ base_currency: { code: string }; branches: unknown[] }>(
      '/api/v1/currency/overview',
      cashier.token,
    );
    expect(overview.status).toBe(200);
    expect(overview.body.base_currency.code).toBe('USD');
    expect(overview.body.branches.length).toBeGreaterThan(0);
  });
});

describe('exchange rates', () => {
  it('files rates and resolves the one in force at a time, directly or inverted', async () => {
    const early = await t.post(
      '/api/v1/currency/rates',
      { from_code: 'EUR', rate: 1.1, effective_at: '2026-01-01T00:00:00Z' },
      admin,
    );
    expect(early.status).toBe(201);
    expect(early.body).toMatchObject({ from_code: 'EUR', to_code: 'USD', rate: '1.1' });
    await t.post(
      '/api/v1/currency/rates',
      { from_code: 'EUR', rate: '1.25', effective_at: '2026-06-01T00:00:00Z' },
      admin,
    );
    const at = (when: string) =>
      t.get(`/api/v1/currency/effective?from=EUR&at=${encodeURIComponent(when)}`, admin);
    expect((await at('2026-03-01T00:00:00Z')).body).toMatchObject({ rate: '1.1', derived: 'direct' });
    expect((await at('2026-07-01T00:00:00Z')).body).toMatchObject({ rate: '1.25', derived: 'direct' });
    expect((await at('2025-12-31T00:00:00Z')).status).toBe(404);
    const inverse = await t.get('/api/v1/currency/effective?from=USD&to=EUR&at=2026-07-01T00:00:00Z', admin);
    expect(inverse.body).toMatchObject({ rate: '0.8', derived: 'inverse' });
    expect((await t.get('/api/v1/currency/effective?from=USD', admin)).body).toMatchObject({
      rate: '1',
      derived: 'identity',
    });
    const list = await t.get<{ items: Array<{ rate: string }>; total: number }>(
      '/api/v1/currency/rates?from_code=EUR',
      admin,
    );
    expect(list.body.items.map((r) => r.rate)).toEqual(['1.25', '1.1']);
  });

  it('refuses zero, negative and over-precise rates, same-currency pairs and inactive currencies', async () => {
    const before = await t.count('exchange_rates');
    for (const body of [
      { from_code: 'EUR', rate: 0 },
      { from_code: 'EUR', rate: -1 },
      { from_code: 'EUR', rate: '1.123456789012' },
      { from_code: 'EUR', rate: 'abc' },
      { from_code: 'USD', rate: 1 },
      { from_code: 'JPY', rate: 1 },
      { from_code: 'EUR', rate: 1, effective_at: 'yesterday' },
    ]) {
      const res = await t.post('/api/v1/currency/rates', body, admin);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await t.count('exchange_rates')).toBe(before);
  });

  it('checks a proposed sale rate against the tolerance in settings', async () => {
    await t.post('/api/v1/currency/rates', { from_code: 'GBP', rate: 1.3 }, admin);
    const ok = await t.post('/api/v1/currency/rates/check', { from_code: 'GBP', rate: 1.32 }, admin);
    expect(ok.body).toMatchObject({ within_tolerance: true, effective_rate: '1.3', tolerance_pct: '2.0000' });
    expect(ok.body.deviation_pct).toBe('1.5385');
    const far = await t.post('/api/v1/currency/rates/check', { from_code: 'GBP', rate: 1.4 }, admin);
    expect(far.body.within_tolerance).toBe(false);
    expect((await t.post('/api/v1/currency/rates/check', { from_code: 'KWD', rate: 3 }, admin)).status).toBe(
      404,
    );
  });
});
