import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(import.meta.dirname, '..');

/** `npm run e2e` on its own still tests a built UI: build it when there is none yet. */
export default function globalSetup(): void {
  if (fs.existsSync(path.join(ROOT, 'apps/pos/dist/index.html'))) return;
  console.log('apps/pos/dist is missing: building the till UI');
  execFileSync(path.join(ROOT, 'node_modules/.bin/vite'), ['build', 'apps/pos', '--logLevel', 'warn'], {
    cwd: ROOT,
    stdio: 'inherit',
  });
}
