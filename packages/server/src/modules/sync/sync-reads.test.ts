import { BRANCH_BOUND_ROLES, type Role } from '@pharmacy/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, startTestServer, type TestServer, USER_PASSWORD } from '../../testing/harness';
import { tillReplicator } from './runtime';

/**
 * Issue 26, read side: what pull and snapshot serve to whom (H1), and a password change at a connected till
 * made at head office (C2). A real central and a till of branch A in process, with real replicators.
 */
let central: TestServer;
let tillA: TestServer;
let admin: string;
let branchA: string;
let branchB: string;
let deviceA: { id: string; token: string };

type Row = { type: string; entity?: string; payload?: Record<string, unknown> };
const usersIn = (rows: Row[]) =>
  rows.filter((r) => r.type === 'row' && r.entity === 'user').map((r) => r.payload!);

async function snapshot(
  headers: Record<string, string>,
): Promise<{ status: number; users: Record<string, unknown>[] }> {
  const res = await fetch(`${central.baseUrl}/api/v1/sync/snapshot?device_id=${deviceA.id}`, { headers });
  const text = await res.text();
  if (res.status !== 200) return { status: res.status, users: [] };
  return {
    status: 200,
    users: usersIn(
      text
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as Row),
    ),
  };
}

async function pull(
  headers: Record<string, string>,
): Promise<{ status: number; users: Record<string, unknown>[] }> {
  const res = await central.request<{ changes: Array<{ entity: string; payload: Record<string, unknown> }> }>(
    'GET',
    `/api/v1/sync/pull?device_id=${deviceA.id}&since=0&limit=1000`,
    { headers },
  );
  if (res.status !== 200) return { status: res.status, users: [] };
  return { status: 200, users: res.body.changes.filter((c) => c.entity === 'user').map((c) => c.payload) };
}

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const device = () => ({ 'x-device-token': deviceA.token });
const sync = () => tillReplicator(tillA.context)!.syncNow();

beforeAll(async () => {
  central = await startTestServer({ mode: 'central' });
  admin = await central.adminToken();
  branchA = await central.mainBranchId();
  branchB = await central.createBranch('READB');
  // Staff of both branches and organisation-wide accounts, all with a password of their own.
  for (const role of ['cashier', 'branch_manager', 'pharmacist', 'auditor', 'inventory_manager'] as const)
    await central.userWithRole(role, branchA);
  await central.userWithRole('cashier', branchB);
  deviceA = await central.registerDevice('Till A', branchA);
  tillA = await startTestServer({
    mode: 'till',
    centralUrl: central.baseUrl,
    syncDeviceId: deviceA.id,
    syncDeviceToken: deviceA.token,
    syncIntervalMs: 600_000,
    syncBackoffMaxMs: 200,
  });
  await sync();
}, 90_000);

afterAll(async () => {
  await tillA?.close();
  await central?.close();
});

