import net from 'node:net';
import { credentialFile, writeCredential } from '@pharmacy/sync';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids';
import { startTestServer, type TestServer, USER_PASSWORD } from '../../testing/harness';
import { pushedApproval } from '../../testing/pushed-sale';

/**
 * Issue 29 (manager override on the same till) and issue 26 H2 (a device carries a manager's decision only
 * with the manager's sign-in at that device), against a real till and a real central over HTTP.
 */

type Approval = { id: string; status: string; decided_by: string | null; decided_at_device: string | null };
type Person = { id: string; token: string; email: string };

const DEVICE_ID = 'till-device-override-1';

/** A loopback port nothing listens on: head office is down. */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((done) => server.close(done));
  return port;
}

describe('29/26 H2: manager override at the till', () => {
  let till: TestServer;
  let cashier: Person;
  let otherCashier: Person;
  let manager: Person;

  beforeAll(async () => {
    till = await startTestServer({ mode: 'till' });
    cashier = await till.userWithRole('cashier');
    otherCashier = await till.userWithRole('pharmacist');
    manager = await till.userWithRole('branch_manager');
    // Registered with a head office that is down from here on.
    writeCredential(credentialFile(till.dataDir), {
      central_url: `http://127.0.0.1:${await closedPort()}`,
      device_id: DEVICE_ID,
      device_token: 'device-token-of-a-central-that-is-down',
      branch_id: await till.mainBranchId(),
      name: 'Counter till',
      registered_at: new Date().toISOString(),
    });
  }, 60_000);
  afterAll(() => till.close());

  async function ask(): Promise<Approval> {
    const res = await till.post<Approval>(
      '/api/v1/approvals',
      { kind: 'discount', payload: { max_discount: 3 }, reason: 'regular customer' },
      cashier.token,
    );
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body;
  }

  const override = (id: string, body: Record<string, unknown>) =>
    till.post<Approval & { code?: string; detail?: string }>(
      `/api/v1/approvals/${id}/override`,
      body,
      cashier.token,
    );

  it("29/26 H2: the manager's password at the cashier's till approves, decided at this till, with central down", async () => {
    const asked = await ask();
    const res = await override(asked.id, { email: manager.email, password: USER_PASSWORD });
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(res.body).toMatchObject({
      status: 'approved',
      decided_by: manager.id,
      decided_at_device: DEVICE_ID,
    });
    const signIns = await till.query<{ id: string; user_id: string; device_id: string; method: string }>(
      'SELECT * FROM device_sign_ins WHERE approval_id = ?',
      asked.id,
    );
    expect(signIns).toMatchObject([{ user_id: manager.id, device_id: DEVICE_ID, method: 'override' }]);
    // The sign-in travels before the decision it backs.
    const log = await till.query<{ entity: string; entity_id: string }>(
      'SELECT entity, entity_id FROM change_log WHERE entity_id IN (?, ?) ORDER BY revision',
      signIns[0]!.id,
      asked.id,
    );
    expect(log.map((c) => c.entity)).toEqual(['approval', 'device_sign_in', 'approval']);
    const audit = await till.query<{ action: string; user_id: string }>(
      "SELECT action, user_id FROM audit_log WHERE entity_id = ? AND action LIKE 'approval.%' ORDER BY created_at",
      asked.id,
    );
    expect(audit.map((a) => a.action)).toEqual(['approval.request', 'approval.approve', 'approval.override']);
    expect(audit.at(-1)?.user_id).toBe(manager.id);
  });

  it("29/26 H2: a wrong password or a cashier's own credentials do not approve, and the cashier stays signed in", async () => {
    const asked = await ask();
    const wrong = await override(asked.id, { email: manager.email, password: 'not-the-password' });
    expect(wrong.status).toBe(400);
    expect(wrong.body.code).toBe('INVALID_CREDENTIALS');
    const byCashier = await override(asked.id, { email: otherCashier.email, password: USER_PASSWORD });
    expect(byCashier.status).toBe(403);
    expect(byCashier.body.detail).toMatch(/^Only a branch manager or an admin can approve at the till/);
    const own = await till.post<{ code: string }>(
      `/api/v1/approvals/${asked.id}/override`,
      { email: cashier.email, password: USER_PASSWORD },
      cashier.token,
    );
    expect(own.status).toBe(403);
    expect((await till.row('approvals', asked.id))?.status).toBe('pending');
    expect(await till.query('SELECT 1 FROM device_sign_ins WHERE approval_id = ?', asked.id)).toEqual([]);
    expect((await till.get('/api/v1/auth/me', cashier.token)).status).toBe(200);
    const failed = await till.query(
      "SELECT 1 FROM audit_log WHERE action = 'auth.login_failed' AND entity_id = ?",
      manager.id,
    );
    expect(failed).toHaveLength(1);
  });

  it("26 H2: credit terms a manager grants at the till travel after the manager's sign-in there", async () => {
    const res = await till.post<{ id: string }>(
      '/api/v1/customers',
      { name: 'Neema Credit', credit_limit: 50, is_credit_allowed: true },
      manager.token,
    );
    expect(res.status).toBe(201);
    const [signIn] = await till.query<{ id: string; user_id: string; device_id: string }>(
      'SELECT * FROM device_sign_ins WHERE customer_id = ?',
      res.body.id,
    );
    expect(signIn).toMatchObject({ user_id: manager.id, device_id: DEVICE_ID });
    const log = await till.query<{ entity: string }>(
      'SELECT entity FROM change_log WHERE entity_id IN (?, ?) ORDER BY revision',
      signIn!.id,
      res.body.id,
    );
    expect(log.map((c) => c.entity)).toEqual(['device_sign_in', 'customer']);
  });

  it('29/26 H2: wrong manager passwords are throttled like sign-in', async () => {
    const asked = await ask();
    const statuses: number[] = [];
    for (let i = 0; i < 8; i++)
      statuses.push((await override(asked.id, { email: manager.email, password: `wrong-${i}` })).status);
    expect(statuses).toContain(429);
    expect((await override(asked.id, { email: manager.email, password: USER_PASSWORD })).status).toBe(429);
  });
});

