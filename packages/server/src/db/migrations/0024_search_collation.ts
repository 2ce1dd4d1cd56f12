import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * A deterministic collation named "binary" on PostgreSQL, for text searches (db/like.ts). PostgreSQL before 18
 * refuses LIKE under a nondeterministic collation, and branch, category and coupon names carry the
 * case-insensitive `nocase` of 0001: searching branches or coupons answered 500 on PostgreSQL 15-17. Searches
 * compare lower(column) COLLATE "binary": SQLite's built-in byte order on a till, this collation (C) on
 * central. Both sides are lower-cased first, each under its own collation, so no answer changes.
 */
export const searchCollation: Migration = {
  async up(db) {
    await runStatements(db, [
      { sqlite: null, postgres: `CREATE COLLATION IF NOT EXISTS "binary" (provider = libc, locale = 'C')` },
    ]);
  },
};
