import { type Kysely, sql } from 'kysely';
import { isPostgres, postgresDdl } from '../dialect';

/**
 * A migration statement: SQLite's text (translated for PostgreSQL by postgresDdl), or each dialect's own where
 * they cannot share one (null: that dialect has nothing to run).
 */
export type Statement = string | { sqlite: string | null; postgres: string | string[] | null };

/** better-sqlite3 prepares one statement at a time, so a migration is a list of statements. */
export async function runStatements<DB>(db: Kysely<DB>, statements: Statement[]): Promise<void> {
  const postgres = isPostgres(db);
  for (const statement of statements) {
    for (const text of textsOf(statement, postgres)) {
      try {
        await sql.raw(text).execute(db);
      } catch (err) {
        if (err instanceof Error) err.message = `${err.message}, in: ${text.trim().slice(0, 160)}`;
        throw err;
      }
    }
  }
}

function textsOf(statement: Statement, postgres: boolean): string[] {
  if (typeof statement === 'string') return [postgres ? postgresDdl(statement) : statement];
  const text = postgres ? statement.postgres : statement.sqlite;
  if (text === null) return [];
  return Array.isArray(text) ? text : [text];
}

/** A statement only SQLite runs (a trigger or table that serves a till-side fast path). */
export const sqliteOnly = (text: string): Statement => ({ sqlite: text, postgres: null });

/** Triggers that refuse UPDATE and DELETE on a ledger table (the audit log, stock movements). */
export function appendOnly(table: string): Statement[] {
  return [
    {
      sqlite: `CREATE TRIGGER ${table}_no_update BEFORE UPDATE ON ${table}
        BEGIN SELECT RAISE(ABORT, '${table} is append-only'); END`,
      postgres: [
        `CREATE OR REPLACE FUNCTION refuse_ledger_change() RETURNS trigger LANGUAGE plpgsql AS $$
        BEGIN RAISE EXCEPTION '% is append-only', TG_TABLE_NAME; END $$`,
        `CREATE TRIGGER ${table}_append_only BEFORE UPDATE OR DELETE ON ${table}
        FOR EACH ROW EXECUTE FUNCTION refuse_ledger_change()`,
      ],
    },
    sqliteOnly(`CREATE TRIGGER ${table}_no_delete BEFORE DELETE ON ${table}
        BEGIN SELECT RAISE(ABORT, '${table} is append-only'); END`),
  ];
}
