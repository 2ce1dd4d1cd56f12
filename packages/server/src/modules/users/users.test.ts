import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let admin: string;
let main: string;
let other: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  main = await t.mainBranchId();
  other = await t.createBranch('NORTH');
});
afterAll(() => t.close());

const newUser = (over: Record<string, unknown> = {}) => ({
  email: `u${Math.random().toString(36).slice(2)}@x.local`,
  password: 'Secret#123',
  full_name: 'Zoë Ñandú',
  phone: '+255 700 000',
  role: 'cashier',
  branch_id: main,
  ...over,
});

describe('users', () => {
  it('creates a user and never returns the password hash', async () => {
    const res = await t.post('/api/v1/users', newUser(), admin);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      full_name: 'Zoë Ñandú',
      role: 'cashier',
      is_active: true,
      branch_name: 'Main Branch',
    });
    expect(JSON.stringify(res.body)).not.toMatch(/password_hash|argon2/);
    const audit = await t.get<{ items: Array<{ after: Record<string, unknown> }> }>(
      `/api/v1/audit?entity=user&entity_id=${res.body.id}`,
      admin,
    );
    expect(audit.body.items[0]?.after).not.toHaveProperty('password_hash');
  });

  it('refuses a duplicate email with 409 and an unknown branch with 404', async () => {
    const body = newUser();
    expect((await t.post('/api/v1/users', body, admin)).status).toBe(201);
    const dup = await t.post('/api/v1/users', { ...body, email: body.email.toUpperCase() }, admin);
    expect(dup.status).toBe(409);
    const unknown = await t.post(
      '/api/v1/users',
      newUser({ branch_id: '01900000-0000-7000-8000-000000000000' }),
      admin,
    );
    expect(unknown.status).toBe(404);
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const before = await t.count('users');
    const bad = [
      newUser({ email: 'not-an-email' }),
      newUser({ password: 'short' }),
      newUser({ role: 'superuser' }),
      newUser({ full_name: '' }),
      newUser({ full_name: 'x'.repeat(10_000) }),
      newUser({ branch_id: "1' OR '1'='1" }),
      newUser({ full_name: 42 }),
      { ...newUser(), email: undefined },
    ];
    for (const body of bad) {
      const res = await t.post('/api/v1/users', body, admin);
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(400);
      expect(res.body.errors).toBeInstanceOf(Array);
    }
    expect(await t.count('users')).toBe(before);
  });

  it('lets a branch manager manage cashiers and pharmacists of their own branch only', async () => {
    const manager = await t.userWithRole('branch_manager');
    expect((await t.post('/api/v1/users', newUser({ role: 'pharmacist' }), manager.token)).status).toBe(201);
    const asAdmin = await t.post('/api/v1/users', newUser({ role: 'admin' }), manager.token);
    expect(asAdmin.status).toBe(403);
    expect(asAdmin.body.code).toBe('ROLE_NOT_GRANTABLE');
    expect((await t.post('/api/v1/users', newUser({ branch_id: other }), manager.token)).status).toBe(403);
    const list = await t.get<{ items: Array<{ branch_id: string }> }>(
      `/api/v1/users?branch_id=${other}`,
      manager.token,
    );
    expect(list.status).toBe(200);
    expect(list.body.items.every((u) => u.branch_id === main)).toBe(true);
    const north = await t.post<{ id: string }>('/api/v1/users', newUser({ branch_id: other }), admin);
    expect((await t.get(`/api/v1/users/${north.body.id}`, manager.token)).status).toBe(403);
    expect((await t.put(`/api/v1/users/${north.body.id}`, { full_name: 'X' }, manager.token)).status).toBe(
      403,
    );
    // and cannot promote one of their cashiers to admin
    const own = await t.post<{ id: string }>('/api/v1/users', newUser(), manager.token);
    expect((await t.put(`/api/v1/users/${own.body.id}`, { role: 'admin' }, manager.token)).status).toBe(403);
  });

  it('updates role, branch and activity and revokes the old tokens', async () => {
    const body = newUser();
    const createdUser = await t.post<{ id: string }>('/api/v1/users', body, admin);
    const token = await t.login(body.email, body.password);
    const res = await t.put(
      `/api/v1/users/${createdUser.body.id}`,
      { role: 'pharmacist', branch_id: other },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ role: 'pharmacist', branch_id: other, branch_name: 'Branch NORTH' });
    expect((await t.get('/api/v1/auth/me', token)).status).toBe(401);
    // a name change does not revoke
    const fresh = await t.login(body.email, body.password);
    expect(
      (await t.put(`/api/v1/users/${createdUser.body.id}`, { full_name: 'New Name' }, admin)).status,
    ).toBe(200);
    expect((await t.get('/api/v1/auth/me', fresh)).status).toBe(200);
  });

  it('refuses an empty update, unknown fields and a missing user', async () => {
    const created = await t.post<{ id: string }>('/api/v1/users', newUser(), admin);
    const empty = await t.put(`/api/v1/users/${created.body.id}`, {}, admin);
    expect(empty.status).toBe(400);
    expect(empty.body.detail).toMatch(/No fields to update/);
    expect((await t.put(`/api/v1/users/${created.body.id}`, { password_hash: 'x' }, admin)).status).toBe(400);
    expect(
      (await t.put('/api/v1/users/01900000-0000-7000-8000-000000000000', { full_name: 'X' }, admin)).status,
    ).toBe(404);
    expect((await t.get('/api/v1/users/not-a-uuid', admin)).status).toBe(400);
  });

  it('protects the last admin and the caller from self-deactivation', async () => {
    const me = await t.get<{ id: string }>('/api/v1/auth/me', admin);
    const res = await t.put(`/api/v1/users/${me.body.id}`, { role: 'cashier' }, admin);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('LAST_ADMIN');
  });

  it('resets a password: admin only, confirmed, audited as a reset, forcing a change', async () => {
    const body = newUser();
    const created = await t.post<{ id: string }>('/api/v1/users', body, admin);
    const old = await t.login(body.email, body.password);
    const url = `/api/v1/users/${created.body.id}/reset-password`;
    expect((await t.post(url, { new_password: 'short', confirm_password: 'short' }, admin)).status).toBe(400);
    const mismatch = await t.post(
      url,
      { new_password: 'Another#123', confirm_password: 'Another#124' },
      admin,
    );
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.errors).toEqual([
      { path: 'confirm_password', message: 'confirm_password must equal new_password' },
    ]);
    const manager = await t.userWithRole('branch_manager');
    expect(
      (await t.post(url, { new_password: 'Another#123', confirm_password: 'Another#123' }, manager.token))
        .status,
    ).toBe(403);
    expect(
      (
        await t.post(
          '/api/v1/users/01900000-0000-7000-8000-000000000000/reset-password',
          { new_password: 'Another#123', confirm_password: 'Another#123' },
          admin,
        )
      ).status,
    ).toBe(404);
    const ok = await t.post(url, { new_password: 'Another#123', confirm_password: 'Another#123' }, admin);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ id: created.body.id, must_change_password: true });
    expect((await t.get('/api/v1/auth/me', old)).status).toBe(401);
    expect((await t.post('/api/v1/auth/login', { email: body.email, password: 'Another#123' })).status).toBe(
      200,
    );
    const audit = await t.get<{ total: number }>(
      `/api/v1/audit?action=user.password_reset&entity_id=${created.body.id}`,
      admin,
    );
    expect(audit.body.total).toBe(1);
  });

  it('lists with filters and pagination capped at 200', async () => {
    const res = await t.get<{ items: unknown[]; total: number; page_size: number }>(
      '/api/v1/users?role=cashier&page_size=2',
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body.items.length).toBeLessThanOrEqual(2);
    expect(res.body.total).toBeGreaterThanOrEqual(2);
    // The same total on the last page, and past it where no row carries it.
    const total = res.body.total;
    const last = await t.get<{ items: unknown[]; total: number }>(
      `/api/v1/users?role=cashier&page_size=2&page=${Math.ceil(total / 2)}`,
      admin,
    );
    expect(last.body.items.length).toBe(total - 2 * (Math.ceil(total / 2) - 1));
    expect(last.body.total).toBe(total);
    const past = await t.get<{ items: unknown[]; total: number }>(
      `/api/v1/users?role=cashier&page_size=2&page=${Math.ceil(total / 2) + 5}`,
      admin,
    );
    expect(past.body).toMatchObject({ items: [], total });
    expect((await t.get('/api/v1/users?page_size=201', admin)).status).toBe(400);
    expect((await t.get('/api/v1/users?page=0', admin)).status).toBe(400);
    const search = await t.get<{ items: Array<{ full_name: string }> }>(
      `/api/v1/users?search=${encodeURIComponent("%' OR 1=1 --")}`,
      admin,
    );
    expect(search.status).toBe(200);
    expect(search.body.items).toEqual([]);
  });
});

describe('search', () => {
  it('matches LIKE wildcards literally', async () => {
    const t2 = await startTestServer();
    try {
      const token = await t2.adminToken();
      await t2.post(
        '/api/v1/users',
        {
          email: 'pct@x.local',
          password: 'Secret#123',
          full_name: '50% Off Clerk',
          role: 'cashier',
          branch_id: await t2.mainBranchId(),
        },
        token,
      );
      const pct = await t2.get<{ items: Array<{ full_name: string }> }>(
        `/api/v1/users?search=${encodeURIComponent('50%')}`,
        token,
      );
      expect(pct.body.items.map((u) => u.full_name)).toEqual(['50% Off Clerk']);
      const underscore = await t2.get<{ total: number }>(
        `/api/v1/users?search=${encodeURIComponent('_')}`,
        token,
      );
      expect(underscore.body.total).toBe(0);
    } finally {
      await t2.close();
    }
  });
});
