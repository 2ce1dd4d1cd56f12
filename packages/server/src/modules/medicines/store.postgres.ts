import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connection';
import { medicineSearchCondition, tsPrefixQuery } from '../../db/dialect';
import type { IdPage, MedicineWithStock, StockRow } from './list-types';
import type { ZeroQuery } from './stock-pager';
import { settleStockFor } from './stock-sort';

/**
 * The Medicines area on central's PostgreSQL (implements MedicineStore of store.ts, which picks it). Its planner
 * serves the general queries of service.ts well (the GIN index of the search words, then a top-N sort), so
 * there is no page built by the engine and no index walk for large match sets; what differs is the search
 * condition and how a list is bound (an array, a JSON document).
 */
export class PostgresMedicineStore {
  readonly #db: Db;

  constructor(db: Db) {
    this.#db = db;
  }

  browse(): null {
    return null;
  }

  searchLargeActive(): IdPage | null {
    return null;
  }

  catalogueTotal(): null {
    return null;
  }

  /** The GIN-indexed tsvector of name, generic name and barcode against a prefix tsquery. */
  searchCondition(text: string, alias: string): RawBuilder<boolean> | null {
    return tsPrefixQuery(text) === null ? null : medicineSearchCondition('postgres', text, alias);
  }

  /** With the stock medicine_stock holds once settled to `day` (stock-sort.ts). */
  async withStock(ids: readonly string[], branchId: string, day: string): Promise<MedicineWithStock[]> {
    await settleStockFor(this.#db, branchId, day);
    const { rows } = await sql<MedicineWithStock>`SELECT m.*, coalesce(s.qty, 0) AS stock_quantity
      FROM medicines m LEFT JOIN medicine_stock s ON s.branch_id = ${branchId} AND s.medicine_id = m.id
      WHERE m.id = ANY(CAST(${[...ids]} AS TEXT[]))`.execute(this.#db);
    return rows;
  }

  /**
   * A stretch of the zero segment, in a read-only transaction without parallel workers (2 of them only share
   * the cores), READ COMMITTED as a statement outside a transaction is (serializable's predicate locks on every
   * index page read cost half as much again). Without conditions of its own, the merge of the two name indexes read in the page's direction,
   * stopping after the page: nested loops (a probe per medicine, where nearly every one is stocked), hashes
   * and sorts (of the branch's whole rows: a hash on names costs 0.3-0.5 s over 100,000) turned off, as its
   * planner chose them for some offsets and directions. With a search or filter, the anti join on the key,
   * as the planner likes (the matches' few thousand probes, or a hash of ids).
   */
  merged<R>({ merge, antiJoin }: ZeroQuery<R>): Promise<R[]> {
    return this.#db
      .transaction()
      .setIsolationLevel('read committed')
      .setAccessMode('read only')
      .execute(async (trx) => {
        const off = merge ? ['enable_nestloop', 'enable_hashjoin', 'enable_sort'] : [];
        await sql`SELECT set_config('max_parallel_workers_per_gather', '0', true)
          ${sql.join(
            off.map((name) => sql`, set_config(${name}, 'off', true)`),
            sql``,
          )}`.execute(trx);
        return (await (merge ?? antiJoin).execute(trx)).rows;
      });
  }

  /** Rows bound as one JSON parameter: `[[id, stock], …]`. */
  rowsTable(rows: readonly StockRow[]): RawBuilder<unknown> {
    const json = JSON.stringify(rows.map((r) => [r.id, r.stock]));
    return sql`(SELECT v->>0 AS id, CAST(v->>1 AS BIGINT) AS stock FROM json_array_elements(CAST(${json} AS JSON)) AS v)`;
  }
}
