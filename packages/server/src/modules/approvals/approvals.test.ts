import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { consumeApproval } from './service';

let t: TestServer;
let admin: string;
let main: string;
let other: string;
let cashier: { id: string; token: string };
let pharmacist: { id: string; token: string };
let manager: { id: string; token: string };
let managerOther: { id: string; token: string };

type Approval = {
  id: string;
  status: string;
  kind: string;
  is_expired: boolean;
  payload: Record<string, unknown>;
  decided_by_name: string | null;
};

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  main = await t.mainBranchId();
  other = await t.createBranch('APB');
  cashier = await t.userWithRole('cashier');
  pharmacist = await t.userWithRole('pharmacist');
  manager = await t.userWithRole('branch_manager');
  managerOther = await t.userWithRole('branch_manager', other);
});
afterAll(() => t.close());

async function ask(token = cashier.token, kind = 'discount') {
  const res = await t.post<Approval>(
    '/api/v1/approvals',
    { kind, payload: { sale_ref: 'cart-1', discount_pct: 15 }, reason: 'loyal customer' },
    token,
  );
  expect(res.status).toBe(201);
  return res.body;
}

const use = (
  id: string,
  over: Partial<{ kind: 'discount' | 'void'; branchId: string; userId: string }> = {},
) =>
  t.context.db
    .transaction()
    .execute((trx) =>
      consumeApproval(trx, { approvalId: id, kind: 'discount', branchId: main, userId: cashier.id, ...over }),
    );

