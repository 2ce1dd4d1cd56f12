import { type Kysely, sql } from 'kysely';

/** better-sqlite3 prepares one statement at a time, so a migration is a list of statements. */
export async function runStatements(db: Kysely<unknown>, statements: string[]): Promise<void> {
  for (const statement of statements) await sql.raw(statement).execute(db);
}