describe('H1: pull and snapshot serve a device of the branch and an admin, hashes only to the device for its staff', () => {
  it('H1: a person of any role but admin gets 403 from pull and snapshot, even for a device of their branch', async () => {
    for (const role of ['cashier', 'pharmacist', 'branch_manager', 'auditor', 'inventory_manager'] as const) {
      const { token } = await central.userWithRole(role, branchA);
      expect((await pull(bearer(token))).status, role).toBe(403);
      expect((await snapshot(bearer(token))).status, role).toBe(403);
    }
    expect((await pull(bearer(admin))).status).toBe(200);
    expect((await snapshot(bearer(admin))).status).toBe(200);
  });

  it("H1: a device receives verifiers only for its branch's staff; an admin's read carries none", async () => {
    const isStaffOfA = (u: Record<string, unknown>) =>
      BRANCH_BOUND_ROLES.includes(u.role as Role) && u.branch_id === branchA;
    for (const read of [snapshot, pull]) {
      const byDevice = await read(device());
      expect(byDevice.status).toBe(200);
      const staff = byDevice.users.filter(isStaffOfA);
      expect(staff.length).toBeGreaterThanOrEqual(3);
      for (const u of staff) expect(String(u.password_hash)).toMatch(/^\$argon2id\$/);
      const others = byDevice.users.filter((u) => !isStaffOfA(u));
      // The admin, the auditor, the inventory manager (and, in pull, branch B's cashier).
      expect(others.map((u) => u.role)).toEqual(
        expect.arrayContaining(['admin', 'auditor', 'inventory_manager']),
      );
      for (const u of others) expect(u.password_hash, String(u.email)).toBe('');

      const byAdmin = await read(bearer(admin));
      expect(byAdmin.users.length).toBeGreaterThan(0);
      for (const u of byAdmin.users) expect(u.password_hash, String(u.email)).toBe('');
    }
  });

  it('H1: the till holds no verifier for an organisation-wide account, which signs in there through head office', async () => {
    const rows = await tillA.query<{ email: string; password_hash: string }>(
      'SELECT email, password_hash FROM users WHERE email = ?',
      ADMIN.email,
    );
    expect(rows[0]?.password_hash).toBe('');
    const ok = await tillA.post('/api/v1/auth/login', ADMIN);
    expect(ok.status, JSON.stringify(ok.body)).toBe(200);
    const wrong = await tillA.post('/api/v1/auth/login', { email: ADMIN.email, password: 'Not-the-admin#9' });
    expect(wrong.status).toBe(401);
  });
});

describe('C2: a password change at a connected till is made at head office', () => {
  it('C2: the cashier changes their password at the till; head office and the till take the new one, nothing is pushed', async () => {
    const email = 'c2.cashier@sync.test';
    const created = await central.post(
      '/api/v1/users',
      { email, password: USER_PASSWORD, full_name: 'C2 Cashier', role: 'cashier', branch_id: branchA },
      admin,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await sync();
    const signedIn = await tillA.post<{ access_token: string }>('/api/v1/auth/login', {
      email,
      password: USER_PASSWORD,
    });
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const conflictsBefore = await central.count('sync_conflicts');

    const weak = await tillA.post<{ code: string }>(
      '/api/v1/auth/change-password',
      { current_password: USER_PASSWORD, new_password: 'Pharmacy1' },
      signedIn.body.access_token,
    );
    expect(weak.status).toBe(400);
    expect(weak.body.code).toBe('WEAK_PASSWORD');

    const NEW = 'Brisk-Lantern#73';
    const changed = await tillA.post<{ access_token: string }>(
      '/api/v1/auth/change-password',
      { current_password: USER_PASSWORD, new_password: NEW },
      signedIn.body.access_token,
    );
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    expect((await tillA.get('/api/v1/auth/me', changed.body.access_token)).status).toBe(200);
    expect((await central.post('/api/v1/auth/login', { email, password: NEW })).status).toBe(200);
    expect((await central.post('/api/v1/auth/login', { email, password: USER_PASSWORD })).status).toBe(401);
    expect((await tillA.post('/api/v1/auth/login', { email, password: NEW })).status).toBe(200);
    await sync();
    expect(await central.count('sync_conflicts')).toBe(conflictsBefore);
  });

  it('C2: a till whose head office does not answer says so in plain words and keeps the old password', async () => {
    const dead = await startTestServer({ mode: 'central' });
    const registered = await dead.registerDevice('Till lost');
    const url = dead.baseUrl;
    await dead.close();
    const offline = await startTestServer({
      mode: 'till',
      centralUrl: url,
      syncDeviceId: registered.id,
      syncDeviceToken: registered.token,
      syncIntervalMs: 600_000,
      syncBackoffMaxMs: 200,
    });
    try {
      const token = await offline.adminToken();
      const res = await offline.post<{ detail: string; code: string }>(
        '/api/v1/auth/change-password',
        { current_password: ADMIN.password, new_password: 'Brisk-Lantern#74' },
        token,
      );
      expect(res.status).toBe(503);
      expect(res.body.detail).toContain(
        'This till is offline; your password can be changed when it is connected to head office',
      );
      expect((await offline.post('/api/v1/auth/login', ADMIN)).status).toBe(200);
    } finally {
      await offline.close();
    }
  });
});
