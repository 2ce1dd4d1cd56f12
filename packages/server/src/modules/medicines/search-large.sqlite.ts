import type { Sqlite } from '../../db/connection';
import { ftsPrefixQuery, MEDICINE_SEARCH_SQL } from '../../db/dialect';
import { pageWindow } from '../../db/paginate';
import { sqliteStatement } from '../../db/prepared';
import type { IdPage } from './list-types';

/**
 * Search-as-you-type over a large catalogue on a till's SQLite (MedicineStore.searchLargeActive, answered by
 * store.sqlite.ts): short prefixes ("ka") match thousands of medicines; sorting all of them by name for a page
 * of 20 costs ~10 ms at 100k medicines. When the FTS index says there are many matches, the page is read from
 * the (is_active, name) index in order instead, testing each entry against the match set, and stops after the
 * page: cost follows the page, not the match count. Order in both paths: names that start with the typed text
 * first, then by name, then rowid.
 */

const LARGE = 1500;
const MAX = '\u{10FFFF}';

const MATCH_COUNT = 'SELECT count(*) AS n FROM medicines_fts WHERE medicines_fts MATCH ?';
const INACTIVE_MATCHES = `SELECT count(*) AS n FROM medicines INDEXED BY medicines_active_name WHERE is_active = 0 AND ${MEDICINE_SEARCH_SQL}`;
const PREFIX_RANGE = 'is_active = 1 AND name >= ? COLLATE NOCASE AND name < ? COLLATE NOCASE';
const PREFIX_COUNT = `SELECT count(*) AS n FROM medicines INDEXED BY medicines_active_name WHERE ${PREFIX_RANGE} AND ${MEDICINE_SEARCH_SQL}`;
const PREFIX_PAGE = `SELECT id FROM medicines INDEXED BY medicines_active_name WHERE ${PREFIX_RANGE} AND ${MEDICINE_SEARCH_SQL}
  ORDER BY name COLLATE NOCASE, rowid LIMIT ? OFFSET ?`;
const REST_WHERE = `is_active = 1 AND NOT (name >= ? COLLATE NOCASE AND name < ? COLLATE NOCASE) AND ${MEDICINE_SEARCH_SQL}`;
/** Many other matches: walk the name index, it finds a page quickly. */
const REST_PAGE_SCAN = `SELECT id FROM medicines INDEXED BY medicines_active_name WHERE ${REST_WHERE}
  ORDER BY name COLLATE NOCASE, rowid LIMIT ? OFFSET ?`;
/** Few other matches: fetch and sort them (walking the index would cross most of it). */
const REST_PAGE_SORT = `SELECT id FROM medicines WHERE ${REST_WHERE} ORDER BY name COLLATE NOCASE, rowid LIMIT ? OFFSET ?`;

/**
 * How many medicines of the flag match `text` (a search with no other condition): the FTS index's count of its
 * matches, less (or only) the inactive ones, found on the (is_active, name) index; never a lookup of every match.
 */
export function searchTotal(sqlite: Sqlite, text: string, active: 'true' | 'false' | 'all'): number {
  const query = ftsPrefixQuery(text);
  if (query === null) return 0;
  const count = (statement: string) => (sqliteStatement(sqlite, statement).get(query) as { n: number }).n;
  if (active === 'all') return count(MATCH_COUNT);
  const inactive = count(INACTIVE_MATCHES);
  return active === 'false' ? inactive : count(MATCH_COUNT) - inactive;
}

/**
 * The page of active medicine ids matching `text`, with the total, when the match set is large; null when
 * the ordinary query (sort all matches) is the cheaper plan.
 */
export function searchLargeActive(
  sqlite: Sqlite,
  text: string,
  page: number,
  pageSize: number,
): IdPage | null {
  const query = ftsPrefixQuery(text);
  if (query === null) return { ids: [], total: 0 };
  const matches = (sqliteStatement(sqlite, MATCH_COUNT).get(query) as { n: number }).n;
  if (matches < LARGE) return null;
  const total = matches - (sqliteStatement(sqlite, INACTIVE_MATCHES).get(query) as { n: number }).n;
  const lo = text.trim();
  const hi = lo + MAX;
  const { offset } = pageWindow({ page, page_size: pageSize });
  const ids: string[] = [];
  let inPrefix: number;
  if (offset === 0) {
    // The usual case (the first page while typing): the prefix page tells how many names start with the text
    // whenever it is not full, so no count is needed.
    const rows = sqliteStatement(sqlite, PREFIX_PAGE).all(lo, hi, query, pageSize, 0) as Array<{
      id: string;
    }>;
    for (const r of rows) ids.push(r.id);
    if (ids.length === pageSize) return { ids, total };
    inPrefix = ids.length;
  } else {
    inPrefix = (sqliteStatement(sqlite, PREFIX_COUNT).get(lo, hi, query) as { n: number }).n;
    if (offset < inPrefix) {
      const rows = sqliteStatement(sqlite, PREFIX_PAGE).all(lo, hi, query, pageSize, offset) as Array<{
        id: string;
      }>;
      for (const r of rows) ids.push(r.id);
    }
  }
  const rest = total - inPrefix;
  if (ids.length < pageSize && rest > 0) {
    const restOffset = Math.max(0, offset - inPrefix);
    const plan = sqliteStatement(sqlite, rest >= LARGE ? REST_PAGE_SCAN : REST_PAGE_SORT);
    const rows = plan.all(lo, hi, query, pageSize - ids.length, restOffset) as Array<{ id: string }>;
    for (const r of rows) ids.push(r.id);
  }
  return { ids, total };
}
