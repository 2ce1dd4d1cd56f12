import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import {
  type Config,
  ConfigError,
  createServer,
  DatabaseTooNewError,
  isDatabaseUnavailable,
  UnsupportedPostgresError,
  VERSION,
} from '@pharmacy/server';

/** The built till UI (`npm run build:pos`), served from the same origin when STATIC_DIR is not set. */
const BUILT_UI = path.resolve(import.meta.dirname, '../../pos/dist');
const RETRY_MS = 2_000;

/**
 * Runs the headless server until SIGTERM/SIGINT: `npm run server` (till mode), `npm run central` and
 * `npm run central:pg`. `onStopped` runs after the server closed (central:pg stops its PostgreSQL there).
 */
export async function runServer(config: Config, onStopped?: () => Promise<void>): Promise<void> {
  const started = performance.now();
  if (config.staticDir === undefined && fs.existsSync(path.join(BUILT_UI, 'index.html'))) {
    config.staticDir = BUILT_UI;
  }
  const server = await createWhenDatabaseAnswers(config);
  const { port } = await server.listen();
  const ms = Math.round(performance.now() - started);
  const database = config.databaseUrl ? 'PostgreSQL' : config.dataDir;
  server.context.log.info({ port, host: config.host, mode: config.mode, database, ms }, 'ready');
  console.log(
    `Pharmacy server (${config.mode} mode) ready on http://${config.host}:${port} in ${ms} ms; data in ${database}`,
  );

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.context.log.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    server
      .close()
      .then(() => onStopped?.())
      .then(
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

/**
 * Central on PostgreSQL may start before its database does (a restart of both, a managed database still
 * booting): it waits and retries with one clear log line per attempt, answering /health with 503 meanwhile, so
 * an orchestrator sees "starting", not a crash loop.
 */
async function createWhenDatabaseAnswers(config: Config) {
  let placeholder: http.Server | undefined;
  for (let attempt = 1; ; attempt++) {
    try {
      const server = await createServer(config);
      await new Promise<void>((resolve) => (placeholder ? placeholder.close(() => resolve()) : resolve()));
      return server;
    } catch (err) {
      if (!config.databaseUrl || !isDatabaseUnavailable(err)) throw err;
      const reason = err instanceof Error ? err.message : String(err);
      console.error(
        `PostgreSQL at ${safeUrl(config.databaseUrl)} is not answering (${reason}); attempt ${attempt}, retrying in ${RETRY_MS / 1000} s`,
      );
      placeholder ??= await unavailableHealth(config);
      await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
    }
  }
}

/** /health answers 503 (everything else too) while the database is not reachable. */
function unavailableHealth(config: Config): Promise<http.Server | undefined> {
  const server = http.createServer((_req, res) => {
    res.writeHead(503, { 'content-type': 'application/json', 'retry-after': '2' });
    res.end(
      JSON.stringify({
        status: 'unavailable',
        version: VERSION,
        mode: config.mode,
        database: { status: 'error', detail: 'waiting for PostgreSQL' },
      }),
    );
  });
  return new Promise((resolve) => {
    server.once('error', () => resolve(undefined));
    server.listen(config.port, config.host, () => resolve(server));
  });
}

/** The URL without its password, for logs. */
const safeUrl = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');

export function exitOnStartFailure(err: unknown): never {
  if (
    err instanceof ConfigError ||
    err instanceof DatabaseTooNewError ||
    err instanceof UnsupportedPostgresError
  )
    console.error(err.message);
  else console.error(err);
  process.exit(1);
}