describe('approvals', () => {
  it('a cashier asks, the branch manager approves, the cashier uses it once', async () => {
    const changes = t.count('change_log');
    const a = await ask();
    expect(a).toMatchObject({
      status: 'pending',
      kind: 'discount',
      is_expired: false,
      payload: { discount_pct: 15 },
    });
    const pending = await t.get<{ items: Approval[] }>('/api/v1/approvals', manager.token);
    expect(pending.body.items.map((i) => i.id)).toContain(a.id);
    const elsewhere = await t.get<{ items: Approval[] }>('/api/v1/approvals', managerOther.token);
    expect(elsewhere.body.items.map((i) => i.id)).not.toContain(a.id);
    const mine = await t.get<{ items: Approval[] }>('/api/v1/approvals', cashier.token);
    expect(mine.body.items.map((i) => i.id)).toEqual([a.id]);
    const theirs = await t.get<{ items: Approval[] }>('/api/v1/approvals', pharmacist.token);
    expect(theirs.body.items).toEqual([]);

    await expect(use(a.id)).rejects.toMatchObject({ status: 403, code: 'APPROVAL_REQUIRED' });
    const ok = await t.put<Approval>(
      `/api/v1/approvals/${a.id}`,
      { status: 'approved', reason: 'fine' },
      manager.token,
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'approved', decided_by_name: 'Test branch_manager' });
    const twice = await t.put<{ code: string; detail: string }>(
      `/api/v1/approvals/${a.id}`,
      { status: 'rejected', reason: 'no' },
      admin,
    );
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toContain('approved');

    await expect(use(a.id, { kind: 'void' })).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });
    await expect(use(a.id, { branchId: other })).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });
    await expect(use(a.id, { userId: pharmacist.id })).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });
    const used = await use(a.id);
    expect(used).toMatchObject({ status: 'used', payload: { sale_ref: 'cart-1' } });
    await expect(use(a.id)).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });
    expect(t.count('change_log')).toBe(changes + 3);
    const actions = t.context.sqlite
      .prepare('SELECT action FROM audit_log WHERE entity_id = ? ORDER BY created_at, id')
      .all(a.id)
      .map((r) => (r as { action: string }).action);
    expect(actions).toEqual(['approval.request', 'approval.approve', 'approval.use']);
  });

  it('a rolled-back caller leaves the approval unused', async () => {
    const a = await ask();
    await t.put(`/api/v1/approvals/${a.id}`, { status: 'approved', reason: 'ok' }, manager.token);
    await expect(
      t.context.db.transaction().execute(async (trx) => {
        await consumeApproval(trx, {
          approvalId: a.id,
          kind: 'discount',
          branchId: main,
          userId: cashier.id,
        });
        throw new Error('sale failed');
      }),
    ).rejects.toThrow('sale failed');
    expect((await use(a.id)).status).toBe('used');
  });

  it('rejects, refuses expired, self, other-branch and role-less decisions', async () => {
    const a = await ask();
    const no = await t.put<Approval>(
      `/api/v1/approvals/${a.id}`,
      { status: 'rejected', reason: 'too much' },
      admin,
    );
    expect(no.body.status).toBe('rejected');
    await expect(use(a.id)).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });

    const b = await ask();
    expect(
      (await t.put(`/api/v1/approvals/${b.id}`, { status: 'approved', reason: 'x' }, managerOther.token))
        .status,
    ).toBe(403);
    expect(
      (await t.put(`/api/v1/approvals/${b.id}`, { status: 'approved', reason: 'x' }, cashier.token)).status,
    ).toBe(403);
    expect((await t.put(`/api/v1/approvals/${b.id}`, { status: 'approved' }, manager.token)).status).toBe(
      400,
    );
    expect(
      (await t.put(`/api/v1/approvals/${b.id}`, { status: 'used', reason: 'x' }, manager.token)).status,
    ).toBe(400);
    t.context.sqlite
      .prepare('UPDATE approvals SET expires_at = ? WHERE id = ?')
      .run('2000-01-01T00:00:00.000Z', b.id);
    const late = await t.put<{ code: string }>(
      `/api/v1/approvals/${b.id}`,
      { status: 'approved', reason: 'x' },
      manager.token,
    );
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('APPROVAL_EXPIRED');
    const expired = await t.get<{ items: Approval[] }>('/api/v1/approvals?status=all', manager.token);
    expect(expired.body.items.find((i) => i.id === b.id)?.is_expired).toBe(true);

    const own = await ask(manager.token, 'stock_variance');
    const self = await t.put<{ code: string }>(
      `/api/v1/approvals/${own.id}`,
      { status: 'approved', reason: 'x' },
      manager.token,
    );
    expect(self.status).toBe(403);
    expect(self.body.code).toBe('SELF_APPROVAL');
    expect(
      (await t.put(`/api/v1/approvals/${randomUUID()}`, { status: 'approved', reason: 'x' }, admin)).status,
    ).toBe(404);

    const c = await ask();
    await t.put(`/api/v1/approvals/${c.id}`, { status: 'approved', reason: 'ok' }, manager.token);
    t.context.sqlite
      .prepare('UPDATE approvals SET expires_at = ? WHERE id = ?')
      .run('2000-01-01T00:00:00.000Z', c.id);
    await expect(use(c.id)).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });
    await expect(use(randomUUID())).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });
  });

  it('refuses bad requests and auditors', async () => {
    const before = t.count('approvals');
    for (const body of [
      {},
      { kind: 'refund', reason: 'x' },
      { kind: 'discount' },
      { kind: 'discount', reason: '' },
      { kind: 'discount', reason: 'x', payload: [] },
      { kind: 'discount', reason: 'x', payload: { nested: { a: 1 } } },
      {
        kind: 'discount',
        reason: 'x',
        payload: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, i])),
      },
      { kind: 'discount', reason: 'x'.repeat(501) },
    ]) {
      expect(
        (await t.post('/api/v1/approvals', body, cashier.token)).status,
        JSON.stringify(body).slice(0, 80),
      ).toBe(400);
    }
    const auditor = await t.userWithRole('auditor');
    expect((await t.post('/api/v1/approvals', { kind: 'void', reason: 'x' }, auditor.token)).status).toBe(
      403,
    );
    expect((await t.get('/api/v1/approvals?status=maybe', admin)).status).toBe(400);
    expect(t.count('approvals')).toBe(before);
  });
});
