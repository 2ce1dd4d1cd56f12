import { type RawBuilder, sql } from 'kysely';

/** Escapes LIKE wildcards; SQLite's LIKE has no default escape character, so callers add ESCAPE '\'. */
const escapeLike = (text: string) => text.replace(/[\\%_]/g, (c) => `\\${c}`);

/** `column LIKE '%text%'` matching the text literally (a search for "50%" finds "50%", not everything). */
export function containsText(column: string, text: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} LIKE ${`%${escapeLike(text)}%`} ESCAPE '\\'`;
}

/** `column LIKE 'text%'`, literally. */
export function startsWithText(column: string, text: string): RawBuilder<boolean> {
  return sql<boolean>`${sql.ref(column)} LIKE ${`${escapeLike(text)}%`} ESCAPE '\\'`;
}
