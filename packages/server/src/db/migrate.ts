import { type Migration, sql } from 'kysely';
import { nowIso } from '../lib/time';
import type { Connection } from './connection';
import { ownTransaction } from './group-commit';
import { MIGRATIONS } from './migrations';
import { assertSupportedPostgres } from './postgres';

export class DatabaseTooNewError extends Error {}

async function appliedMigrations(conn: Connection): Promise<string[]> {
  const strict = conn.kind === 'sqlite' ? ' STRICT' : '';
  await sql
    .raw(
      `CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL)${strict}`,
    )
    .execute(conn.db);
  const { rows } = await sql<{ name: string }>`SELECT name FROM schema_migrations ORDER BY name`.execute(
    conn.db,
  );
  return rows.map((r) => r.name);
}

/** Migrations change one schema at a time: two central processes starting together on PostgreSQL take turns. */
const MIGRATION_LOCK = 7_301_001;

/**
 * Brings the schema up to date, one transaction per migration (its DDL and its bookkeeping row commit
 * together, so a failure leaves the previous schema intact). Kysely's Migrator is not used because it does
 * not wrap SQLite migrations in transactions. Refuses a PostgreSQL server older than central supports and a
 * database written by newer code, and backs up an existing SQLite file before changing its schema
 * (PostgreSQL's own backups, pg_dump or point-in-time recovery, serve central: a file copy of a server cluster
 * is not a backup).
 */
export async function migrate(
  conn: Connection,
  migrations: Record<string, Migration> = MIGRATIONS,
  /** Called before each pending migration runs (a caller's progress, e.g. generate:sales). */
  onMigration?: (name: string, index: number, pending: number) => void,
): Promise<{ applied: string[]; backup?: string }> {
  if (conn.kind === 'postgres') await assertSupportedPostgres(conn.db);
  const names = Object.keys(migrations).sort();
  const done = await appliedMigrations(conn);
  const unknown = done.filter((name) => !(name in migrations));
  if (unknown.length > 0) {
    throw new DatabaseTooNewError(
      `The database ${conn.kind === 'sqlite' ? conn.file : 'on PostgreSQL'} was written by a newer version of the product (migrations ${unknown.join(', ')}); upgrade the app instead of running this version.`,
    );
  }
  const pending = names.filter((name) => !done.includes(name));
  if (pending.length === 0) return { applied: [] };

  let backup: string | undefined;
  if (done.length > 0 && conn.kind === 'sqlite') {
    backup = `${conn.file}.${nowIso().replaceAll(':', '-')}.bak`;
    await conn.sqlite.backup(backup);
  }
  for (const [index, name] of pending.entries()) {
    onMigration?.(name, index, pending.length);
    // Its own transaction, never a group member: a migration may defer foreign keys to its COMMIT (0025).
    await ownTransaction(conn.db, async (trx) => {
      // Two central processes starting together on PostgreSQL: the second waits here, then skips what the first
      // applied. (SQLite's single writer already serialises them.)
      if (conn.kind === 'postgres') {
        await sql`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`.execute(trx);
        const applied = await sql`SELECT 1 FROM schema_migrations WHERE name = ${name}`.execute(trx);
        if (applied.rows.length > 0) return;
      }
      await migrations[name]!.up(trx);
      await sql`INSERT INTO schema_migrations (name, applied_at) VALUES (${name}, ${nowIso()})`.execute(trx);
    });
  }
  return { applied: pending, backup };
}
