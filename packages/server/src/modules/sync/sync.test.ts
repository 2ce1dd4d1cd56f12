import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { compactChangeLog } from './meta';
import { makeMedicine, makeSupplier, receive } from '../../testing/factory';

let t: TestServer;
let admin: string;
let deviceId: string;
let deviceToken: string;
let branchId: string;

const dev = (extra: Record<string, string> = {}) => ({ 'x-device-token': deviceToken, ...extra });
const push = (changes: unknown[], headers = dev(), id = deviceId) =>
  t.request<{ accepted: Array<Record<string, unknown>>; rejected: Array<Record<string, unknown>> }>(
    'POST',
    '/api/v1/sync/push',
    {
      body: { device_id: id, changes },
      headers,
    },
  );
const pull = (q: string, headers = dev()) =>
  t.request<Record<string, unknown>>('GET', `/api/v1/sync/pull?device_id=${deviceId}&${q}`, { headers });

const headRevision = () => t.headRevision();
const batchCost = async (id: unknown) => (await t.row('batches', id))?.unit_cost;

/** A batch received at head office (a central-owned row a till may edit: its branch, received by an admin). */
async function receivedBatch(batchNumber: string, medicineId?: string): Promise<Record<string, unknown>> {
  const medicine = medicineId ?? (await makeMedicine(t)).id;
  const batch = await receive(t, String(medicine), (await makeSupplier(t)).id, { batch_number: batchNumber });
  return (await t.row('batches', batch.id)) as Record<string, unknown>;
}

beforeAll(async () => {
  t = await startTestServer({ mode: 'central' });
  admin = await t.adminToken();
  branchId = await t.mainBranchId();
  const res = await t.post<{ device_id: string; device_token: string }>(
    '/api/v1/sync/devices/register',
    { name: 'Till 1' },
    admin,
  );
  expect(res.status).toBe(201);
  deviceId = res.body.device_id;
  deviceToken = res.body.device_token;
}, 60_000);
afterAll(() => t.close());

describe('devices', () => {
  it('stores only a hash of the credential and lists devices branch-scoped', async () => {
    const [row] = await t.query<{ token_hash: string }>(
      'SELECT token_hash FROM sync_devices WHERE id = ?',
      deviceId,
    );
    expect(row!.token_hash).not.toContain(deviceToken);
    const other = await t.createBranch('SYNC2');
    const manager = await t.userWithRole('branch_manager', other);
    const list = await t.get<{ items: unknown[] }>('/api/v1/compliance/devices', manager.token);
    expect(list.body.items).toHaveLength(0);
    expect(
      (await t.post('/api/v1/sync/devices/register', { name: 'X', branch_id: branchId }, manager.token))
        .status,
    ).toBe(403);
    expect((await t.post(`/api/v1/compliance/devices/${deviceId}/revoke`, {}, manager.token)).status).toBe(
      403,
    );
    // a cashier of another branch may not push for this device
    const cashier = await t.userWithRole('cashier', other);
    const res = await t.request('POST', '/api/v1/sync/push', {
      body: { device_id: deviceId, changes: [] },
      token: cashier.token,
    });
    expect(res.status).toBe(403);
  });
});

