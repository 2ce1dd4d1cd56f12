import { type ChildProcess, fork } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundleDesktop } from '../scripts/bundle';
import { type ServerChild, startServer } from './server-host';

/**
 * The server's utility process as the packaged app runs it: the bundled dist/server.cjs in a real Node child
 * process, whose fork IPC channel stands in for Electron's `process.parentPort` (testing/parent-port-shim.cjs),
 * driven by the main process's own server-host.ts: boot -> ready -> HTTP -> discovery -> shutdown -> exit 0
 * with the database closed cleanly.
 */
const ROOT = path.resolve(import.meta.dirname, '../../..');
const SHIM = path.resolve(import.meta.dirname, 'testing/parent-port-shim.cjs');
const out = fs.mkdtempSync(path.join(os.tmpdir(), 'till-utility-'));
const ui = path.join(out, 'ui');

beforeAll(async () => {
  await bundleDesktop(path.join(out, 'dist'));
  fs.mkdirSync(ui);
  fs.writeFileSync(path.join(ui, 'index.html'), '<title>utility till</title>');
}, 60_000);
afterAll(() => fs.rmSync(out, { recursive: true, force: true }));

/** The bundled server entry in a Node child process, seen through the interface main.ts gives a UtilityProcess. */
function forkServer(): { proc: ChildProcess; child: ServerChild; exited: Promise<number | null> } {
  const proc = fork(path.join(out, 'dist/server.cjs'), [], {
    cwd: ROOT,
    execArgv: ['--require', SHIM],
    // Native modules resolve from the repository's node_modules, as from the package's in the app.
    env: { ...process.env, NODE_PATH: path.join(ROOT, 'node_modules') },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const child: ServerChild = {
    postMessage: (message) => proc.send(message),
    onMessage: (listener) => proc.on('message', listener),
    onExit: (listener) => proc.on('exit', (code) => listener(code ?? -1)),
    kill: () => void proc.kill('SIGKILL'),
  };
  return { proc, child, exited };
}

describe('the till server in its own process', () => {
  it('boots, serves, discovers devices, and on shutdown closes the database and exits 0', async () => {
    const dataDir = path.join(out, 'data');
    const { proc, child, exited } = forkServer();
    const host = await startServer(child, { dataDir, staticDir: ui, port: 0, logLevel: 'silent' });
    expect(proc.pid).not.toBe(process.pid);
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(host.url).toBe(`${host.origin}/`);

    const health = await fetch(`${host.origin}/health`);
    expect(health.status).toBe(200);
    expect(((await health.json()) as { status: string }).status).toBe('ok');
    expect(await (await fetch(`${host.origin}/sell`)).text()).toContain('utility till');
    // A write that must survive the shutdown: signing in records a session.
    const login = await fetch(`${host.origin}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'admin@pharmacy.local', password: 'Admin#12345' }),
    });
    expect(login.status).toBe(200);

    // Device discovery answers from the server's process (the IPC handlers of main.ts ask it).
    const devices = await host.discover();
    expect(Array.isArray(devices.serial) && Array.isArray(devices.usb)).toBe(true);

    expect(await host.shutdown()).toBe('closed');
    expect(await exited).toBe(0);
    await expect(fetch(`${host.origin}/health`)).rejects.toThrow();
    expect(await host.discover()).toMatchObject({ warnings: ['The till server is not running'] });

    // Closed cleanly: the WAL was checkpointed into the database and removed, and it opens clean.
    const db = path.join(dataDir, 'pharmacy.db');
    expect(fs.existsSync(db)).toBe(true);
    expect(fs.existsSync(`${db}-wal`)).toBe(false);
    const reopened = new Database(db, { readonly: true });
    try {
      expect(reopened.pragma('integrity_check', { simple: true })).toBe('ok');
      const sessions = reopened.prepare('SELECT count(*) AS n FROM auth_sessions').get() as { n: number };
      expect(sessions.n).toBeGreaterThan(0);
    } finally {
      reopened.close();
    }
  }, 60_000);

  it('reports a server that cannot start, and the process exits 1', async () => {
    const { child, exited } = forkServer();
    await expect(
      startServer(child, { dataDir: path.join(out, 'data2'), staticDir: path.join(out, 'no-ui'), port: 0 }),
    ).rejects.toThrow(/build:pos/);
    expect(await exited).toBe(1);
  }, 60_000);
});
