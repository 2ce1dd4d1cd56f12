import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness';

let t: TestServer;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
});
afterAll(() => t.close());

// JSON text as a client may send it: a lone surrogate escaped, which JSON.parse keeps as half a pair.
const withLoneSurrogate = (json: string) => json.replace('LONE', '\\ud800');

describe('L10: text with a lone UTF-16 surrogate', () => {
  it('refuses a medicine whose name holds a lone surrogate (400 naming name), nothing written', async () => {
    const before = await t.count('medicines');
    const res = await t.request('POST', '/api/v1/medicines', {
      token: admin,
      raw: withLoneSurrogate('{"name":"Para LONE cetamol","selling_price":5}'),
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      code: 'VALIDATION',
      errors: [{ path: 'name', message: expect.stringMatching(/lone UTF-16 surrogate/) }],
    });
    expect(res.body.detail).toMatch(/^name: /);
    expect(await t.count('medicines')).toBe(before);
  });

  it('names the field of a nested value, and of a key', async () => {
    const nested = await t.request('POST', '/api/v1/medicines', {
      token: admin,
      raw: withLoneSurrogate('{"name":"Ok","selling_price":5,"barcodes":["123","LONE"]}'),
    });
    expect(nested.status).toBe(400);
    expect(nested.body.errors).toEqual([{ path: 'barcodes.1', message: expect.any(String) }]);
    const key = await t.request('POST', '/api/v1/medicines', {
      token: admin,
      raw: withLoneSurrogate('{"name":"Ok","selling_price":5,"LONE":1}'),
    });
    expect(key.status).toBe(400);
  });

  it('accepts well-formed text outside the basic plane (a pill emoji is a surrogate pair)', async () => {
    const res = await t.post('/api/v1/medicines', { name: 'Vitamin D 💊 drops', selling_price: 5 }, admin);
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Vitamin D 💊 drops');
  });
});

describe('L10: refusal wording', () => {
  it('an admin-only route tells a cashier it needs the admin role', async () => {
    const cashier = await t.userWithRole('cashier');
    const res = await t.post('/api/v1/branches', { name: 'Branch X', code: 'BX' }, cashier.token);
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('This action needs the admin role; you are cashier.');
  });

  it('a route of several roles lists them, admin first, without an empty entry', async () => {
    const cashier = await t.userWithRole('cashier');
    const res = await t.post('/api/v1/purchase-orders', {}, cashier.token);
    expect(res.status).toBe(403);
    expect(res.body.detail).toMatch(
      /^This action needs one of the roles admin, [a-z_, ]+; you are cashier\.$/,
    );
    expect(res.body.detail).not.toMatch(/: ;|, ,/);
  });

  it('a branch manager acting on another branch is told it is not their branch', async () => {
    const other = await t.createBranch('NORTH');
    const manager = await t.userWithRole('branch_manager');
    const res = await t.post(
      '/api/v1/purchases',
      {
        branch_id: other,
        medicine_id: '0190a7f0-0000-7000-8000-000000000001',
        supplier_id: '0190a7f0-0000-7000-8000-000000000002',
        batch_number: 'B1',
        expiry_date: '2099-01-01',
        qty_received: 1,
        unit_cost: 1,
      },
      manager.token,
    );
    expect(res.status).toBe(403);
    expect(res.body.detail).toBe('That is not your branch; you can only act on your own branch.');
    expect(res.body.detail).not.toMatch(/branch belongs to another branch/);
  });
});
