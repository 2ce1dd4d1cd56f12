import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@pharmacy/sync/testing';
import { newId } from '../../lib/ids';
import { startTestServer, type TestServer } from '../../testing/harness';
import { getLocalDeviceId } from '../fiscal/device';
import { syncStatus, tillReplicator } from '../sync/runtime';

/**
 * Z numbers are sequential per branch AND device: a Z-report belongs to the till that closed the session, so two
 * tills of one branch closing offline both take Z 1 and central accepts both closes.
 */
type Body = Record<string, unknown>;
const PASSWORD = 'Cashier#12345';

describe('Z numbers on one server', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t.close());

  it('numbers per device: another device of the branch holding Z 1 and 2 does not move this device', async () => {
    const branchId = await t.mainBranchId();
    const cashier = await t.userWithRole('cashier');
    const other = await t.userWithRole('pharmacist');
    const at = new Date().toISOString();
    // Sessions of another till of the branch, as a pull would bring them.
    for (const z of [1, 2])
      await t.exec(
        `INSERT INTO cash_sessions (id, user_id, branch_id, device_id, currency_code, opening_float, status,
           break_minutes, break_started_at, opened_at, closed_at, counted_cash, expected_cash, variance,
           z_number, notes, updated_at)
         VALUES (?, ?, ?, 'other-device', 'EUR', 0, 'closed', 0, NULL, ?, ?, 0, 0, 0, ?, '', ?)`,
        newId(),
        other.id,
        branchId,
        at,
        at,
        z,
        at,
      );
    const local = await getLocalDeviceId(t.context.db);
    for (const expected of [1, 2]) {
      const opened = await t.post<Body>('/api/v1/sessions/open', { opening_float: 0 }, cashier.token);
      expect(opened.status).toBe(201);
      expect(opened.body.device_id).toBe(local);
      const closed = await t.post<Body>('/api/v1/sessions/close', { counted_cash: 0 }, cashier.token);
      expect(closed.status, JSON.stringify(closed.body)).toBe(200);
      expect(closed.body).toMatchObject({ z_number: expected, device_id: local });
      const z = await t.get<Body>(`/api/v1/sessions/${String(opened.body.id)}/z-report`, cashier.token);
      expect(z.status).toBe(200);
      expect(z.body).toMatchObject({ z_number: expected, device_id: local, is_final: true });
    }
    // the same Z number twice for one device of one branch is still refused by the database
    // (SQLite: "UNIQUE constraint failed"; PostgreSQL: "duplicate key value violates unique constraint")
    await expect(
      t.exec(
        `INSERT INTO cash_sessions (id, user_id, branch_id, device_id, currency_code, opening_float, status,
           break_minutes, break_started_at, opened_at, closed_at, counted_cash, expected_cash, variance,
           z_number, notes, updated_at)
         VALUES (?, ?, ?, 'other-device', 'EUR', 0, 'closed', 0, NULL, ?, ?, 0, 0, 0, 1, '', ?)`,
        newId(),
        other.id,
        branchId,
        at,
        at,
        at,
      ),
    ).rejects.toThrow(/UNIQUE constraint failed|duplicate key value violates unique constraint/);
  });

  it('an open session is an X-report: no Z number yet, its device given', async () => {
    const cashier = await t.userWithRole('cashier');
    const opened = await t.post<Body>('/api/v1/sessions/open', { opening_float: 5 }, cashier.token);
    const x = await t.get<Body>(`/api/v1/sessions/${String(opened.body.id)}/z-report`, cashier.token);
    expect(x.body).toMatchObject({
      z_number: null,
      is_final: false,
      device_id: await getLocalDeviceId(t.context.db),
    });
    await t.post('/api/v1/sessions/close', { counted_cash: 5 }, cashier.token);
  });
});

