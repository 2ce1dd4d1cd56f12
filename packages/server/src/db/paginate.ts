import type { SelectQueryBuilder } from 'kysely';

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
  // Typed by hand: Kysely cannot narrow the selection of a builder generic over its tables.
  const counted = (await filtered
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow()) as unknown as { total: number | string | bigint };
  const ordered = rows(filtered);
  const items = await (options.all
    ? ordered
    : ordered.limit(request.page_size).offset((request.page - 1) * request.page_size)
  ).execute();
  return { items, total: Number(counted.total), page: request.page, page_size: request.page_size };
}
