import { CompiledQuery } from 'kysely';
import type { Db, Sqlite } from './connection';
import { numberedPlaceholders, sqliteStatement } from './prepared';

export { numberedPlaceholders };

/** What a hand-written query runs on: the service's context (db, and the SQLite handle on a till). */
export interface RawQueryTarget {
  db: Db;
  sqlite: Sqlite | null;
}

/**
 * A hot query written as SQL text with `?` placeholders, in SQL both dialects speak (CAST(? AS TEXT) where
 * PostgreSQL must know a parameter's type). On SQLite it is a prepared statement from the connection's one cache (prepared.ts),
 * skipping Kysely's compile and dispatch; on PostgreSQL it runs through the pool with $n placeholders. Where
 * the dialects need different SQL (a list parameter: json_each on SQLite, an array on PostgreSQL), give both.
 */
export function rawQuery<R>(text: string | { sqlite: string; postgres: string }) {
  const sqliteText = typeof text === 'string' ? text : text.sqlite;
  let postgresText: string | undefined;

  return {
    async all(target: RawQueryTarget, params: unknown[]): Promise<R[]> {
      if (target.sqlite) return sqliteStatement(target.sqlite, sqliteText).all(...params) as R[];
      postgresText ??= numberedPlaceholders(typeof text === 'string' ? text : text.postgres);
      return (await target.db.executeQuery<R>(CompiledQuery.raw(postgresText, params))).rows;
    },
    async first(target: RawQueryTarget, params: unknown[]): Promise<R | undefined> {
      return (await this.all(target, params))[0];
    },
    /**
     * The first row, answered at once on SQLite (no promise, the statement stops at that row) and through the
     * pool on PostgreSQL: for the reads every request makes (auth's user and session).
     */
    firstNow(target: RawQueryTarget, params: unknown[]): R | undefined | Promise<R | undefined> {
      if (target.sqlite) return sqliteStatement(target.sqlite, sqliteText).get(...params) as R | undefined;
      return this.first(target, params);
    },
  };
}
