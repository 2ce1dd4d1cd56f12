import { type RawBuilder, sql } from 'kysely';

/**
 * SQL that only SQLite speaks lives here, so the central server can move to PostgreSQL by replacing these
 * functions (FTS5 -> tsvector/pg_trgm) without touching the services that call them.
 */

/** Splits what a person typed into search words (letters and digits), at most eight. */
export function searchWords(text: string): string[] {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .slice(0, 8);
}

/** An FTS5 query where every word must begin some token ("para 500" -> "para"* "500"*); null when empty. */
export function ftsPrefixQuery(text: string): string | null {
  const words = searchWords(text);
  return words.length === 0 ? null : words.map((w) => `"${w}"*`).join(' ');
}

/**
 * A condition on medicines (aliased `alias`) true when the row matches the search-as-you-type text over name,
 * generic name and barcode. Callers check ftsPrefixQuery(text) is not null first.
 */
export function medicineSearchCondition(text: string, alias = 'm'): RawBuilder<boolean> {
  const query = ftsPrefixQuery(text) ?? '""';
  return sql<boolean>`${sql.ref(alias)}.rowid IN (SELECT rowid FROM medicines_fts WHERE medicines_fts MATCH ${query})`;
}

/** The same search as raw SQL for a cached prepared statement: `rowid IN (...)` with one ? for the query. */
export const MEDICINE_SEARCH_SQL = 'rowid IN (SELECT rowid FROM medicines_fts WHERE medicines_fts MATCH ?)';

/**
 * `column IN (the strings of one bound JSON array)`: a list of ids of any length as ONE prepared statement.
 * PostgreSQL: `column = ANY(?::text[])` with the array bound as is.
 */
export const inJsonArray = (column: string): string => `${column} IN (SELECT value FROM json_each(?))`;

/** Names the index a statement reads (SQLite's planner without statistics); PostgreSQL: nothing. */
export const indexedBy = (index: string): string => `INDEXED BY ${index}`;
