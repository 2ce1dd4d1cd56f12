import fs from 'node:fs';
import path from 'node:path';
import { buildTillUi } from '../apps/pos/scripts/build';
import { bundleServer } from '../packages/server/src/testing/server-bundle';
import { SEEDED_DIR, startTill, stopTill } from './fixtures';

const ROOT = path.resolve(import.meta.dirname, '..');

/**
 * Before the end-to-end run: the built UI (built when there is none yet, so `npm run e2e` on its own still
 * tests one), the server bundled once (each test's server then starts in about a second instead of
 * compiling the TypeScript again through tsx), and a till data folder migrated and seeded once, which each
 * test's till starts from a copy of (fixtures.ts).
 */
export default async function globalSetup(): Promise<void> {
  if (!fs.existsSync(path.join(ROOT, 'apps/pos/dist/index.html'))) {
    console.log('apps/pos/dist is missing: building the till UI');
    await buildTillUi({ quiet: true });
  }
  process.env.E2E_SERVER = await bundleServer('server');
  fs.rmSync(SEEDED_DIR, { recursive: true, force: true });
  await stopTill(await startTill({ DATA_DIR: SEEDED_DIR }));
  fs.rmSync(path.join(SEEDED_DIR, 'jwt-secret'), { force: true });
}
