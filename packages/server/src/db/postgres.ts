import { Kysely, PostgresDialect, sql, type Transaction, type TransactionBuilder } from 'kysely';
import type pg from 'pg';
import { aroundExecute, type Callback, type Execute, withCommitHooks } from './after-commit';
import type { Database } from './schema';

/**
 * Central on PostgreSQL (DATABASE_URL=postgres://…). Tills stay on SQLite; everything PostgreSQL-specific about
 * opening, typing and transacting lives here, and the SQL that differs lives in db/dialect.ts.
 */

/** The oldest PostgreSQL central runs on (CI's PostgreSQL suite runs on it: Debian 12's postgresql-15). */
export const OLDEST_POSTGRES = 15;

/** Central started on a PostgreSQL older than OLDEST_POSTGRES: it refuses to start, saying why. */
export class UnsupportedPostgresError extends Error {}

/** Why a server of this version (server_version_num, server_version) cannot hold central's data; null if it can. */
export function postgresVersionProblem(versionNum: number, version: string): string | null {
  if (Math.floor(versionNum / 10_000) >= OLDEST_POSTGRES) return null;
  return `Central needs PostgreSQL ${OLDEST_POSTGRES} or later (15 to 18 are supported); the database server at DATABASE_URL runs PostgreSQL ${version}. Upgrade that server, or point DATABASE_URL at a newer one.`;
}

/** Refuses a PostgreSQL server older than OLDEST_POSTGRES before anything is written to it. */
export async function assertSupportedPostgres(db: Kysely<Database>): Promise<void> {
  const { rows } = await sql<{ num: string; version: string }>`
    SELECT current_setting('server_version_num') AS num, current_setting('server_version') AS version`.execute(
    db,
  );
  const problem = postgresVersionProblem(Number(rows[0]?.num), String(rows[0]?.version));
  if (problem) throw new UnsupportedPostgresError(problem);
}

/** PostgreSQL's error codes a transaction is retried on: serialization failure and deadlock. */
const RETRYABLE = new Set(['40001', '40P01']);
const MAX_ATTEMPTS = 8;

export function isRetryableConflict(err: unknown): boolean {
  return typeof err === 'object' && err !== null && RETRYABLE.has(String((err as { code?: unknown }).code));
}

/**
 * Integer columns are BIGINT on PostgreSQL (money in minor units and counters may pass 2^31), and sums of them
 * are NUMERIC; both arrive from pg as strings. The schema's values are integers well below 2^53, so they are
 * read as numbers, as better-sqlite3 reads them on a till.
 */
const typesOf = (driver: typeof pg) => ({
  getTypeParser(oid: number, format?: 'text' | 'binary') {
    if (oid === driver.types.builtins.INT8 || oid === driver.types.builtins.NUMERIC) return toNumber;
    return driver.types.getTypeParser(oid, format);
  },
});
const toNumber = (value: string): number => Number(value);

/**
 * The driver, loaded when central first opens PostgreSQL: a till never does, and evaluating `pg` cost about
 * 90 ms of CPU at each till's start (its first look at `navigator` makes Node 20 load its fetch client).
 */
let driver: Promise<{ pg: typeof pg; Cursor: typeof import('pg-cursor') }> | undefined;
const loadDriver = () =>
  (driver ??= Promise.all([import('pg'), import('pg-cursor')]).then(([pgModule, cursor]) => ({
    pg: pgModule.default,
    Cursor: cursor.default,
  })));

/**
 * Every transaction runs SERIALIZABLE and is retried when PostgreSQL aborts it for a conflict, so concurrent
 * requests are exactly as safe as on SQLite's single writer (a FEFO pick, a coupon's use count, an invoice
 * number) without a lock written into each service. Statements outside a transaction are single statements
 * and atomic on their own.
 */
class SerializableKysely extends Kysely<Database> {
  override transaction(): TransactionBuilder<Database> {
    return retrying(super.transaction().setIsolationLevel('serializable'));
  }
}

/**
 * A read replica's Kysely (DATABASE_REPLICA_URL): a hot standby refuses SERIALIZABLE, so a transaction here is a
 * read-only REPEATABLE READ snapshot, still retried when the standby cancels it for a conflict with recovery
 * (SQLSTATE 40001, the WAL it replays removed rows the snapshot still needed).
 */
class ReadOnlyKysely extends Kysely<Database> {
  override transaction(): TransactionBuilder<Database> {
    return retrying(super.transaction().setIsolationLevel('repeatable read').setAccessMode('read only'));
  }
}

/** The builder with execute() retried on conflicts, and afterCommit hooks run after the attempt that commits. */
const retrying = (builder: TransactionBuilder<Database>): TransactionBuilder<Database> =>
  aroundExecute(builder, <T>(execute: Execute<Database, T>, callback: Callback<Database, T>) =>
    withCommitHooks<Database, T>((track) => retryConflicts(() => execute(track(callback)))),
  );

async function retryConflicts<T>(attempt: () => Promise<T>): Promise<T> {
  for (let n = 1; ; n++) {
    try {
      return await attempt();
    } catch (err) {
      if (!isRetryableConflict(err) || n >= MAX_ATTEMPTS) throw err;
      // Jittered backoff so the transactions that collided do not collide again in lockstep.
      await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** n));
    }
  }
}

