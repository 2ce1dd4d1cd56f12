import fs from 'node:fs';
import path from 'node:path';
import { buildTillUi } from '../apps/pos/scripts/build';
import { bundleServer } from '../packages/server/src/testing/server-bundle';
import Database from 'better-sqlite3';
import { SEEDED_CENTRAL_DIR, SEEDED_DIR, startTill, stopTill } from './fixtures';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Before the end-to-end run: the built UI (built when there is none yet, so `npm run e2e` on its own still
 * tests one), the server bundled once (each test's server then starts in about a second instead of
 * compiling the TypeScript again through tsx), and a till data folder migrated and seeded once, which each
 * test's till starts from a copy of (fixtures.ts), and one for head office.
 */
export default async function globalSetup(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'apps/pos/dist/index.html'))) {
    console.log('apps/pos/dist is missing: building the till UI');
    await buildTillUi({ quiet: true });
  }
  process.env.E2E_SERVER = await bundleServer('server');
  await seed(SEEDED_DIR, {});
  await seed(SEEDED_CENTRAL_DIR, { PHARMACY_MODE: 'central' });
}

/**
 * A data folder migrated and seeded by a first start, without what must be each server's own: its token
 * signing secret and its sync epoch (the identity of central's database, made on first use; none yet, but
 * never copied).
 */
async function seed(dir: string, env: Record<string, string>): Promise<void> {
  fs.rmSync(dir, { recursive: true, force: true });
  await stopTill(await startTill({ DATA_DIR: dir, ...env }));
  fs.rmSync(path.join(dir, 'jwt-secret'), { force: true });
  const db = new Database(path.join(dir, 'pharmacy.db'));
  try {
    db.prepare("DELETE FROM sync_meta WHERE key = 'epoch'").run();
  } finally {
    db.close();
  }
}
