import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { Kysely, type TransactionBuilder } from 'kysely';
import { hookingCommits } from './after-commit';
import { CHECKPOINT_FRAMES, type Checkpointer, startCheckpointer } from './checkpointer';
import { GroupCommitDialect, registerDriver } from './group-commit';
import { InlineLimitPlugin } from './inline-limit';
import { openPostgres, type PostgresConnection, type PostgresOptions } from './postgres';
import { sqliteStatement } from './prepared';
import type { Database } from './schema';
import type { Db, Sqlite } from './handles';

export type { Db, Sqlite } from './handles';

export interface SqliteConnection {
  kind: 'sqlite';
  db: Db;
  sqlite: Sqlite;
  file: string;
}

/** A till's (or a small central's) SQLite file, or central's PostgreSQL (db/postgres.ts). */
export type Connection = SqliteConnection | PostgresConnection;

/** The till's Kysely: its transactions run their afterCommit hooks once their COMMIT is on disk. */
class SqliteKysely extends Kysely<Database> {
  override transaction(): TransactionBuilder<Database> {
    return hookingCommits(super.transaction());
  }
}

/**
 * Makes a SQLite file readable by its owner only (issue 26 L6: it holds password verifiers, sales, patients),
 * before any connection opens it: created 0600 when absent, an older 0644 file and its WAL and shared-memory
 * files narrowed. SQLite creates the WAL and -shm files with the database file's mode.
 */
export function ownerOnlyDatabaseFile(file: string): void {
  fs.closeSync(fs.openSync(file, 'a', 0o600));
  for (const suffix of ['', '-wal', '-shm'])
    if (fs.existsSync(file + suffix)) fs.chmodSync(file + suffix, 0o600);
}

export function openDatabase(file: string): SqliteConnection {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  ownerOnlyDatabaseFile(file);
  const sqlite = new BetterSqlite3(file);
  sqlite.pragma('journal_mode = WAL');
  // A sale acknowledged at the till must survive a power cut; NORMAL can lose the last commits in WAL mode.
  // Group commit runs its shared transactions at NORMAL and fdatasyncs the WAL itself, off the main thread,
  // before acknowledging them (db/group-commit.ts): the same guarantee.
  sqlite.pragma('synchronous = FULL');
  // The server checkpoints the WAL from a worker thread (db/checkpointer.ts), when idle or past
  // CHECKPOINT_FRAMES. This mark is the backstop for tools without one and for a worker that falls behind:
  // ~80 MB rather than SQLite's 4 MB, because a checkpoint inside a commit writes and fsyncs the database file
  // while the commit waits.
  sqlite.pragma(`wal_autocheckpoint = ${CHECKPOINT_FRAMES + 4000}`);
  sqlite.pragma('foreign_keys = ON');
  // Statement journals (the undo record of each statement and savepoint inside a transaction) stay in memory:
  // past 64 KB SQLite spilled them to a temporary file, a third of a sale's system time. The snapshot swap,
  // which rewrites whole tables, switches back to files for its duration (modules/sync/till-store.ts).
  sqlite.pragma('temp_store = MEMORY');
  sqlite.pragma('busy_timeout = 5000');
  // 32 MiB of page cache instead of SQLite's 2 MiB: with 100,000 medicines and 300,000 batches the list's
  // indexes (medicines_active_name_id, batches_fefo) no longer fit in 2 MiB, and every page read became a
  // read from the OS cache (a fresh Medicines page: 238 -> 177 µs for its ids and stock).
  sqlite.pragma('cache_size = -32768');
  // Kysely's SQLite driver prepares every query afresh: its statements come from the connection's one cache.
  const dialect = new GroupCommitDialect({ sqlite, prepare: (text) => sqliteStatement(sqlite, text) });
  const db = new SqliteKysely({ dialect, plugins: [new InlineLimitPlugin()] });
  registerDriver(db, dialect.driver);
  return { kind: 'sqlite', db, sqlite, file };
}

/**
 * The SQLite handle of a till-side path (the snapshot swap, the demo catalogue, the till's identity): these exist
 * only where the database is one SQLite file, so on PostgreSQL they fail loudly instead of half-working.
 */
/** The SQLite handle behind a connection (AppContext.sqlite); null for PostgreSQL. */
export const sqliteOf = (conn: Connection): Sqlite | null => (conn.kind === 'sqlite' ? conn.sqlite : null);

/**
 * Central's read replica (DATABASE_REPLICA_URL), opened lazily like any pool, read-only: PostgreSQL only. A
 * SQLite server has none (undefined), nor one whose url is unset.
 */
export async function openReadReplica(
  conn: Connection,
  url: string | undefined,
  options: Omit<PostgresOptions, 'readOnly'> = {},
): Promise<PostgresConnection | undefined> {
  return conn.kind === 'postgres' && url ? openPostgres(url, { ...options, readOnly: true }) : undefined;
}

/**
 * The WAL checkpointer of a SQLite file (checkpointer.ts), started; none for PostgreSQL, which checkpoints
 * itself.
 */
export function startWalCheckpointer(
  conn: Connection,
  onError: (message: string) => void,
): Checkpointer | undefined {
  return conn.kind === 'sqlite' ? startCheckpointer(conn.file, { onError }) : undefined;
}

export function requireSqlite(target: { sqlite: Sqlite | null }, what: string): Sqlite {
  if (!target.sqlite)
    throw new Error(`${what} needs the SQLite database of a till; this server runs on PostgreSQL`);
  return target.sqlite;
}
