import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { entryArgs } from '../../../packages/server/src/testing/bundles';

const ROOT = path.resolve(import.meta.dirname, '../../..');
const children: ChildProcess[] = [];
afterEach(() => {
  for (const child of children.splice(0)) child.kill('SIGKILL');
});

/**
 * Starts `npm run server`'s entry as a real process and resolves with its URL once it says it is ready: as npm
 * runs it (its TypeScript through tsx), or its bundle (built once per run; a start costs a quarter of the CPU).
 */
function start(
  env: Record<string, string>,
  as: 'tsx' | 'bundle' = 'bundle',
): Promise<{ child: ChildProcess; url: string; output: () => string }> {
  const args = as === 'tsx' ? ['--import', 'tsx', 'apps/central/src/main.ts'] : entryArgs('server');
  const child = spawn(process.execPath, args, {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const onData = (chunk: Buffer) => {
      out += chunk.toString();
      const match = /ready on (http:\/\/[\d.:]+)/.exec(out);
      if (match?.[1]) resolve({ child, url: match[1], output: () => out });
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.on('exit', (code) => reject(new Error(`exited ${code}: ${out}`)));
  });
}

describe('headless server process (start-up contract)', () => {
  it('starts as npm runs it (tsx) on a fresh data folder, seeds the default users, and stops cleanly on SIGTERM', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-main-'));
    try {
      const { child, url } = await start({ DATA_DIR: dataDir, PHARMACY_MODE: 'central' }, 'tsx');
      const health = await (await fetch(`${url}/health`)).json();
      expect(health).toMatchObject({ status: 'ok', mode: 'central' });
      const login = await fetch(`${url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'pharmacist@pharmacy.local', password: 'Pharm#12345' }),
      });
      expect(login.status).toBe(200);
      expect(fs.statSync(path.join(dataDir, 'jwt-secret')).mode & 0o777).toBe(0o600);
      const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    // TypeScript compiled at start-up: on a loaded machine longer than the default 20 s.
  }, 60_000);

  it('honours the seed overrides and fails fast on bad configuration', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-main-'));
    try {
      const { url } = await start({
        DATA_DIR: dataDir,
        PHARMACY_ADMIN_EMAIL: 'boss@example.org',
        PHARMACY_ADMIN_PASSWORD: 'Boss#pass99',
      });
      const login = await fetch(`${url}/api/v1/auth/login`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: 'boss@example.org', password: 'Boss#pass99' }),
      });
      const body = (await login.json()) as { must_change_password: boolean };
      expect(login.status).toBe(200);
      expect(body.must_change_password).toBe(false);
      await expect(start({ DATA_DIR: dataDir, PORT: 'eighty' })).rejects.toThrow(/PORT/);
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
