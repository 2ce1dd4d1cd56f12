import { credentialFile, writeCredential } from '@pharmacy/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../http/auth';
import { setTillBranch, tillBranch } from './till-identity';
import { ADMIN, startTestServer, type TestServer } from '../../testing/harness';
import { getMeta } from './meta';
import { tillReplicator } from './runtime';
import { TillStore } from './till-store';

/**
 * Users pull to the tills of their branch only. A user moved from branch A to branch B must stop working at
 * branch A's tills: the old branch's tills receive the moved row (its tokens revoked) and every till refuses a
 * branch-bound user of another branch. Central and one till per branch in process, real replicators.
 */
const PASSWORD = 'Cashier#12345';
let central: TestServer;
let tillA: TestServer;
let tillB: TestServer;
let admin: string;
let branchA: string;
let branchB: string;
const devices: Record<'A' | 'B', { id: string; token: string }> = {} as never;

const sync = (t: TestServer) => tillReplicator(t.context)!.syncNow();
const login = (t: TestServer, email: string, password = PASSWORD) =>
  t.post<{ access_token: string; code: string; detail: string }>('/api/v1/auth/login', { email, password });

async function newUser(email: string, role: string, branchId: string): Promise<string> {
  const res = await central.post<{ id: string }>(
    '/api/v1/users',
    { email, password: PASSWORD, full_name: `Moved ${role}`, role, branch_id: branchId },
    admin,
  );
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body.id;
}

async function startTill(
  name: string,
  branchId: string,
): Promise<{ till: TestServer; id: string; token: string }> {
  const res = await central.post<{ device_id: string; device_token: string }>(
    '/api/v1/sync/devices/register',
    { name, branch_id: branchId },
    admin,
  );
  expect(res.status).toBe(201);
  const till = await startTestServer({
    mode: 'till',
    centralUrl: central.baseUrl,
    syncDeviceId: res.body.device_id,
    syncDeviceToken: res.body.device_token,
    // The first cycle (the bootstrap) runs at start; the test drives every later one with syncNow().
    syncIntervalMs: 600_000,
    syncBackoffMaxMs: 200,
  });
  return { till, id: res.body.device_id, token: res.body.device_token };
}

beforeAll(async () => {
  central = await startTestServer({ mode: 'central' });
  admin = await central.adminToken();
  branchA = await central.mainBranchId();
  branchB = await central.createBranch('MOVEB');
  const a = await startTill('Till A', branchA);
  const b = await startTill('Till B', branchB);
  tillA = a.till;
  tillB = b.till;
  devices.A = { id: a.id, token: a.token };
  devices.B = { id: b.id, token: b.token };
  for (const t of [tillA, tillB]) await sync(t);
}, 60_000);

afterAll(async () => {
  for (const t of [tillA, tillB]) await t?.close();
  await central?.close();
});

