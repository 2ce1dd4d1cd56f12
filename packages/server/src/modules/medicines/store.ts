import type { RawBuilder } from 'kysely';
import type { AppContext } from '../../app-context';
import { type Db, requireSqlite } from '../../db/connection';
import { dialectOf } from '../../db/dialect';
import type { JsonText } from '../../http/route';
import type { BrowseFilter, CatalogueFilter, IdPage, MedicineWithStock, StockRow } from './list-types';
import type { ZeroQuery } from './stock-pager';
import { PostgresMedicineStore } from './store.postgres';
import { SqliteMedicineStore } from './store.sqlite';

export type { BrowseFilter, IdPage, MedicineWithStock, StockRow };

/**
 * The SQL of the Medicines area that differs between a till's SQLite and central's PostgreSQL. Services ask the
 * store (one per database, chosen once by `medicineStore`) and never look at the dialect themselves; the SQL
 * both engines speak stays in the services (service.ts, stock-sort.ts). store.sqlite.ts and store.postgres.ts
 * implement it without importing this file (it imports them: no circle), so `medicineStore` is where each is
 * checked against it.
 */
export interface MedicineStore {
  /**
   * A page of the back office's table built by the engine itself (SQLite: the JSON written by SQLite, kept while
   * the catalogue and the branch's stock are unchanged); null where the general query serves it.
   */
  browse(
    app: AppContext,
    branchId: string,
    day: string,
    exponent: number,
    f: BrowseFilter,
  ): Promise<JsonText> | null;
  /**
   * Active medicines matching search-as-you-type `text` when that match set is large, read in the relevance order
   * without sorting every match; null where the general query is the cheaper plan.
   */
  searchLargeActive(text: string, page: number, pageSize: number): IdPage | null;
  /**
   * How many medicines the list's conditions let through, from kept counts where there are any (SQLite: the
   * flag's count in medicine_counts; a search with no other condition, the FTS index's count of its matches);
   * null where counting the medicines is the way.
   */
  catalogueTotal(f: CatalogueFilter): number | null;
  /** Medicines `alias` whose name, generic name or barcode has a word beginning with each word of `text`; null: no words. */
  searchCondition(text: string, alias: string): RawBuilder<boolean> | null;
  /**
   * Medicines by id with the branch's sellable stock on `day` (medicine_stock, settled to `day` first), in no
   * particular order.
   */
  withStock(ids: readonly string[], branchId: string, day: string): Promise<MedicineWithStock[]>;
  /**
   * Rows of a stretch of the medicines holding none (stock-sort.ts), read by merging the catalogue's and
   * medicine_stock's name-ordered indexes rather than probing medicine_stock once per medicine, many times
   * slower where nearly every medicine has stock: SQLite runs the compound EXCEPT (its planner merges the two
   * ordered reads of a compound SELECT), PostgreSQL the join of the two ordered reads, told to merge (with a
   * search or filter of the list's own, the anti join on the key).
   */
  merged<R>(query: ZeroQuery<R>): Promise<R[]>;
  /** A derived table `(id, stock)` of the given rows, to join or exclude in one statement whatever their number. */
  rowsTable(rows: readonly StockRow[]): RawBuilder<unknown>;
}

const stores = new WeakMap<Db, MedicineStore>();

/** The store of this database, made once per Kysely instance (a server's, a test's, a tool's). */
export function medicineStore(app: Pick<AppContext, 'db' | 'sqlite'>): MedicineStore {
  let store = stores.get(app.db);
  if (!store) {
    store =
      dialectOf(app.db) === 'postgres'
        ? new PostgresMedicineStore(app.db)
        : new SqliteMedicineStore(app.db, requireSqlite(app, 'The SQLite medicine store'));
    stores.set(app.db, store);
  }
  return store;
}