describe('push', () => {
  it('answers 400 with detail without device_id or changes, 404 for an unknown device, 401 for a bad token', async () => {
    const a = await t.request<{ detail: string }>('POST', '/api/v1/sync/push', {
      body: { changes: [] },
      headers: dev(),
    });
    expect(a.status).toBe(400);
    expect(a.body.detail).toMatch(/device_id/);
    expect(
      (await t.request('POST', '/api/v1/sync/push', { body: { device_id: deviceId }, headers: dev() }))
        .status,
    ).toBe(400);
    expect((await push([], dev(), '01a20000-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await push([], { 'x-device-token': 'dev_nope' })).status).toBe(401);
  });

  it('refuses another major app version with 426 APP_VERSION_INCOMPATIBLE', async () => {
    const r = await t.request<{ code: string }>('POST', '/api/v1/sync/push', {
      body: { device_id: deviceId, changes: [] },
      headers: dev({ 'x-app-version': '9.0.0' }),
    });
    expect(r.status).toBe(426);
    expect(r.body.code).toBe('APP_VERSION_INCOMPATIBLE');
  });

  it('applies once, answers a replay with the stored result, refuses a reused id with another payload', async () => {
    const row = await receivedBatch('SYNC-1');
    const change = {
      client_mutation_id: 'm-1',
      entity: 'batch',
      op: 'upsert',
      entity_id: row.id,
      payload: { ...row, unit_cost: 777 },
      seq: 1,
      base_revision: await headRevision(),
    };
    const first = await push([change]);
    expect(first.status).toBe(200);
    expect(first.body.accepted, JSON.stringify(first.body)).toHaveLength(1);
    const again = await push([change]);
    expect(again.body).toEqual(first.body);
    const reused = await push([{ ...change, payload: { ...change.payload, unit_cost: 1 } }]);
    expect(reused.body.rejected[0]).toMatchObject({ client_mutation_id: 'm-1', code: 'MUTATION_ID_REUSED' });
    expect(await batchCost(row.id)).toBe(777);
  });

  it('answers copies of one push sent at once alike: applied once, no conflict (a duplicated request)', async () => {
    const row = await receivedBatch('SYNC-DUP');
    const change = {
      client_mutation_id: 'm-dup',
      entity: 'batch',
      op: 'upsert',
      entity_id: row.id,
      payload: { ...row, unit_cost: 555 },
      seq: 2,
      base_revision: await headRevision(),
    };
    const copies = await Promise.all([push([change]), push([change]), push([change])]);
    for (const r of copies) expect(r.status, JSON.stringify(r.body)).toBe(200);
    expect(copies[0]!.body.accepted).toHaveLength(1);
    for (const r of copies) expect(r.body).toEqual(copies[0]!.body);
    expect(await batchCost(row.id)).toBe(555);
    expect(
      await t.query("SELECT client_mutation_id FROM sync_mutations WHERE client_mutation_id = 'm-dup'"),
    ).toHaveLength(1);
    expect(await t.query('SELECT id FROM sync_conflicts WHERE entity_id = ?', row.id)).toEqual([]);
  });

  it('refuses organisation configuration from a till: a device can never grant a role or change settings', async () => {
    const [someone] = await t.query("SELECT * FROM users WHERE role = 'pharmacist' LIMIT 1");
    if (!someone) throw new Error('no pharmacist to escalate');
    const settings = (await t.get<Record<string, unknown>>('/api/v1/settings', admin)).body;
    const { updated_at: _, ...value } = settings;
    // with a current base revision, which used to pass the conflict check
    const head = await t.headRevision();
    const r = await push([
      {
        client_mutation_id: 'esc-1',
        base_revision: head,
        entity: 'user',
        op: 'upsert',
        entity_id: someone.id,
        payload: { ...someone, role: 'admin' },
      },
      {
        client_mutation_id: 'esc-2',
        base_revision: head,
        entity: 'settings',
        op: 'upsert',
        entity_id: 'organisation',
        payload: { ...value, tin: 'forged' },
      },
    ]);
    expect(r.body.rejected.map((x) => x.code)).toEqual(['CENTRAL_ONLY', 'CENTRAL_ONLY']);
    expect(
      (await t.query<{ role: string }>('SELECT role FROM users WHERE id = ?', someone.id))[0]?.role,
    ).toBe('pharmacist');
    expect((await t.get<{ tin: string }>('/api/v1/settings', admin)).body.tin).not.toBe('forged');
  });

  it('rejects bad changes one by one without blocking the batch', async () => {
    const r = await push([
      { client_mutation_id: 'bad-1', entity: 'nope', op: 'upsert', entity_id: 'x', payload: {} },
      { client_mutation_id: 'bad-2', entity: 'user', op: 'explode', payload: {} },
      { entity: 'user', op: 'upsert', payload: {} },
      {
        client_mutation_id: 'ok-1',
        entity: 'batch',
        op: 'upsert',
        payload: {
          ...(await receivedBatch('SYNC-2')),
          id: '01a20000-0000-7000-8000-00000000a001',
          batch_number: 'RECEIVED-AT-TILL',
        },
      },
    ]);
    expect(r.body.rejected.map((x) => x.code)).toEqual(['UNKNOWN_ENTITY', 'VALIDATION', 'VALIDATION']);
    expect(r.body.accepted.map((x) => x.client_mutation_id)).toEqual(['ok-1']);
    expect(await t.count('sync_conflicts')).toBeGreaterThanOrEqual(1);
  });

  it('turns a till edit of a row central changed since into a conflict, resolved as a new revision', async () => {
    const row = await receivedBatch('SYNC-3');
    const before = await headRevision();
    // Head office receives more of the same batch: the row changes on central after the till's cursor.
    await receivedBatch('SYNC-3', String(row.medicine_id));
    const r = await push([
      {
        client_mutation_id: 'c-1',
        entity: 'batch',
        op: 'upsert',
        entity_id: row.id,
        payload: { ...row, unit_cost: 999 },
        base_revision: before,
      },
    ]);
    expect(r.body.rejected[0]).toMatchObject({ code: 'CONFLICT' });
    const conflictId = String(r.body.rejected[0]!.conflict_id);
    const list = await t.get<{
      items: Array<{ id: string; kind: string; central_payload: { id: string } }>;
    }>('/api/v1/sync/conflicts?status=open', admin);
    const c = list.body.items.find((i) => i.id === conflictId)!;
    expect(c.kind).toBe('edit_conflict');
    expect(c.central_payload.id).toBe(row.id);
    const resolved = await t.post<{ status: string; resolved_revision: number }>(
      `/api/v1/sync/conflicts/${conflictId}/resolve`,
      { resolution: 'keep_till' },
      admin,
    );
    expect(resolved.status).toBe(200);
    expect(resolved.body.resolved_revision).toBeGreaterThan(before);
    expect(await batchCost(row.id)).toBe(999);
    expect(
      (await t.post(`/api/v1/sync/conflicts/${conflictId}/resolve`, { resolution: 'keep_till' }, admin))
        .status,
    ).toBe(409);
  });
});

describe('pull and snapshot', () => {
  it('pages strictly after the cursor, excludes the device own changes, and carries the epoch', async () => {
    const all: Array<{ revision: number; entity: string }> = [];
    let since = 0;
    let epoch = '';
    for (;;) {
      const r = await pull(`since=${since}&limit=3`);
      expect(r.status).toBe(200);
      const body = r.body as { changes: typeof all; next_revision: number; has_more: boolean; epoch: string };
      epoch = body.epoch;
      for (const c of body.changes) expect(c.revision).toBeGreaterThan(since);
      all.push(...body.changes);
      since = body.next_revision;
      if (!body.has_more) break;
    }
    const revisions = all.map((c) => c.revision);
    expect([...revisions].sort((a, b) => a - b)).toEqual(revisions);
    expect(new Set(revisions).size).toBe(revisions.length);
    const own = await t.query<{ revision: number }>(
      'SELECT revision FROM change_log WHERE origin_device_id = ?',
      deviceId,
    );
    expect(own.length).toBeGreaterThan(0);
    for (const o of own) expect(revisions).not.toContain(o.revision);
    const reset = await pull(`since=${since}&epoch=other`);
    expect(reset.status).toBe(409);
    expect(reset.body.code).toBe('RESET_REQUIRED');
    expect((await pull(`since=${since}&epoch=${epoch}`)).status).toBe(200);
    expect((await pull(`since=${since + 1000}`)).body.code).toBe('RESET_REQUIRED');
  });

  it('streams a snapshot as NDJSON with a header and an end line', async () => {
    const res = await fetch(`${t.baseUrl}/api/v1/sync/snapshot?device_id=${deviceId}`, { headers: dev() });
    expect(res.headers.get('content-type')).toMatch(/ndjson/);
    const lines = (await res.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines[0]).toMatchObject({ type: 'header', branch_id: branchId });
    expect(lines.at(-1)).toEqual({ type: 'end', rows: lines.length - 2 });
    expect(lines.some((l) => l.type === 'row' && l.entity === 'settings')).toBe(true);
  });

  it('answers RESET_REQUIRED for a cursor older than the compacted history', async () => {
    await compactChangeLog(t.context, 1, Date.now() + 2 * 86_400_000);
    const r = await pull('since=1');
    expect(r.status).toBe(409);
    expect(r.body.code).toBe('RESET_REQUIRED');
  });

  it('refuses a revoked device with 403 on push and pull', async () => {
    expect((await t.post(`/api/v1/compliance/devices/${deviceId}/revoke`, {}, admin)).status).toBe(200);
    expect((await push([])).status).toBe(403);
    const p = await pull('since=0');
    expect(p.status).toBe(403);
    expect(p.body.code).toBe('DEVICE_REVOKED');
    expect((await t.post(`/api/v1/compliance/devices/${deviceId}/restore`, {}, admin)).status).toBe(200);
    expect((await push([])).status).toBe(200);
  });
});
