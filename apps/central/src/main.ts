import fs from 'node:fs';
import path from 'node:path';
import { ConfigError, configFromEnv, createServer, DatabaseTooNewError } from '@pharmacy/server';

/** The built till UI (`npm run build:pos`), served from the same origin when STATIC_DIR is not set. */
const BUILT_UI = path.resolve(import.meta.dirname, '../../pos/dist');

/** Headless entry: `npm run server` (till mode) and `npm run central` (PHARMACY_MODE=central). */
async function main(): Promise<void> {
  const started = performance.now();
  const config = configFromEnv();
  if (config.staticDir === undefined && fs.existsSync(path.join(BUILT_UI, 'index.html'))) {
    config.staticDir = BUILT_UI;
  }
  const server = await createServer(config);
  const { port } = await server.listen();
  const ms = Math.round(performance.now() - started);
  server.context.log.info(
    { port, host: config.host, mode: config.mode, dataDir: config.dataDir, ui: config.staticDir ?? null, ms },
    'ready',
  );
  console.log(
    `Pharmacy server (${config.mode} mode) ready on http://${config.host}:${port} in ${ms} ms; data in ${config.dataDir}`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.context.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server.close().then(
      () => process.exit(0),
      (err: unknown) => {
        server.context.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
}

main().catch((err: unknown) => {
  if (err instanceof ConfigError || err instanceof DatabaseTooNewError) console.error(err.message);
  else console.error(err);
  process.exit(1);
});
