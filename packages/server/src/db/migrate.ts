import { type Migration, type MigrationProvider, Migrator } from 'kysely';
import type { Connection } from './connection';
import { MIGRATIONS } from './migrations';

class StaticProvider implements MigrationProvider {
  constructor(private readonly migrations: Record<string, Migration>) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    return this.migrations;
  }
}

export class DatabaseTooNewError extends Error {}

function appliedMigrations(conn: Connection): string[] {
  const table = conn.sqlite
    .prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name = 'kysely_migration'")
    .get();
  if (!table) return [];
  return (
    conn.sqlite.prepare('SELECT name FROM kysely_migration ORDER BY name').all() as { name: string }[]
  ).map((r) => r.name);
}

/**
 * Brings the schema up to date inside transactions. Refuses a database written by newer code, and takes a
 * backup of an existing database file before changing its schema.
 */
export async function migrate(
  conn: Connection,
  migrations: Record<string, Migration> = MIGRATIONS,
): Promise<{ applied: string[]; backup?: string }> {
  const known = new Set(Object.keys(migrations));
  const done = appliedMigrations(conn);
  const unknown = done.filter((name) => !known.has(name));
  if (unknown.length > 0) {
    throw new DatabaseTooNewError(
      `The database ${conn.file} was written by a newer version of the product (migrations ${unknown.join(', ')}); upgrade the app instead of running this version.`,
    );
  }
  const pending = [...known].filter((name) => !done.includes(name));
  if (pending.length === 0) return { applied: [] };

  let backup: string | undefined;
  if (done.length > 0) {
    backup = `${conn.file}.${new Date().toISOString().replaceAll(':', '-')}.bak`;
    await conn.sqlite.backup(backup);
  }
  const migrator = new Migrator({ db: conn.db, provider: new StaticProvider(migrations) });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return {
    applied: (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName),
    backup,
  };
}
