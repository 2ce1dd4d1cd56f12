import fs from 'node:fs';
import path from 'node:path';
import { buildTillUi } from '../apps/pos/scripts/build';

const ROOT = path.resolve(import.meta.dirname, '..');

/** `npm run e2e` on its own still tests a built UI: build it when there is none yet. */
export default async function globalSetup(): Promise<void> {
  if (fs.existsSync(path.join(ROOT, 'apps/pos/dist/index.html'))) return;
  console.log('apps/pos/dist is missing: building the till UI');
  await buildTillUi({ quiet: true });
}
