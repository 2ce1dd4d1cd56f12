import { type RawBuilder, sql } from 'kysely';

/**
 * Escapes LIKE wildcards; SQLite's LIKE has no default escape character, so callers add ESCAPE '\'.
 * Both sides are lower-cased: SQLite's LIKE ignores ASCII case by itself, PostgreSQL's does not, and lower()
 * on both makes the two engines answer alike. The lower-cased column is compared under the deterministic
 * "binary" collation (migration 0022): PostgreSQL before 18 refuses LIKE under the case-insensitive `nocase`
 * that some columns carry.
 */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `column LIKE '%text%'` matching the text literally (a search for "50%" finds "50%", not everything). */
export function containsText(column: string, text: string): RawBuilder<boolean> {
  return likePattern(column, containsPattern(text));
}

/**
 * The `%text%` pattern alone, for a compiled-once query: `likePattern(column, p.pattern)` with
 * `pattern: containsPattern(search)` among the parameters.
 */
export const containsPattern = (text: string): string => `%${escapeLike(text)}%`;

/** `column LIKE pattern ESCAPE '\'` for a pattern made by containsPattern. */
export function likePattern(column: string, pattern: unknown): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) COLLATE "binary" LIKE lower(${pattern}) ESCAPE '\\'`;
}

/** `column LIKE 'text%'`, literally. */
export function startsWithText(column: string, text: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${sql.ref(column)}) COLLATE "binary" LIKE lower(${`${escapeLike(text)}%`}) ESCAPE '\\'`;
}
