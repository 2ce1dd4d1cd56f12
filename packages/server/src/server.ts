import fs from 'node:fs';
import type http from 'node:http';
import path from 'node:path';
import express, { type Express } from 'express';
import type { AppContext } from './app-context';
import type { Config } from './config';
import {
  type Connection,
  openDatabase,
  openReadReplica,
  type Sqlite,
  sqliteOf,
  startWalCheckpointer,
} from './db/connection';
import { openPostgres } from './db/postgres';
import { migrate } from './db/migrate';
import { seedIfEmpty } from './seed';
import { httpServers } from './http/dispatch';
import { edge } from './http/edge';
import { errorHandler, notFoundHandler } from './http/problem';
import { ApiRouter, methodNotAllowed } from './http/route';
import { createLogger } from './logger';
import { loadJwtKey } from './lib/secrets';
import { loadSmallDemoCatalogue } from './modules/demo/small';
import { mountHealth } from './modules/health/routes';
import { startScanners } from './modules/scanners/hub';
import { registerModules } from './modules/index';
import { tillBranch } from './modules/sync/till-identity';
import { mountOpenApi } from './modules/openapi/routes';
import { startPrintWorker } from './modules/printing/worker';
import { startSync } from './modules/sync/runtime';
import { startSummaryFolding } from './modules/reports/summaries';

export interface PharmacyServer {
  app: Express;
  db: Connection['db'];
  /** The SQLite handle; null on a PostgreSQL central. */
  sqlite: Sqlite | null;
  context: AppContext;
  /** Starts listening; resolves with the bound port (useful with PORT=0). */
  listen(port?: number, host?: string): Promise<{ server: http.Server; port: number }>;
  /** Stops accepting requests, runs the closers and closes the database. Safe to call twice. */
  close(): Promise<void>;
}

export async function createServer(config: Config): Promise<PharmacyServer> {
  const log = createLogger(config.logLevel);
  const conn: Connection = config.databaseUrl
    ? await openPostgres(config.databaseUrl, { poolSize: config.databasePoolSize })
    : openDatabase(path.join(config.dataDir, 'pharmacy.db'));
  const { applied, backup } = await migrate(conn).catch(async (err: unknown) => {
    await conn.db.destroy();
    throw err;
  });
  if (applied.length > 0) log.info({ applied, backup }, 'database migrated');
  // Opened lazily like any pool: central starts and writes whether or not its replica answers.
  const replica = await openReadReplica(conn, config.databaseReplicaUrl, {
    poolSize: config.databasePoolSize,
  });
  if (replica) log.info('reports, the dashboard and sync pulls and snapshots read from DATABASE_REPLICA_URL');

  const closing = new AbortController();
  const context: AppContext = {
    db: conn.db,
    readDb: replica?.db ?? conn.db,
    sqlite: sqliteOf(conn),
    config,
    log,
    jwtKey: loadJwtKey(config),
    startedAt: Date.now(),
    cache: new Map(),
    tillBranch: () => tillBranch(context),
    closers: [],
    closing: closing.signal,
  };
  const checkpointer = startWalCheckpointer(conn, (message) =>
    log.warn({ message }, 'WAL checkpoint failed; the next one retries'),
  );
  if (checkpointer) context.closers.push(() => checkpointer.stop());
  if (await seedIfEmpty(context)) log.info('empty database seeded with Main Branch, admin and pharmacist');
  if (config.demoCatalogue && (await loadSmallDemoCatalogue(context))) log.info('demo catalogue loaded');
  await startScanners(context);
  await startSync(context);
  startSummaryFolding(context);

  const app = express();
  app.set('trust proxy', config.trustProxy);
  // API answers are not revalidated by clients; hashing every JSON body for an ETag was wasted work.
  app.set('etag', false);
  const front = edge(app, { log, corsOrigins: config.corsOrigins, bodyLimit: config.bodyLimit });
  app.use(front);

  const api = new ApiRouter(context);
  registerModules(api);
  mountOpenApi(api.router, api.docs);
  methodNotAllowed(api.router, api.docs);
  api.router.use(notFoundHandler);
  app.use(api.mountPath, api.router);

  const root = express.Router();
  mountHealth(root, context);
  app.use(root);

  if (config.staticDir && fs.existsSync(path.join(config.staticDir, 'index.html'))) {
    const index = path.join(config.staticDir, 'index.html');
    app.use(express.static(config.staticDir, { index: false, maxAge: '1h' }));
    app.get(/^\/(?!api\/|health$).*/, (_req, res) => res.sendFile(index));
  }
  app.use(notFoundHandler);
  app.use(errorHandler);

  const httpServer = httpServers(app, {
    edge: front,
    exactRoute: api.exactRoute.bind(api),
    onError: errorHandler,
  });
  const servers: http.Server[] = [];
  let closed: Promise<void> | undefined;
  return {
    app,
    db: conn.db,
    sqlite: context.sqlite,
    context,
    listen(port = config.port, host = config.host) {
      return new Promise((resolve, reject) => {
        const server = httpServer();
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          startPrintWorker(context);
          const address = server.address();
          resolve({ server, port: typeof address === 'object' && address ? address.port : port });
        });
        servers.push(server);
      });
    },
    close() {
      closed ??= (async () => {
        closing.abort();
        await Promise.all(servers.map(stopServing));
        for (const closer of [...context.closers].reverse()) await closer();
        await replica?.db.destroy();
        await conn.db.destroy();
        // After the connection: closing the -shm descriptor earlier would drop SQLite's locks (checkpointer.ts).
        checkpointer?.release();
      })();
      return closed;
    },
  };
}

/** How long requests in progress get to finish once the server is closing. */
const CLOSE_GRACE_MS = 10_000;

/**
 * Stops accepting connections and ends the open ones. An idle kept-alive connection closes at once; one that
 * is serving a request ends after its answer, and a request still arriving on it (a till's replicator reuses
 * its connection every few seconds) is answered with `Connection: close`: server.close() alone would wait for
 * such a client to fall silent, and a central with tills talking to it never stopped. Whatever is still open
 * after CLOSE_GRACE_MS is cut.
 */
function stopServing(server: http.Server): Promise<void> {
  return new Promise<void>((resolve) => {
    const cut = setTimeout(() => server.closeAllConnections(), CLOSE_GRACE_MS);
    cut.unref();
    server.close(() => {
      clearTimeout(cut);
      resolve();
    });
    server.prependListener('request', (_req, res: http.ServerResponse) => {
      if (!res.headersSent) res.setHeader('Connection', 'close');
    });
    server.closeIdleConnections();
  });
}
