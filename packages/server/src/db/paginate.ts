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

/**
 * One page of a filtered list and the count of every match, as every list route answers: the count runs on
 * `filtered`, the page on `rows(filtered)` (its columns and order) with LIMIT/OFFSET from the request.
 */
export async function paginate<DB, TB extends keyof DB, Filtered, Row>(
  filtered: SelectQueryBuilder<DB, TB, Filtered>,
  request: PageRequest,
  rows: (q: SelectQueryBuilder<DB, TB, Filtered>) => SelectQueryBuilder<DB, TB, Row>,
): Promise<Page<Row>> {
  // Typed by hand: Kysely cannot narrow the selection of a builder generic over its tables.
  const counted = (await filtered
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow()) as unknown as { total: number | string | bigint };
  const items = await rows(filtered)
    .limit(request.page_size)
    .offset((request.page - 1) * request.page_size)
    .execute();
  return { items, total: Number(counted.total), page: request.page, page_size: request.page_size };
}
