import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
});
afterAll(() => t.close());

describe('audit trail', () => {
  it('records who did what, filterable and paged, newest first', async () => {
    const branch = await t.createBranch('AUD');
    const res = await t.get<{
      items: Array<{ id: string; action: string; user_name: string; after: { code: string } }>;
      total: number;
    }>(`/api/v1/audit?entity=branch&entity_id=${branch}`, admin);
    expect(res.body.total).toBe(1);
    expect(res.body.items[0]).toMatchObject({
      action: 'branch.create',
      user_name: 'Administrator',
      after: { code: 'AUD' },
    });
    const one = await t.get(`/api/v1/audit/${res.body.items[0]?.id}`, admin);
    expect(one.body).toEqual(res.body.items[0]);
    const page = await t.get<{ items: Array<{ created_at: string }> }>('/api/v1/audit?page_size=5', admin);
    const times = page.body.items.map((i) => i.created_at);
    expect([...times].sort().reverse()).toEqual(times);
    expect((await t.get('/api/v1/audit?from=2999-01-01T00:00:00Z', admin)).body.total).toBe(0);
    expect((await t.get('/api/v1/audit?from=tomorrow', admin)).status).toBe(400);
  });

  it('scopes a branch manager to their own branch', async () => {
    const other = await t.createBranch('AUD2');
    const manager = await t.userWithRole('branch_manager');
    const res = await t.get<{ items: Array<{ branch_id: string; id: string }> }>(
      `/api/v1/audit?branch_id=${other}`,
      manager.token,
    );
    expect(res.body.items.every((i) => i.branch_id === manager.branchId)).toBe(true);
    const foreign = await t.get<{ items: Array<{ id: string }> }>(`/api/v1/audit?branch_id=${other}`, admin);
    expect((await t.get(`/api/v1/audit/${foreign.body.items[0]?.id}`, manager.token)).status).toBe(403);
  });

  it('is append-only in the database itself', async () => {
    await expect(t.exec("UPDATE audit_log SET action = 'x'")).rejects.toThrow(/append-only/);
    await expect(t.exec('DELETE FROM audit_log')).rejects.toThrow(/append-only/);
  });

  it('404s an unknown entry', async () => {
    expect((await t.get('/api/v1/audit/01900000-0000-7000-8000-000000000000', admin)).status).toBe(404);
  });
});
