import fs from 'node:fs';
import net from 'node:net';
import http from 'node:http';
import path from 'node:path';
import type { SyncStatus } from '@pharmacy/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@pharmacy/sync/testing';
import { ADMIN, startTestServer, type TestServer, USER_PASSWORD } from '../../testing/harness';

/** The Head office screen's routes on a real till, against a real central on loopback. */
let central: TestServer;
let till: TestServer;
let centralAdmin: string;
let html: http.Server;
let htmlUrl: string;
const emails: Record<string, string> = {};
const onTill = (role: string) => till.login(emails[role]!, USER_PASSWORD);

const CONNECT = '/api/v1/sync/connect';
const sign = () => ({ central_url: central.baseUrl, email: ADMIN.email, password: ADMIN.password });
const tillAdmin = () => till.login(ADMIN.email, ADMIN.password);
const status = async () => (await till.get<SyncStatus>('/api/v1/sync/status', await tillAdmin())).body;
const devicesOnCentral = async () =>
  (
    await central.get<{ total: number; items: { name: string }[] }>(
      '/api/v1/compliance/devices',
      centralAdmin,
    )
  ).body;

beforeAll(async () => {
  central = await startTestServer({ mode: 'central' });
  centralAdmin = await central.adminToken();
  // Made on head office, so they reach the till with its bootstrap.
  for (const role of ['cashier', 'branch_manager'] as const)
    emails[role] = (await central.userWithRole(role)).email;
  till = await startTestServer({ mode: 'till', syncIntervalMs: 200, syncBackoffMaxMs: 400 });
  html = http.createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<h1>Router</h1>'),
  );
  await new Promise<void>((r) => html.listen(0, '127.0.0.1', r));
  htmlUrl = `http://127.0.0.1:${(html.address() as { port: number }).port}`;
}, 60_000);
afterAll(async () => {
  await till?.close();
  await central?.close();
  html?.close();
});

