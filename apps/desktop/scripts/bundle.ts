import path from 'node:path';
import { type BuildOptions, build } from 'esbuild';

const DESKTOP = path.resolve(import.meta.dirname, '..');

/**
 * Native modules stay outside the bundle: they are shipped as node_modules, rebuilt for
 * Electron's ABI and unpacked from the asar. Everything else is bundled, so the packaged app
 * needs neither TypeScript nor the workspace's source at run time.
 */
export const NATIVE_EXTERNALS = [
  'electron',
  'better-sqlite3',
  'argon2',
  'usb',
  'serialport',
  '@serialport/*',
];

/** Electron 41 runs Node 24 in the main process; node22 keeps the output conservative. */
export const COMMON_OPTIONS: BuildOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node22',
  sourcemap: 'linked',
  legalComments: 'none',
  logLevel: 'warning',
  define: { 'process.env.NODE_ENV': '"production"' },
};

export function bundleOptions(outDir = path.join(DESKTOP, 'dist')): BuildOptions[] {
  const common = COMMON_OPTIONS;
  return [
    {
      ...common,
      entryPoints: [path.join(DESKTOP, 'src/main.ts')],
      outfile: path.join(outDir, 'main.cjs'),
      external: NATIVE_EXTERNALS,
    },
    {
      // The server's utility process (main.ts forks it): SQLite, argon2, the print worker.
      ...common,
      entryPoints: [path.join(DESKTOP, 'src/server-process.ts')],
      outfile: path.join(outDir, 'server.cjs'),
      external: NATIVE_EXTERNALS,
    },
    {
      ...common,
      entryPoints: [path.join(DESKTOP, 'src/preload.ts')],
      outfile: path.join(outDir, 'preload.cjs'),
      external: ['electron'],
    },
  ];
}

export async function bundleDesktop(outDir?: string): Promise<void> {
  await Promise.all(bundleOptions(outDir).map((options) => build(options)));
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(import.meta.filename)) {
  const started = performance.now();
  await bundleDesktop();
  console.log(
    `apps/desktop/dist: main.cjs, server.cjs and preload.cjs in ${Math.round(performance.now() - started)} ms`,
  );
}
