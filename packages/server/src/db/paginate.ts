import { type SelectQueryBuilder, sql } from 'kysely';

export interface PageRequest {
  page: number;
  page_size: number;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  page_size: number;
}

export interface PageOptions {
  /** Every row from the first (a CSV export): no LIMIT/OFFSET; the answer still echoes page and page_size. */
  all?: boolean;
  /** The count of every match, when the caller has it already (it chose its plan by it): not counted again. */
  total?: number;
}

/**
 * The rows a page covers: LIMIT page_size OFFSET (page - 1) × page_size. The one place that says so, for
 * `paginate` and for the hand-built pages of hot paths (a till's medicines page, search-as-you-type, the
 * stock sort, the users page with its total on every row).
 */
export function pageWindow(request: PageRequest): { limit: number; offset: number } {
  return { limit: request.page_size, offset: (request.page - 1) * request.page_size };
}

/** The answer of every list route: the page's items, the count of every match, the request's page and size. */
export function pageAnswer<T>(request: PageRequest, items: T[], total: number | string | bigint): Page<T> {
  return { items, total: Number(total), page: request.page, page_size: request.page_size };
}

/**
 * One page of a filtered list and the count of every match, as every list route answers: the count runs on
 * `filtered` with its selection (if any) replaced by COUNT(*), the page on `rows(filtered)` (its columns,
 * order, and any join the rows need and the count does not) with LIMIT/OFFSET from the request.
 */
export async function paginate<DB, TB extends keyof DB, Filtered, RowDB, RowTB extends keyof RowDB, Row>(
  filtered: SelectQueryBuilder<DB, TB, Filtered>,
  request: PageRequest,
  rows: (q: SelectQueryBuilder<DB, TB, Filtered>) => SelectQueryBuilder<RowDB, RowTB, Row>,
  options: PageOptions = {},
): Promise<Page<Row>> {
  const total =
    options.total ??
    countOf(await filtered.clearSelect().select(sql`count(*)`.as('total')).executeTakeFirstOrThrow());
  const ordered = rows(filtered);
  const { limit, offset } = pageWindow(request);
  const items = await (options.all ? ordered : ordered.limit(limit).offset(offset)).execute();
  return pageAnswer(request, items, total);
}

/**
 * The `total` of a count row, checked: Kysely cannot name the selection of a builder generic over its tables,
 * and drivers give a count as a number (SQLite), a string or a bigint (PostgreSQL).
 */
function countOf(row: unknown): number | string | bigint {
  const total = typeof row === 'object' && row !== null && 'total' in row ? row.total : undefined;
  if (typeof total === 'number' || typeof total === 'string' || typeof total === 'bigint') return total;
  throw new Error(`paginate: a count row without a total (${JSON.stringify(row)})`);
}