describe('connecting a till to head office from the app', () => {
  it('says clearly what is wrong, and stores nothing, for bad input', async () => {
    const token = await tillAdmin();
    const cases: Array<[Record<string, unknown>, number, string, string | undefined]> = [
      [{ ...sign(), central_url: 'hq.example' }, 400, 'VALIDATION', 'central_url'],
      [{ ...sign(), central_url: 'http://127.0.0.1:1' }, 502, 'CENTRAL_UNREACHABLE', undefined],
      [{ ...sign(), central_url: htmlUrl }, 502, 'CENTRAL_UNREACHABLE', undefined],
      [{ ...sign(), central_url: till.baseUrl }, 400, 'NOT_CENTRAL', 'central_url'],
      [{ ...sign(), password: 'Wrong#Password-1' }, 400, 'LOGIN_FAILED', 'password'],
      [{ ...sign(), name: '' }, 400, 'VALIDATION', 'name'],
    ];
    for (const [body, code, problem, field] of cases) {
      const res = await till.post<{ code: string; detail: string; errors?: { path: string }[] }>(
        CONNECT,
        { name: 'Till 1', ...body },
        token,
      );
      expect([res.status, res.body.code], JSON.stringify(body)).toEqual([code, problem]);
      expect(res.body.detail.length).toBeGreaterThan(10);
      if (field) expect(res.body.errors?.map((e) => e.path)).toContain(field);
    }
    expect(fs.existsSync(path.join(till.dataDir, 'sync-device.json'))).toBe(false);
    expect((await status()).configured).toBe(false);
    // The wrong URL cases registered nothing on central either (the till-as-central case is refused there).
    expect((await devicesOnCentral()).total).toBe(0);
  });

  it('M3: http(s) only, never link-local, metadata or multicast, and one plain answer for every head office that does not answer', async () => {
    const token = await tillAdmin();
    // An open port that is not a web server: it answers garbage and hangs up.
    const raw = net.createServer((socket) => socket.end('SSH-2.0-OpenSSH_9.6\r\n'));
    await new Promise<void>((r) => raw.listen(0, '127.0.0.1', r));
    const rawUrl = `http://127.0.0.1:${(raw.address() as net.AddressInfo).port}`;
    try {
      for (const route of [CONNECT, '/api/v1/sync/connect/branches']) {
        for (const url of ['ftp://127.0.0.1/', 'file:///etc/passwd']) {
          const res = await till.post<{ status: number }>(
            route,
            { name: 'Till 1', ...sign(), central_url: url },
            token,
          );
          expect(res.status, url).toBe(400);
        }
        const answers = new Set<string>();
        for (const url of [
          'http://127.0.0.1:1',
          htmlUrl,
          rawUrl,
          'http://169.254.169.254',
          'http://[::a9fe:a9fe]',
          'http://[fe80::1]:8000',
          'http://224.0.0.1:8000',
          'http://metadata.google.internal',
          'http://2852039166',
        ]) {
          const res = await till.post<{ code: string; detail: string }>(
            route,
            { name: 'Till 1', ...sign(), central_url: url },
            token,
          );
          answers.add(JSON.stringify([res.status, res.body.code, res.body.detail]));
        }
        expect([...answers], route).toEqual([
          JSON.stringify([
            502,
            'CENTRAL_UNREACHABLE',
            "No head office answered at that address. Check the address and this till's network, then try again.",
          ]),
        ]);
      }
    } finally {
      raw.close();
    }
    expect((await status()).configured).toBe(false);
  });

  it("lists head office's branches after sign-in, for the picker", async () => {
    const res = await till.post<{ items: { id: string; name: string }[] }>(
      '/api/v1/sync/connect/branches',
      sign(),
      await tillAdmin(),
    );
    expect(res.status).toBe(200);
    expect(res.body.items.map((b) => b.id)).toContain(await central.mainBranchId());
    const cashier = await till.userWithRole('cashier');
    expect((await till.post('/api/v1/sync/connect/branches', sign(), cashier.token)).status).toBe(403);
  });

  it('connects, stores the credential 0600, replicates without a restart, and refuses a second connect', async () => {
    const res = await till.post<SyncStatus>(
      CONNECT,
      { ...sign(), name: 'Front till', branch_id: await central.mainBranchId() },
      await tillAdmin(),
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      configured: true,
      central_url: central.baseUrl,
      device_name: 'Front till',
    });
    const file = path.join(till.dataDir, 'sync-device.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(file, 'utf8')).not.toContain(ADMIN.password);
    const done = await eventually('bootstrapped', async () => {
      const s = await status();
      return s.bootstrapped && s.last_success_at !== null && s;
    });
    expect(done.bootstrap_progress).toBeNull();
    // Last push and last pull are reported as two times (the Head office screen shows both); their order is
    // not fixed, since a later cycle may push again before it pulls.
    expect(Date.parse(done.last_push_at ?? '')).toBeGreaterThan(0);
    expect(Date.parse(done.last_pull_at ?? '')).toBeGreaterThan(0);
    expect((await devicesOnCentral()).items.map((d) => d.name)).toEqual(['Front till']);
    const again = await till.post<{ code: string }>(CONNECT, { ...sign(), name: 'Again' }, await tillAdmin());
    expect([again.status, again.body.code]).toEqual([409, 'ALREADY_CONNECTED']);
    const now = await till.post<SyncStatus>('/api/v1/sync/now', {}, await tillAdmin());
    expect(now.status).toBe(200);
    expect(now.body.online).toBe(true);
  });

  it('refuses to disconnect while a change waits to be sent, and lets only an admin disconnect', async () => {
    expect(
      (
        await till.post(
          '/api/v1/sync/disconnect',
          { password: USER_PASSWORD },
          await onTill('branch_manager'),
        )
      ).status,
    ).toBe(403);
    // The admin is organisation-wide: the till holds no verifier for them and signs them in through head office.
    const admin = await tillAdmin();
    const cashier = await onTill('cashier');
    await central.close();
    // A till-owned change made while head office is down stays in the outbox.
    expect((await till.post('/api/v1/sessions/open', { opening_float: 10 }, cashier)).status).toBe(201);
    const pending = async () => (await till.get<SyncStatus>('/api/v1/sync/status', admin)).body.pending > 0;
    await eventually('pending', pending);
    const res = await till.post<{ code: string; detail: string }>(
      '/api/v1/sync/disconnect',
      { password: ADMIN.password },
      admin,
    );
    expect([res.status, res.body.code]).toEqual([409, 'PENDING_CHANGES']);
    expect(res.body.detail).toMatch(/wait to be sent/);
    expect((await till.get<SyncStatus>('/api/v1/sync/status', admin)).body.configured).toBe(true);
    // Longer than waitFor's 30 s, so a step that hangs under load names itself instead of the test's timeout.
  }, 60_000);
});