describe('29/26 H2: central takes a decision a device carries only with the sign-in behind it', () => {
  let t: TestServer;
  let main: string;
  let device: { id: string; token: string };
  let otherDevice: { id: string; token: string };
  let cashier: Person;
  let manager: Person;

  beforeAll(async () => {
    t = await startTestServer({ mode: 'central' });
    main = await t.mainBranchId();
    device = await t.registerDevice('Counter till');
    otherDevice = await t.registerDevice('Back till');
    cashier = await t.userWithRole('cashier');
    manager = await t.userWithRole('branch_manager');
  }, 60_000);
  afterAll(() => t.close());

  const change = (entity: string, payload: Record<string, unknown>) => ({
    client_mutation_id: newId(),
    entity,
    op: 'upsert',
    entity_id: String(payload.id),
    payload,
  });
  const signIn = (approvalId: string, deviceId: string, userId = manager.id) => ({
    id: newId(),
    branch_id: main,
    device_id: deviceId,
    user_id: userId,
    approval_id: approvalId,
    method: 'override',
    signed_in_at: new Date().toISOString(),
    created_at: new Date().toISOString(),
  });
  const decided = () =>
    pushedApproval(
      { branchId: main, requestedBy: cashier.id, decidedBy: manager.id },
      { decided_at_device: device.id },
    );

  async function push(changes: unknown[], as = device) {
    const res = await t.request<{ accepted: unknown[]; rejected: Array<{ code: string; message: string }> }>(
      'POST',
      '/api/v1/sync/push',
      { body: { device_id: as.id, changes }, headers: { 'x-device-token': as.token } },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  }

  it('29/26 H2: central refuses a pushed decision with no sign-in record of the manager at that device', async () => {
    const approval = decided();
    const alone = await push([change('approval', approval)]);
    expect(alone.rejected[0]?.code).toBe('FORBIDDEN_ROLE');
    expect(alone.rejected[0]?.message).toMatch(/sign-in at that till/);
    // A sign-in at another device, or of someone else, does not back it either.
    const elsewhere = await push([
      change('device_sign_in', signIn(approval.id as string, otherDevice.id)),
      change('approval', approval),
    ]);
    expect(elsewhere.rejected.map((r) => r.code)).toEqual(['FORBIDDEN_ROLE', 'FORBIDDEN_ROLE']);
    const otherPerson = await push([
      change('device_sign_in', signIn(approval.id as string, device.id, cashier.id)),
      change('approval', approval),
    ]);
    expect(otherPerson.rejected.map((r) => r.code)).toEqual(['FORBIDDEN_ROLE', 'FORBIDDEN_ROLE']);
    expect(await t.row('approvals', approval.id)).toBeUndefined();
  });

  it('29/26 H2: central takes a decision pushed after the manager’s sign-in at that device', async () => {
    const approval = decided();
    const record = signIn(approval.id as string, device.id);
    const body = await push([change('device_sign_in', record), change('approval', approval)]);
    expect(body.rejected).toEqual([]);
    expect(await t.row('approvals', approval.id)).toMatchObject({
      decided_by: manager.id,
      decided_at_device: device.id,
    });
    // A record is written once: it cannot be moved to another decision.
    const moved = await push([change('device_sign_in', { ...record, approval_id: newId() })]);
    expect(moved.rejected).toEqual([]);
    expect((await t.row('device_sign_ins', record.id))?.approval_id).toBe(approval.id);
    // Using the approval later is not a new decision: the till pushes the used row without another sign-in.
    const used = await push([change('approval', { ...approval, status: 'used', used_by: cashier.id })]);
    expect(used.rejected).toEqual([]);
  });

  it('29/26 H2: a decision without the device it was made at is refused even with a sign-in', async () => {
    const approval = decided();
    const body = await push([
      change('device_sign_in', signIn(approval.id as string, device.id)),
      change('approval', { ...approval, decided_at_device: null }),
    ]);
    expect(body.rejected.map((r) => r.code)).toEqual(['FORBIDDEN_ROLE']);
  });
});
