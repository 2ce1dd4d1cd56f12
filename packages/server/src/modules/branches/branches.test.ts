import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
});
afterAll(() => t.close());

describe('branches', () => {
  it('creates a branch with defaults from settings and reads it back', async () => {
    const res = await t.post(
      '/api/v1/branches',
      { name: 'Harbour', code: 'hbr-1', address: 'Dock 4', vat_number: 'VAT-9' },
      admin,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Harbour',
      code: 'HBR-1',
      currency_code: 'USD',
      timezone: 'UTC',
      is_active: true,
    });
    const read = await t.get(`/api/v1/branches/${res.body.id}`, admin);
    expect(read.body).toEqual(res.body);
  });

  it('refuses duplicates, an unknown currency, a bad time zone and bad codes', async () => {
    const before = await t.count('branches');
    expect((await t.post('/api/v1/branches', { name: 'main branch', code: 'ZZ' }, admin)).status).toBe(409);
    expect((await t.post('/api/v1/branches', { name: 'Unique', code: 'MAIN' }, admin)).status).toBe(409);
    expect(
      (await t.post('/api/v1/branches', { name: 'U2', code: 'U2', currency_code: 'XXX' }, admin)).status,
    ).toBe(400);
    expect(
      (await t.post('/api/v1/branches', { name: 'U3', code: 'U3', timezone: 'Mars/Olympus' }, admin)).status,
    ).toBe(400);
    expect((await t.post('/api/v1/branches', { name: 'U4', code: 'bad code!' }, admin)).status).toBe(400);
    expect(await t.count('branches')).toBe(before);
  });

  it('lets a branch manager update only their own branch', async () => {
    const north = await t.createBranch('N2');
    const manager = await t.userWithRole('branch_manager');
    const own = await t.put(`/api/v1/branches/${manager.branchId}`, { phone: '+1 555' }, manager.token);
    expect(own.status).toBe(200);
    expect(own.body.phone).toBe('+1 555');
    expect((await t.put(`/api/v1/branches/${north}`, { phone: '1' }, manager.token)).status).toBe(403);
    const cashier = await t.userWithRole('cashier');
    expect((await t.put(`/api/v1/branches/${north}`, { phone: '1' }, cashier.token)).status).toBe(403);
  });

  it("27.4: a branch manager sets the currencies their branch's drawer holds; an inactive one is refused beside the field", async () => {
    const manager = await t.userWithRole('branch_manager');
    const url = `/api/v1/branches/${manager.branchId}`;
    const set = await t.put(url, { drawer_currencies: ['eur', 'GBP', 'EUR'] }, manager.token);
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.drawer_currencies).toEqual(['EUR', 'GBP']);
    expect((await t.patch('/api/v1/currency/JPY', { is_active: false }, admin)).status).toBe(200);
    const audits = await t.count('audit_log');
    const refused = await t.put(url, { drawer_currencies: ['EUR', 'JPY'] }, manager.token);
    expect(refused.status).toBe(400);
    expect(refused.body.detail).toBe(
      'The drawer can only hold active currencies: JPY is not active (Back office → Currencies).',
    );
    expect(refused.body.errors).toEqual([
      { path: 'drawer_currencies', message: 'JPY: not an active currency' },
    ]);
    expect(await t.count('audit_log')).toBe(audits);
    expect((await t.get(url, manager.token)).body.drawer_currencies).toEqual(['EUR', 'GBP']);
    const cleared = await t.put(url, { drawer_currencies: [] }, manager.token);
    expect(cleared.body.drawer_currencies).toEqual([]);
    expect((await t.patch('/api/v1/currency/JPY', { is_active: true }, admin)).status).toBe(200);
  });

  it('refuses to deactivate a branch with active users', async () => {
    const res = await t.put(`/api/v1/branches/${await t.mainBranchId()}`, { is_active: false }, admin);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('BRANCH_IN_USE');
  });

  it('lists and searches branches for any signed-in user', async () => {
    const cashier = await t.userWithRole('cashier');
    const res = await t.get<{ items: Array<{ code: string }>; total: number }>(
      '/api/v1/branches?search=harb',
      cashier.token,
    );
    expect(res.status).toBe(200);
    expect(res.body.items.map((b) => b.code)).toEqual(['HBR-1']);
  });
});
