import fs from 'node:fs';
import { PTY_DEVICE_ALLOW, SOCAT, startPtyPair, type PtyPair } from '@pharmacy/hardware/testing';
import { SerialPort } from 'serialport';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../config';
import { startTestServer, type TestServer } from '../../testing/harness';

const hasSocat = fs.existsSync(SOCAT);

/** Reads server-sent events from a fetch stream until `count` scan events arrived. */
async function readScans(t: TestServer, token: string, count: number, trigger: () => Promise<void>) {
  const controller = new AbortController();
  const res = await fetch(`${t.baseUrl}/api/v1/scanners/events`, {
    headers: { authorization: `Bearer ${token}` },
    signal: controller.signal,
  });
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/text\/event-stream/);
  const reader = res.body!.getReader();
  const events: Array<{ code: string; classification: { kind: string } }> = [];
  let buffer = '';
  await trigger();
  while (events.length < count) {
    const { value, done } = await reader.read();
    if (done) break;
    buffer += Buffer.from(value).toString();
    let cut = buffer.indexOf('\n\n');
    while (cut >= 0) {
      const block = buffer.slice(0, cut);
      buffer = buffer.slice(cut + 2);
      const data = /^data: (.*)$/m.exec(block)?.[1];
      if (block.includes('event: scan') && data) events.push(JSON.parse(data));
      cut = buffer.indexOf('\n\n');
    }
  }
  controller.abort();
  return events;
}

describe.skipIf(!hasSocat)('serial scanners', () => {
  let pty: PtyPair;
  let t: TestServer;
  let scannerEnd: SerialPort;

  beforeAll(async () => {
    pty = await startPtyPair();
    t = await startTestServer({ scannerPorts: pty.ttyA, printerDeviceAllow: PTY_DEVICE_ALLOW.join(',') });
    scannerEnd = new SerialPort({ path: pty.b, baudRate: 9600 });
    await new Promise<void>((resolve, reject) => scannerEnd.on('open', resolve).on('error', reject));
  });
  afterAll(async () => {
    await new Promise<void>((resolve) => scannerEnd.close(() => resolve()));
    await t.close();
    await pty.stop();
  });

  it('lists the configured scanner as open', async () => {
    const res = await t.get<{ scanners: Array<{ path: string; open: boolean }> }>(
      '/api/v1/scanners',
      await t.adminToken(),
    );
    expect(res.status).toBe(200);
    expect(res.body.scanners).toEqual([expect.objectContaining({ path: pty.ttyA, open: true })]);
  });

  it('streams each code from a real pseudo-terminal to the till as an event, GS1 parsed', async () => {
    const cashier = await t.userWithRole('cashier');
    const gs1 = `]d20109501101530003172812311012AB34\u001d21S123`;
    const events = await readScans(t, cashier.token, 2, async () => {
      await new Promise((r) => setTimeout(r, 50));
      scannerEnd.write(`5901234123457\r\n${gs1}\r\n`);
    });
    expect(events.map((e) => e.code)).toEqual(['5901234123457', gs1]);
    expect(events[0]?.classification.kind).toBe('ean13');
    expect(events[1]?.classification).toMatchObject({ kind: 'gs1' });
  });

  it('needs a signed-in user', async () => {
    expect((await t.get('/api/v1/scanners/events')).status).toBe(401);
  });

  it('C1: a till does not start with a scanner port that is not a serial device node', () => {
    for (const ports of [pty.ttyA, pty.a, '/dev/fd/3', '/dev/stderr', '/tmp/scanner']) {
      expect(() => configFromEnv({ SCANNER_PORTS: ports })).toThrow(/SCANNER_PORTS/);
    }
    expect(configFromEnv({ SCANNER_PORTS: pty.ttyA, PRINTER_DEVICE_ALLOW: '/dev/pts/*' }).scannerPorts).toBe(
      pty.ttyA,
    );
  });
});
