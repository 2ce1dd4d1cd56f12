import type { Logger } from 'pino';
import type { Config } from './config';
import type { Db, Sqlite } from './db/connection';

/** What every service receives: the database, the configuration and process-wide state. */
export interface AppContext {
  db: Db;
  sqlite: Sqlite;
  config: Config;
  log: Logger;
  jwtKey: Uint8Array;
  startedAt: number;
  /** Process-local caches; anything cached here must be invalidated by the write path that changes it. */
  cache: Map<string, unknown>;
  /** Functions run by close(), newest first (workers, timers). */
  closers: Array<() => Promise<void> | void>;
}
