import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';

const ROOT = path.resolve(import.meta.dirname, '..');

export const ADMIN = { email: 'admin@pharmacy.local', password: 'Admin#12345' };
export const PHARMACIST = { email: 'pharmacist@pharmacy.local', password: 'Pharm#12345' };

export interface Till {
  url: string;
  dataDir: string;
}

/**
 * Starts `npm run server`'s entry as a real process on a free port, with its own data folder
 * (so a fresh seed) and the built UI; resolves once it prints its "ready on" line.
 */
export async function startTill(
  extraEnv: Record<string, string> = {},
): Promise<{ till: Till; child: ChildProcess }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'till-e2e-'));
  const child = spawn(process.execPath, ['--import', 'tsx', 'apps/central/src/main.ts'], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(ROOT, 'apps/pos/dist'),
      LOG_LEVEL: 'warn',
      PHARMACY_MODE: 'till',
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`server not ready after 30 s:\n${output}`)), 30_000);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /ready on (http:\/\/[\d.:]+)/.exec(output);
      if (ready?.[1]) {
        clearTimeout(timer);
        resolve(ready[1]);
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited with ${code}:\n${output}`));
    });
  });
  return { till: { url, dataDir }, child };
}

export const test = base.extend<{ till: Till }>({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  till: async ({}, use) => {
    const { till, child } = await startTill();
    await use(till);
    const exited = new Promise((resolve) => child.once('exit', resolve));
    child.kill('SIGTERM');
    await exited;
    fs.rmSync(till.dataDir, { recursive: true, force: true });
  },
  baseURL: async ({ till }, use) => {
    await use(till.url);
  },
});

export { expect };

export async function signIn(page: Page, user: { email: string; password: string }): Promise<void> {
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

export async function changePassword(page: Page, current: string, next: string): Promise<void> {
  await expect(page.getByRole('heading', { name: 'Choose a new password' })).toBeVisible();
  await page.getByLabel('Current password').fill(current);
  await page.getByLabel('New password', { exact: true }).fill(next);
  await page.getByLabel('Repeat new password').fill(next);
  await page.getByRole('button', { name: 'Save new password' }).click();
}

export const NEW_ADMIN_PASSWORD = 'Counter#2026-admin';

/** The admin past the forced password change, on the Sell screen. */
export async function adminReady(page: Page): Promise<void> {
  await page.goto('/');
  await signIn(page, ADMIN);
  await changePassword(page, ADMIN.password, NEW_ADMIN_PASSWORD);
  await expect(page.getByRole('heading', { name: 'Sell', level: 1 })).toBeVisible();
}
