import BetterSqlite3 from 'better-sqlite3';
import type { Sqlite } from './handles';

/** What a page check runs on: the server's context (the SQLite handle on a till, null on PostgreSQL). */
export interface PageCheckTarget {
  sqlite: Sqlite | null;
}

/**
 * Whether this server checks its database's pages itself: SQLite (PRAGMA quick_check, checkTablePages).
 * PostgreSQL checks its own pages (data checksums) and answers errors on the query itself.
 */
export const checksItsOwnPages = (target: PageCheckTarget): boolean => target.sqlite !== null;

/**
 * Runs PRAGMA quick_check on each table, on a read-only connection of its own (it reads the file's pages, not
 * this connection's cache): per table, what the check found other than 'ok' (a check that fails says why).
 * Undefined where the server does not check pages itself (PostgreSQL, checksItsOwnPages).
 */
export function checkTablePages(
  target: PageCheckTarget,
  tables: readonly string[],
): Array<{ table: string; problems: string[] }> | undefined {
  const sqlite = target.sqlite;
  if (!sqlite) return undefined;
  const reader = new BetterSqlite3(sqlite.name, { readonly: true, fileMustExist: true });
  try {
    reader.pragma('busy_timeout = 5000');
    return tables.map((table) => {
      let rows: Array<{ quick_check: string }>;
      try {
        rows = reader.pragma(`quick_check("${table}")`) as Array<{ quick_check: string }>;
      } catch (err) {
        rows = [{ quick_check: err instanceof Error ? err.message : String(err) }];
      }
      return { table, problems: rows.map((r) => r.quick_check).filter((r) => r !== 'ok') };
    });
  } finally {
    reader.close();
  }
}