describe('two tills of one branch closing sessions offline (in process, real replicators)', () => {
  let central: TestServer;
  const tills: TestServer[] = [];

  beforeAll(async () => {
    central = await startTestServer({ mode: 'central' });
    const admin = await central.adminToken();
    for (const name of ['Till 1', 'Till 2']) {
      const res = await central.post<{ device_id: string; device_token: string }>(
        '/api/v1/sync/devices/register',
        { name },
        admin,
      );
      expect(res.status).toBe(201);
      tills.push(
        await startTestServer({
          mode: 'till',
          centralUrl: central.baseUrl,
          syncDeviceId: res.body.device_id,
          syncDeviceToken: res.body.device_token,
          syncIntervalMs: 100,
          syncBackoffMaxMs: 200,
        }),
      );
    }
  }, 60_000);
  afterAll(async () => {
    for (const t of tills) await t.close();
    await central?.close();
  });

  it('each till takes Z 1 for its own device and central accepts both closes', async () => {
    const admin = await central.adminToken();
    const branchId = await central.mainBranchId();
    const emails = tills.map((_, i) => `z.cashier${i}@sync.test`);
    for (const [i, email] of emails.entries()) {
      const u = await central.post(
        '/api/v1/users',
        { email, password: PASSWORD, full_name: `Z Cashier ${i}`, role: 'cashier', branch_id: branchId },
        admin,
      );
      expect(u.status, JSON.stringify(u.body)).toBe(201);
    }
    // Each cashier signs in at their till for the first time and replaces the password central set.
    const tokens = await Promise.all(
      tills.map((t, i) =>
        // Wait for the user to arrive before signing in: each early attempt would count as a failed sign-in
        // and a slow replication would lock the account (429).
        eventually(`till ${i} has its cashier`, async () =>
          (await t.query('SELECT id FROM users WHERE email = ?', emails[i]!)).length > 0
            ? t.firstSignIn(emails[i]!, PASSWORD, `${PASSWORD}-mine`)
            : undefined,
        ),
      ),
    );
    // Offline: both replicators stop, each till opens and closes a session.
    for (const t of tills) await tillReplicator(t.context)!.stop();
    const closed: Body[] = [];
    for (const [i, t] of tills.entries()) {
      expect((await t.post('/api/v1/sessions/open', { opening_float: 10 }, tokens[i])).status).toBe(201);
      const c = await t.post<Body>('/api/v1/sessions/close', { counted_cash: 10 }, tokens[i]);
      expect(c.status, JSON.stringify(c.body)).toBe(200);
      expect(c.body.z_number).toBe(1);
      closed.push(c.body);
    }
    expect(closed[0]!.device_id).not.toBe(closed[1]!.device_id);
    // Back online: both outboxes drain with nothing rejected.
    for (const t of tills) tillReplicator(t.context)!.start();
    for (const [i, t] of tills.entries())
      await eventually(`till ${i} drained`, async () => {
        const s = await syncStatus(t.context);
        return s.pending === 0 && s.last_error === null && s.last_success_at !== null;
      });
    for (const t of tills) expect((await syncStatus(t.context)).rejected).toBe(0);
    const rows = await central.query(
      `SELECT id, device_id, status, z_number FROM cash_sessions WHERE id IN (?, ?) ORDER BY device_id`,
      closed[0]!.id,
      closed[1]!.id,
    );
    expect(rows).toEqual(
      closed
        .map((c) => ({ id: c.id, device_id: c.device_id, status: 'closed', z_number: 1 }))
        .sort((a, b) => (String(a.device_id) < String(b.device_id) ? -1 : 1)),
    );
    expect(await central.count('sync_conflicts')).toBe(0);
    // Each till also holds the other's closed session (pulled) without a local conflict.
    for (const [i, t] of tills.entries())
      await eventually(`till ${i} has both closed sessions`, async () => {
        const [n] = await t.query<{ n: number }>(
          `SELECT count(*) AS n FROM cash_sessions WHERE id IN (?, ?) AND status = 'closed'`,
          closed[0]!.id,
          closed[1]!.id,
        );
        return n?.n === 2;
      });
    for (const t of tills) expect(await t.count('sync_conflicts')).toBe(0);
  }, 60_000);
});
