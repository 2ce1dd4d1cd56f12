import { baseExponent } from '../currency/service';
import type { Medicine, MedicineSort } from '@pharmacy/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { startsWithText } from '../../db/like';
import { pageAnswer, pageWindow, paginate } from '../../db/paginate';
import { rawQuery } from '../../db/raw-query';
import { NotFound } from '../../lib/errors';
import type { JsonText } from '../../http/route';
import { branchTimeZone } from '../branches/time-zone';
import { localDate } from '@pharmacy/contracts/time';
import { barcodeKey, toMedicine } from './service';
import { activeCondition, catalogueConditions } from './list-conditions';
import type { CatalogueFilter } from './list-types';
import { settleStockFor, stockSorted as stockSortedRows } from './stock-sort';
import { medicineStore } from './store';

/**
 * The catalogue read (GET /medicines and the barcode lookup), in SQL both engines speak; what differs between
 * them comes from the area's store (store.ts): the back office's page built by the engine where it can, the
 * search condition, a list bound as one parameter.
 */
export interface MedicineListFilter extends CatalogueFilter {
  page: number;
  page_size: number;
  low_stock?: boolean;
  out_of_stock?: boolean;
  sort: MedicineSort;
  order: 'asc' | 'desc';
}

const barcodeQuery = rawQuery<{ id: string }>(
  'SELECT id FROM medicines WHERE barcode_key = ? ORDER BY is_active DESC, updated_at DESC LIMIT 1',
);

/** Medicines by id, in the given order, with the branch's stock: the second step of every list. */
async function hydrate(app: AppContext, ids: string[], branchId: string, day: string): Promise<Medicine[]> {
  if (ids.length === 0) return [];
  const rows = await medicineStore(app).withStock(ids, branchId, day);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const exponent = await baseExponent(app);
  const out: Medicine[] = [];
  for (const id of ids) {
    const r = byId.get(id);
    if (r) out.push(await toMedicine(app, r, Number(r.stock_quantity), exponent));
  }
  return out;
}

/**
 * The catalogue with the branch's stock: filters, search-as-you-type (FTS5 prefix) and exact barcode. Two
 * steps: the page of ids (filters, order, limit) and then the rows with their stock, so stock is summed for
 * the page only, never for every match of a short prefix.
 */
export async function listMedicines(
  app: AppContext,
  branchId: string,
  f: MedicineListFilter,
): Promise<JsonText | { items: Medicine[]; total: number; page: number; page_size: number }> {
  const day = await branchTodayCached(app, branchId);
  const store = medicineStore(app);
  const stockFilters = f.low_stock !== undefined || f.out_of_stock !== undefined;
  if (!f.search && !f.barcode && !stockFilters) {
    // A page the engine builds itself (a till's SQLite: its JSON, kept while nothing changed), where it can.
    const page = store.browse(app, branchId, day, await baseExponent(app), f);
    if (page) return page;
  }
  const sorted = f.sort !== 'name' || f.order !== 'asc';
  const plain =
    !sorted &&
    f.is_active === 'true' &&
    !f.barcode &&
    !f.category &&
    f.requires_prescription === undefined &&
    f.is_controlled === undefined &&
    !stockFilters;
  if (f.search && plain) {
    const large = store.searchLargeActive(f.search, f.page, f.page_size);
    if (large) {
      const items = await hydrate(app, large.ids, branchId, day);
      return pageAnswer(f, items, large.total);
    }
  }
  // The filter's conditions but is_active, which the stock sort reads from its own index.
  const conditions = catalogueConditions(f);
  if (f.search !== undefined && f.search !== '') {
    const search = store.searchCondition(f.search, 'm');
    if (search === null) return pageAnswer(f, [], 0);
    conditions.push(search);
  }
  if (f.barcode) conditions.push(sql<boolean>`m.barcode_key = ${barcodeKey(f.barcode)}`);
  // medicine_stock settled to the branch's day holds each medicine's sellable stock: one key seek per match.
  await settleStockFor(app.db, branchId, day);
  const active = activeCondition('m', f.is_active);
  const catalogue = [...conditions, ...(active ? [active] : [])].reduce(
    (query, c) => query.where(c),
    medicinesFrom(app.db),
  );
  const count = async (query: typeof catalogue) =>
    Number(
      (await query.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow()).total,
    );
  const stock = sql<number>`coalesce((SELECT s.qty FROM medicine_stock s
    WHERE s.branch_id = ${branchId} AND s.medicine_id = m.id), 0)`;
  const stockConditions: RawBuilder<boolean>[] = [];
  if (f.low_stock !== undefined)
    stockConditions.push(
      f.low_stock
        ? sql<boolean>`${stock} <= m.low_stock_threshold`
        : sql<boolean>`${stock} > m.low_stock_threshold`,
    );
  if (f.out_of_stock !== undefined)
    stockConditions.push(f.out_of_stock ? sql<boolean>`${stock} <= 0` : sql<boolean>`${stock} > 0`);
  const q = stockConditions.reduce((query, c) => query.where(c), catalogue);
  const searched = Boolean(f.search || f.barcode);
  // Without a search, the stock filters' total is counted per segment of medicine_stock's index (stock-sort.ts)
  // rather than by testing every medicine's stock.
  const byStock = (catalogueTotal: number, withTotal: boolean) =>
    stockSorted(app, branchId, day, conditions, catalogueTotal, f, withTotal);
  // Sorted by stock: the matches of a search or barcode, up to a few thousand, are sorted whole (where a search
  // matches few, walking the stock index to find them costs more); otherwise the page is read in segments from
  // medicine_stock's index (stock-sort.ts), never sorting every match, the stock filters keeping or cutting
  // segments (and comparing units with thresholds in one range of the index).
  const catalogueTotal = store.catalogueTotal(f) ?? (await count(catalogue));
  const matching = searched && catalogueTotal <= SORT_WHOLE;
  if (f.sort === 'stock_quantity' && !matching) {
    const page = await byStock(catalogueTotal, stockFilters);
    const items = await hydrate(
      app,
      page.rows.map((r) => r.id),
      branchId,
      day,
    );
    return pageAnswer(f, items, page.total ?? catalogueTotal);
  }
  const total = !stockFilters
    ? catalogueTotal
    : searched
      ? await count(q)
      : ((await byStock(catalogueTotal, true)).total ?? 0);
  const { items: rows } = await paginate(q, f, (q) => orderedIds(q, f, sorted, stock), { total });
  const items = await hydrate(
    app,
    rows.map((r) => r.id),
    branchId,
    day,
  );
  return pageAnswer(f, items, total);
}