/**
 * A SERIALIZABLE transaction that begins only once this connection holds the session advisory lock `key`, so
 * its snapshot is taken after the previous holder committed (a transaction-scoped lock, taken by the first
 * statement, comes after that statement's snapshot: the waiter then reads a past its writes conflict with, and
 * PostgreSQL aborts it). Retried on conflicts like every transaction here.
 * Callers of one process queue in memory first (inProcessTurn): twenty pushes waiting in pg_advisory_lock held
 * twenty pool connections, and the holder, needing one more for a read outside its transaction, waited for
 * one of them (2.6 s a turn in bench:ingest).
 */
export function serializableInTurn<T>(
  db: Kysely<Database>,
  key: number,
  fn: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  return inProcessTurn(db, key, () =>
    db.connection().execute(async (conn) => {
      await sql`SELECT pg_advisory_lock(${key})`.execute(conn);
      try {
        return await withCommitHooks<Database, T>((track) =>
          retryConflicts(() => conn.transaction().setIsolationLevel('serializable').execute(track(fn))),
        );
      } finally {
        // A connection that died took its session lock with it; the pool drops it.
        await sql`SELECT pg_advisory_unlock(${key})`.execute(conn).catch(() => undefined);
      }
    }),
  );
}

const lastInTurn = new WeakMap<object, Map<number, Promise<unknown>>>();

/** Runs `work` after the previous work of this process on the same pool and key has settled. */
function inProcessTurn<T>(db: object, key: number, work: () => Promise<T>): Promise<T> {
  const byKey = lastInTurn.get(db) ?? new Map<number, Promise<unknown>>();
  lastInTurn.set(db, byKey);
  const run = (byKey.get(key) ?? Promise.resolve()).then(work, work);
  const settled = run.catch(() => undefined);
  byKey.set(key, settled);
  // The chain ends with the last caller: forget it, so an idle key holds nothing.
  void settled.then(() => {
    if (byKey.get(key) === settled) byKey.delete(key);
  });
  return run;
}

export interface PostgresConnection {
  kind: 'postgres';
  db: Kysely<Database>;
  pool: pg.Pool;
  url: string;
}

export interface PostgresOptions {
  /** Pool size (DATABASE_POOL_SIZE); 10 by default. */
  poolSize?: number;
  /**
   * A read replica (db/read-replica.ts): every session is read-only (a write fails even if the URL names a
   * writable server), and a connection attempt gives up after REPLICA_CONNECT_TIMEOUT_MS, so a replica that
   * has gone away costs a request a few seconds at most before the primary answers it.
   */
  readOnly?: boolean;
}

const REPLICA_CONNECT_TIMEOUT_MS = 3_000;

export async function openPostgres(url: string, options: PostgresOptions = {}): Promise<PostgresConnection> {
  const { pg, Cursor } = await loadDriver();
  const max = options.poolSize ?? 10;
  const pool = new pg.Pool({
    connectionString: url,
    max,
    // Connections once opened stay open (pg closes idle ones after 10 s by default): a new one costs a
    // password exchange, a server process and its cold catalogue caches, and the dashboard, which refreshes
    // every minute and reads five queries side by side, paid that on every refresh (bench/dashboard.ts).
    min: max,
    types: typesOf(pg),
    application_name: options.readOnly ? 'pharmacy-central-reads' : 'pharmacy-central',
    ...(options.readOnly && {
      options: '-c default_transaction_read_only=on',
      connectionTimeoutMillis: REPLICA_CONNECT_TIMEOUT_MS,
      keepAlive: true,
    }),
  });
  // An idle client that loses its server (a restart) must not crash the process; the pool replaces it.
  pool.on('error', () => {});
  const dialect = new PostgresDialect({ pool, cursor: Cursor });
  const db = options.readOnly ? new ReadOnlyKysely({ dialect }) : new SerializableKysely({ dialect });
  return { kind: 'postgres', db, pool, url };
}

/** True for a database URL this server opens with PostgreSQL. */
export const isPostgresUrl = (url: string | undefined): url is string =>
  url !== undefined && /^postgres(ql)?:\/\//.test(url);

/**
 * Failures that say nothing about the request, only that PostgreSQL cannot serve it now: a restart or shutdown
 * (57P0x), too many connections (53300), a lost connection (08xxx, a refused or reset socket), or a conflict
 * still unresolved after the retries. Nothing was written; the client sends the request again (503).
 */
const UNAVAILABLE = new Set(['57P01', '57P02', '57P03', '53300', ...RETRYABLE]);
const SOCKET_ERRORS = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE']);

export function isDatabaseUnavailable(err: unknown): boolean {
  if (typeof err !== 'object' || err === null) return false;
  const code = String((err as { code?: unknown }).code ?? '');
  if (UNAVAILABLE.has(code) || code.startsWith('08') || SOCKET_ERRORS.has(code)) return true;
  const message = err instanceof Error ? err.message : '';
  return /Connection terminated|connection timeout|Client has encountered a connection error/i.test(message);
}
