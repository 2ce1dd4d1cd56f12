import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let admin: string;
let cashier: { token: string };
let manager: { token: string };

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  cashier = await t.userWithRole('cashier');
  manager = await t.userWithRole('branch_manager');
});
afterAll(() => t.close());

describe('changelog', () => {
  it('admin publishes, everybody reads newest first', async () => {
    const first = await t.post<{ id: string }>(
      '/api/v1/changelog',
      { title: 'Till 0.1', body: 'First release', version: '0.1.0' },
      admin,
    );
    expect(first.status).toBe(201);
    const second = await t.post<{ id: string; kind: string; created_by_name: string }>(
      '/api/v1/changelog',
      { title: 'New branch in Dodoma', kind: 'organisation' },
      admin,
    );
    expect(second.body).toMatchObject({ kind: 'organisation', created_by_name: expect.any(String) });
    const list = await t.get<{ items: Array<{ id: string }>; total: number }>(
      '/api/v1/changelog',
      cashier.token,
    );
    expect(list.body.items.map((i) => i.id)).toEqual([second.body.id, first.body.id]);
    const releases = await t.get<{ items: Array<{ id: string }> }>(
      '/api/v1/changelog?kind=release',
      cashier.token,
    );
    expect(releases.body.items.map((i) => i.id)).toEqual([first.body.id]);
    expect((await t.post('/api/v1/changelog', { title: 'x' }, manager.token)).status).toBe(403);
    for (const body of [{}, { title: '' }, { title: 'x', version: 'v 1' }, { title: 'x', kind: 'rumour' }]) {
      expect((await t.post('/api/v1/changelog', body, admin)).status).toBe(400);
    }
  });
});
