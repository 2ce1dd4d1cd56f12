import { type Migration, sql } from 'kysely';
import { nowIso } from '../lib/time';
import type { Connection } from './connection';
import { MIGRATIONS } from './migrations';

export class DatabaseTooNewError extends Error {}

function appliedMigrations(conn: Connection): string[] {
  conn.sqlite.exec(
    'CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TEXT NOT NULL) STRICT',
  );
  return (
    conn.sqlite.prepare('SELECT name FROM schema_migrations ORDER BY name').all() as { name: string }[]
  ).map((r) => r.name);
}

/**
 * Brings the schema up to date, one transaction per migration (its DDL and its bookkeeping row commit
 * together, so a failure leaves the previous schema intact). Kysely's Migrator is not used because it does
 * not wrap SQLite migrations in transactions. Refuses a database written by newer code, and backs up an
 * existing database file before changing its schema.
 */
export async function migrate(
  conn: Connection,
  migrations: Record<string, Migration> = MIGRATIONS,
): Promise<{ applied: string[]; backup?: string }> {
  const names = Object.keys(migrations).sort();
  const done = appliedMigrations(conn);
  const unknown = done.filter((name) => !(name in migrations));
  if (unknown.length > 0) {
    throw new DatabaseTooNewError(
      `The database ${conn.file} was written by a newer version of the product (migrations ${unknown.join(', ')}); upgrade the app instead of running this version.`,
    );
  }
  const pending = names.filter((name) => !done.includes(name));
  if (pending.length === 0) return { applied: [] };

  let backup: string | undefined;
  if (done.length > 0) {
    backup = `${conn.file}.${nowIso().replaceAll(':', '-')}.bak`;
    await conn.sqlite.backup(backup);
  }
  for (const name of pending) {
    await conn.db.transaction().execute(async (trx) => {
      await migrations[name]!.up(trx);
      await sql`INSERT INTO schema_migrations (name, applied_at) VALUES (${name}, ${nowIso()})`.execute(trx);
    });
  }
  return { applied: pending, backup };
}
