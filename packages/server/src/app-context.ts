import type { Logger } from 'pino';
import type { Config } from './config';
import type { Db, Sqlite } from './db/connection';

/** What every service receives: the database, the configuration and process-wide state. */
export interface AppContext {
  db: Db;
  /**
   * Where read-only work that may see data a moment old reads (reports, the dashboard, sync pulls and
   * snapshots): central's read replica (DATABASE_REPLICA_URL), else db itself (SQLite, no replica). Run such work
   * through onReplica / withReplica (db/read-replica.ts): they fall back to db when the replica cannot answer.
   */
  readDb: Db;
  /**
   * The SQLite handle behind db, for the till's fast paths (cached statements, the sync reader); null on a
   * PostgreSQL central, where those paths use db.
   */
  sqlite: Sqlite | null;
  config: Config;
  log: Logger;
  jwtKey: Uint8Array;
  startedAt: number;
  /** Process-local caches; anything cached here must be invalidated by the write path that changes it. */
  cache: Map<string, unknown>;
  /**
   * The branch this till belongs to (from its snapshot or device credential, modules/sync/till-identity.ts);
   * null on central or a till that does not know it yet. Sign-in refuses branch-bound users of other branches.
   */
  tillBranch: () => string | null;
  /** Functions run by close(), newest first (workers, timers). */
  closers: Array<() => Promise<void> | void>;
  /**
   * Aborted as close() begins: answers that never finish by themselves (the scanner event stream) end on it,
   * so a till with a Sell screen open stops at once instead of after the close grace.
   */
  closing: AbortSignal;
}
