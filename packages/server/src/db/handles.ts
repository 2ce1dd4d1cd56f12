import type BetterSqlite3 from 'better-sqlite3';
import type { Kysely } from 'kysely';
import type { Database } from './schema';

/** The database as services see it (a Kysely instance or a transaction), on either engine. */
export type Db = Kysely<Database>;
/** A till's raw SQLite connection, for the statements db/ prepares itself. */
export type Sqlite = BetterSqlite3.Database;