describe('a user moved to another branch', () => {
  it('is revoked and refused at the old branch tills, also after a later deactivation; organisation-wide roles reach every till', async () => {
    // Each till recorded its branch from the snapshot header.
    expect(await getMeta(tillA.context.db, 'branch_id')).toBe(branchA);
    expect(await getMeta(tillB.context.db, 'branch_id')).toBe(branchB);

    const cashierEmail = 'moved.cashier@sync.test';
    const auditorEmail = 'moved.auditor@sync.test';
    const cashierId = await newUser(cashierEmail, 'cashier', branchA);
    const auditorId = await newUser(auditorEmail, 'auditor', branchA);
    await sync(tillA);
    const signedIn = await login(tillA, cashierEmail);
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const oldToken = signedIn.body.access_token;
    expect((await tillA.get('/api/v1/auth/me', oldToken)).status).toBe(200);
    expect((await login(tillA, auditorEmail)).status).toBe(200);
    // Till B never had branch A's users.
    expect((await login(tillB, cashierEmail)).status).toBe(401);

    // Admin moves both to branch B on central: the change goes to branch B and to the old branch A.
    for (const id of [cashierId, auditorId]) {
      const moved = await central.put(`/api/v1/users/${id}`, { branch_id: branchB }, admin);
      expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    }
    const logged = (
      await central.query<{ branch_id: string | null; payload: string }>(
        "SELECT branch_id, payload FROM change_log WHERE entity = 'user' AND entity_id = ? ORDER BY revision",
        cashierId,
      )
    ).map((r) => ({ branch_id: r.branch_id, row_branch: JSON.parse(r.payload).branch_id }));
    expect(logged).toEqual([
      { branch_id: branchA, row_branch: branchA },
      { branch_id: branchB, row_branch: branchB },
      { branch_id: branchA, row_branch: branchB },
    ]);

    await sync(tillA);
    expect(await tillA.query('SELECT branch_id, token_version FROM users WHERE id = ?', cashierId)).toEqual([
      { branch_id: branchB, token_version: 1 },
    ]);
    // The token issued at till A before the move is revoked there.
    const revoked = await tillA.get<{ code: string }>('/api/v1/auth/me', oldToken);
    expect(revoked.status).toBe(401);
    expect(revoked.body.code).toBe('TOKEN_REVOKED');
    // A fresh sign-in at till A is refused with a clear reason.
    const refused = await login(tillA, cashierEmail);
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe('OTHER_BRANCH_TILL');
    expect(refused.body.detail).toMatch(/another branch.*sign in at a till of your branch/);
    expect(
      await tillA.query("SELECT entity_id, after_json FROM audit_log WHERE action = 'auth.login_refused'"),
    ).toEqual([
      { entity_id: cashierId, after_json: expect.stringContaining('"reason":"OTHER_BRANCH_TILL"') },
    ]);
    // A token matching the current row (as if issued before the till knew its branch) is refused on every request.
    const [row] = await tillA.query<{ id: string; role: string; branch_id: string; token_version: number }>(
      'SELECT id, role, branch_id, token_version FROM users WHERE id = ?',
      cashierId,
    );
    if (!row) throw new Error('the moved cashier is missing at till A');
    const { token: current } = await issueToken(tillA.context, row, 12);
    const perRequest = await tillA.get<{ code: string }>('/api/v1/auth/me', current);
    expect(perRequest.status).toBe(403);
    expect(perRequest.body.code).toBe('OTHER_BRANCH_TILL');
    // An organisation-wide role moved away still signs in at till A.
    expect((await login(tillA, auditorEmail)).status).toBe(200);

    // Till B (the new branch) got the cashier and signs them in; an organisation-wide user reaches every till.
    await sync(tillB);
    expect((await login(tillB, cashierEmail)).status).toBe(200);
    expect((await login(tillB, auditorEmail)).status).toBe(200);

    // Admin deactivates the cashier on central (a change scoped to branch B only): till A still refuses.
    const off = await central.put(`/api/v1/users/${cashierId}`, { is_active: false }, admin);
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    for (const t of [tillA, tillB]) await sync(t);
    const stillRefused = await login(tillA, cashierEmail);
    expect(stillRefused.status).toBe(403);
    expect(stillRefused.body.code).toBe('OTHER_BRANCH_TILL');
    const inactive = await login(tillB, cashierEmail);
    expect(inactive.status).toBe(403);
    expect(inactive.body.code).toBe('ACCOUNT_INACTIVE');

    // An admin still signs in at till A.
    expect((await login(tillA, ADMIN.email, ADMIN.password)).status).toBe(200);

    // The auditor becomes a cashier of branch B: the narrowed row reaches every till, and till A refuses them.
    const demoted = await central.put(`/api/v1/users/${auditorId}`, { role: 'cashier' }, admin);
    expect(demoted.status, JSON.stringify(demoted.body)).toBe(200);
    for (const t of [tillA, tillB]) await sync(t);
    const narrowed = await login(tillA, auditorEmail);
    expect(narrowed.status).toBe(403);
    expect(narrowed.body.code).toBe('OTHER_BRANCH_TILL');
    expect((await login(tillB, auditorEmail)).status).toBe(200);
  });

  it('records no branch from a snapshot without one (nobody refused), else falls back to the credential file', async () => {
    await tillReplicator(tillA.context)!.stop();
    const res = await fetch(`${central.baseUrl}/api/v1/sync/snapshot?device_id=${devices.A.id}`, {
      headers: { 'x-device-token': devices.A.token },
    });
    const lines = (await res.text()).split('\n');
    const header = JSON.parse(lines[0]!) as Record<string, unknown>;
    expect(header.branch_id).toBe(branchA);
    const { branch_id: _, ...older } = header;
    const load = (first: string) =>
      new TillStore(tillA.context).loadSnapshot(
        (async function* () {
          yield first;
          yield* lines.slice(1);
        })(),
      );

    await load(JSON.stringify(older));
    expect(await getMeta(tillA.context.db, 'branch_id')).toBeNull();
    expect(tillBranch(tillA.context)).toBeNull();

    // A till registered with the CLI has its branch in its credential file.
    writeCredential(credentialFile(tillA.dataDir), {
      central_url: central.baseUrl,
      device_id: devices.A.id,
      device_token: devices.A.token,
      branch_id: branchA,
      name: 'Till A',
      registered_at: new Date().toISOString(),
    });
    setTillBranch(tillA.context, null);
    expect(tillBranch(tillA.context)).toBe(branchA);

    // The snapshot header is the source of truth whenever it names the branch.
    await load(lines[0]!);
    expect(await getMeta(tillA.context.db, 'branch_id')).toBe(branchA);
    expect(tillBranch(tillA.context)).toBe(branchA);
  });
});
