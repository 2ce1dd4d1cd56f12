import { addDays } from '@pharmacy/contracts/time';
import { type SelectQueryBuilder, sql } from 'kysely';

/**
 * A list filter on whole UTC days (`from` and `to` dates, both inclusive; either may be absent): the rows whose
 * ISO timestamp `column` lies from `from`'s midnight up to, not including, the midnight after `to`.
 */
export function withinUtcDays<DB, TB extends keyof DB, O>(
  q: SelectQueryBuilder<DB, TB, O>,
  column: string,
  f: { from?: string | undefined; to?: string | undefined },
): SelectQueryBuilder<DB, TB, O> {
  let out = q;
  if (f.from) out = out.where(sql.ref(column), '>=', `${f.from}T00:00:00.000Z`);
  if (f.to) out = out.where(sql.ref(column), '<', `${addDays(f.to, 1)}T00:00:00.000Z`);
  return out;
}
