import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { TEST_PASSWORD_COST_ENV } from '../packages/server/src/lib/passwords';
import { CACHED_BUNDLE } from '../packages/server/src/testing/server-bundle';

const ROOT = path.resolve(import.meta.dirname, '..');

export const ADMIN = { email: 'admin@pharmacy.local', password: 'Admin#12345' };
export const PHARMACIST = { email: 'pharmacist@pharmacy.local', password: 'Pharm#12345' };

export interface Till {
  url: string;
  dataDir: string;
}

/** A till data folder migrated and seeded once per run by global-setup.ts. */
export const SEEDED_DIR = path.join(ROOT, 'node_modules/.cache/pharmacy-e2e/seeded-till');
/** The same for head office (PHARMACY_MODE=central). */
export const SEEDED_CENTRAL_DIR = path.join(ROOT, 'node_modules/.cache/pharmacy-e2e/seeded-central');

/**
 * Starts `npm run server`'s entry (bundled by global-setup.ts) as a real process on a free port, with its own
 * data folder and the built UI; resolves once it prints its "ready on" line. A till with no data folder of
 * the test's own starts from a copy of the seeded one (head office from the seeded central folder): its own
 * database, as freshly seeded as a first start (the seeded users must still change their passwords), without
 * paying for migrations and seeding again. argon2id runs at the test cost (lib/passwords.ts).
 */
export async function startTill(
  extraEnv: Record<string, string> = {},
): Promise<{ till: Till; child: ChildProcess }> {
  const dataDir = extraEnv.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'till-e2e-'));
  const seeded =
    extraEnv.PHARMACY_MODE === 'central' ? SEEDED_CENTRAL_DIR : !extraEnv.PHARMACY_MODE ? SEEDED_DIR : null;
  if (!extraEnv.DATA_DIR && seeded && fs.existsSync(path.join(seeded, 'pharmacy.db')))
    fs.cpSync(seeded, dataDir, { recursive: true });
  // The server bundled by global-setup.ts (set in the environment the test workers inherit), run with V8's
  // code cache; else tsx.
  const bundle = process.env.E2E_SERVER;
  const entry = bundle ? [CACHED_BUNDLE, bundle] : ['--import', 'tsx', 'apps/central/src/main.ts'];
  const child = spawn(process.execPath, entry, {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      STATIC_DIR: path.join(ROOT, 'apps/pos/dist'),
      LOG_LEVEL: 'warn',
      PHARMACY_MODE: 'till',
      ...TEST_PASSWORD_COST_ENV,
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

/** Stops a till's process (SIGTERM: it closes its database cleanly) and waits for it to exit. */
export async function stopTill({ child }: { child: ChildProcess }): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}

type Started = Awaited<ReturnType<typeof startTill>>;

/** Stops a till started by startTill and removes its data folder. */
async function discard(started: Started): Promise<void> {
  await stopTill(started);
  fs.rmSync(started.till.dataDir, { recursive: true, force: true });
}

/**
 * A worker's next till, started while the test before it runs: each test still gets a server of its own on
 * a fresh copy of the seeded folder, without waiting for it to start (about 1.5 s, most of it loading the
 * bundle), since a test spends most of its time waiting on the browser.
 */
class NextTill {
  private next: Promise<Started> | null = null;

  take(): Promise<Started> {
    const taken = this.next ?? startTill();
    this.next = startTill();
    // Handled when taken; one that failed to start fails the test that takes it, with its output.
    this.next.catch(() => {});
    return taken;
  }

  async close(): Promise<void> {
    const next = this.next;
    this.next = null;
    const started = await next?.catch(() => null);
    if (started) await discard(started);
  }
}

export const test = base.extend<{ till: Till }, { nextTill: NextTill }>({
  nextTill: [
    // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
    async ({}, use) => {
      const next = new NextTill();
      await use(next);
      await next.close();
    },
    { scope: 'worker' },
  ],
  till: async ({ nextTill }, use) => {
    const started = await nextTill.take();
    await use(started.till);
    await discard(started);
  },
  baseURL: async ({ till }, use) => {
    await use(till.url);
  },
});

/**
 * For a test that starts every server it uses itself (startTill): no till of the fixture's own is started for
 * it (the page's base URL would ask for one), and page.goto takes whole URLs.
 */
export const testOwnServers = test.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright reads a fixture's dependencies from this pattern
  baseURL: async ({}, use) => {
    await use(undefined);
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