/** Up to this many matches a page sorted by stock sorts them all (the engine's top-N sort of key seeks). */
const SORT_WHOLE = 5000;

/**
 * A page sorted by the branch's stock, in segments from medicine_stock (stock-sort.ts): no sort of every match;
 * with the filter's total when asked (`catalogueTotal`: the medicines it lets through, the stock filters aside).
 */
function stockSorted(
  app: AppContext,
  branchId: string,
  day: string,
  conditions: RawBuilder<boolean>[],
  catalogueTotal: number,
  f: MedicineListFilter,
  withTotal: boolean,
) {
  const store = medicineStore(app);
  return stockSortedRows(
    {
      db: app.db,
      branchId,
      day,
      active: f.is_active,
      conditions,
      stockFilter: { low_stock: f.low_stock, out_of_stock: f.out_of_stock },
      desc: f.order === 'desc',
      // A total alone: no rows.
      ...(f.sort === 'stock_quantity' ? pageWindow(f) : { limit: 0, offset: 0 }),
      total: async () => catalogueTotal,
      rowsTable: (rows) => store.rowsTable(rows),
      merged: (query) => store.merged(query),
      searched: Boolean(f.search),
    },
    withTotal,
  );
}

const medicinesFrom = (db: Db) => db.selectFrom('medicines as m');

/** The general query's ids in the filter's order, ties by name then id (paginate takes the page). */
function orderedIds(
  q: ReturnType<typeof medicinesFrom>,
  f: MedicineListFilter,
  sorted: boolean,
  stock: RawBuilder<number>,
) {
  let idsQ = q.select('m.id');
  if (sorted) {
    const dir = f.order === 'desc' ? 'desc' : 'asc';
    idsQ = idsQ.orderBy(
      f.sort === 'stock_quantity'
        ? sql`${stock} ${sql.raw(dir)}`
        : f.sort === 'name'
          ? sql`m.name COLLATE NOCASE ${sql.raw(dir)}`
          : f.sort === 'generic_name'
            ? sql`m.generic_name COLLATE NOCASE ${sql.raw(dir)}`
            : // NULL sorts first ascending on SQLite and last on PostgreSQL: say it, so both agree.
              sql`${sql.ref(`m.${f.sort}`)} ${sql.raw(dir === 'asc' ? 'ASC NULLS FIRST' : 'DESC NULLS LAST')}`,
    );
  } else if (f.search) {
    // Names that start with what was typed come first, then the other matches (generic name, barcode, later words).
    idsQ = idsQ.orderBy(sql`CASE WHEN ${startsWithText('m.name', f.search.trim())} THEN 0 ELSE 1 END`);
  }
  // Ties follow the sort's direction (a descending list is the ascending one reversed), ending on the id as
  // the browse path does, so pages never overlap.
  const tie = sql.raw(sorted && f.order === 'desc' ? 'DESC' : 'ASC');
  return idsQ.orderBy(sql`m.name COLLATE NOCASE ${tie}`).orderBy(sql`m.id ${tie}`);
}

/** Exact barcode lookup (GTIN-aware): the active medicine first, else the most recently updated inactive one. */
export async function findByBarcode(app: AppContext, code: string, branchId: string): Promise<Medicine> {
  const row = await barcodeQuery.first(app, [barcodeKey(code)]);
  if (!row) throw new NotFound('Medicine with barcode', code);
  const [medicine] = await hydrate(app, [row.id], branchId, await branchTodayCached(app, branchId));
  return medicine!;
}

/**
 * The branch's local date for the hot reads, with its time zone cached for a minute (a branch's time zone
 * rarely changes; a change shows within a minute here, at once everywhere else).
 */
async function branchTodayCached(app: AppContext, branchId: string): Promise<string> {
  const key = `branch-tz:${branchId}`;
  const hit = app.cache.get(key) as { tz: string; at: number } | undefined;
  if (hit && Date.now() - hit.at < 60_000) return localDate(hit.tz);
  const tz = await branchTimeZone(app.db, branchId);
  app.cache.set(key, { tz, at: Date.now() });
  return localDate(tz);
}
