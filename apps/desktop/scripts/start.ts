import { spawn } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { buildTillUi } from '../../pos/scripts/build';
import { bundleDesktop } from './bundle';

/**
 * `npm start`: build the UI, then open the desktop till when an Electron binary is installed,
 * otherwise serve the same UI and server on http://127.0.0.1:8000 for a browser.
 * `npm run desktop` (--desktop): Electron or a clear failure.
 */

const ROOT = path.resolve(import.meta.dirname, '../../..');
const wantDesktop = process.argv.includes('--desktop');

/** The Electron executable if the npm package downloaded it; the package alone is not enough. */
export function electronBinary(): string | null {
  try {
    const resolved: unknown = createRequire(import.meta.url)('electron');
    return typeof resolved === 'string' && fs.existsSync(resolved) ? resolved : null;
  } catch {
    return null;
  }
}

/** Runs a long-lived child, passing Ctrl+C and SIGTERM on and exiting with its code. */
function supervise(command: string, args: string[], env: NodeJS.ProcessEnv, onLine?: (line: string) => void) {
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ['inherit', onLine ? 'pipe' : 'inherit', 'inherit'],
  });
  if (onLine && child.stdout) {
    let buffered = '';
    child.stdout.on('data', (chunk: Buffer) => {
      process.stdout.write(chunk);
      buffered += chunk.toString();
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) onLine(line);
    });
  }
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => child.kill(signal));
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
}

// `npm start` is for trying the product: a fresh data folder gets the small demo catalogue.
process.env.PHARMACY_DEMO_CATALOGUE ??= 'true';

const electron = electronBinary();
if (wantDesktop && !electron) {
  console.error(
    [
      'npm run desktop needs the Electron binary, and it is not installed here.',
      'Download it with `ELECTRON_SKIP_BINARY_DOWNLOAD= node node_modules/electron/install.js` (needs access to',
      "Electron's GitHub releases), or use `npm start` to serve the till to a browser on http://127.0.0.1:8000.",
    ].join('\n'),
  );
  process.exit(1);
}

console.log('Building the till UI…');
await buildTillUi({ quiet: true });

if (electron) {
  await bundleDesktop();
  console.log('Starting the desktop till…');
  supervise(electron, [path.join(ROOT, 'apps/desktop')], process.env);
} else {
  const env = {
    ...process.env,
    STATIC_DIR: process.env.STATIC_DIR ?? path.join(ROOT, 'apps/pos/dist'),
    PORT: process.env.PORT ?? '8000',
    HOST: process.env.HOST ?? '127.0.0.1',
  };
  supervise(process.execPath, ['--import', 'tsx', 'apps/central/src/main.ts'], env, (line) => {
    const ready = /ready on (http:\/\/\S+)/.exec(line);
    if (ready) console.log(`\nElectron is not available here; open ${ready[1]} in a browser.\n`);
  });
}
