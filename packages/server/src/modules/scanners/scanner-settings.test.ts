import fs from 'node:fs';
import { PTY_DEVICE_ALLOW, SOCAT, startPtyPair, type PtyPair } from '@pharmacy/hardware/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '@pharmacy/sync/testing';
import { startTestServer, type TestServer } from '../../testing/harness';

/** Serial scanners set from the Scanners screen: stored in the till's database, live without a restart. */
let t: TestServer;
let admin: string;
let pty: PtyPair;

type Overview = { scanners: { path: string; baud_rate: number; open: boolean }[]; configured_by: string };

beforeAll(async () => {
  t = await startTestServer({ printerDeviceAllow: PTY_DEVICE_ALLOW.join(',') });
  admin = await t.adminToken();
  if (fs.existsSync(SOCAT)) pty = await startPtyPair();
});
afterAll(async () => {
  await t.close();
  await pty?.stop();
});

describe('PUT /scanners', () => {
  it('refuses a path that is not a serial device node, and a cashier', async () => {
    const bad = await t.put<{ errors: { path: string }[] }>(
      '/api/v1/scanners',
      { scanners: [{ path: '/etc/passwd', baud_rate: 9600 }] },
      admin,
    );
    expect(bad.status).toBe(400);
    expect(bad.body.errors.map((e) => e.path)).toContain('scanners.0.path');
    const baud = await t.put(
      '/api/v1/scanners',
      { scanners: [{ path: '/dev/ttyACM0', baud_rate: 1234 }] },
      admin,
    );
    expect(baud.status).toBe(400);
    const cashier = await t.userWithRole('cashier');
    expect((await t.put('/api/v1/scanners', { scanners: [] }, cashier.token)).status).toBe(403);
    expect(await t.query('SELECT count(*) AS n FROM till_settings')).toEqual([{ n: 0 }]);
  });

  it.skipIf(!fs.existsSync(SOCAT))(
    'opens the stored scanner at once and keeps it in the database',
    async () => {
      const res = await t.put<{ scanners: { path: string }[] }>(
        '/api/v1/scanners',
        { scanners: [{ path: pty.ttyA, baud_rate: 19200 }] },
        admin,
      );
      expect(res.status).toBe(200);
      const overview = async () => (await t.get<Overview>('/api/v1/scanners', admin)).body;
      await eventually('the scanner to open', async () => (await overview()).scanners[0]?.open, 5_000, 100);
      expect((await overview()).scanners).toEqual([
        expect.objectContaining({ path: pty.ttyA, baud_rate: 19200, open: true }),
      ]);
      expect((await overview()).configured_by).toBe('till');
      const [row] = await t.query<{ value: string }>(
        "SELECT value FROM till_settings WHERE key = 'scanners'",
      );
      expect(JSON.parse(row!.value)).toEqual([{ path: pty.ttyA, baud_rate: 19200 }]);
      // Removing it closes it.
      await t.put('/api/v1/scanners', { scanners: [] }, admin);
      expect((await overview()).scanners).toEqual([]);
    },
  );
});
