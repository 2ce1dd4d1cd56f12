import type { MedicineSort } from '@pharmacy/contracts';
import { type RawBuilder, sql } from 'kysely';
import type { AppContext } from '../../app-context';
import type { Db, Sqlite } from '../../db/connection';
import { ftsPrefixQuery, indexedBy, inJsonArray, medicineSearchCondition } from '../../db/dialect';
import { pageWindow } from '../../db/paginate';
import { sqliteStatement } from '../../db/prepared';
import { JsonText } from '../../http/route';
import { imageReadUrl } from '../../storage/image-storage';
import type { BrowseFilter, CatalogueFilter, IdPage, MedicineWithStock, StockRow } from './list-types';
import { searchLargeActive, searchTotal } from './search-large.sqlite';
import { catalogueConditions } from './list-conditions';
import type { ZeroQuery } from './stock-pager';
import { settleStockDay, stockSortedPage } from './stock-sort';

/**
 * The Medicines area on a till's SQLite (implements MedicineStore of store.ts, which picks it).
 *
 * The back office's Medicines table (`browse`): a page of the catalogue with the branch's stock, sorted and
 * filtered. One statement finds the page's ids (from the index alone when sorted by name, migration 0018), one
 * more their stock in the branch (stock-sort.ts when sorted by it); each row's catalogue part is JSON written
 * by SQLite (json_object, so the server neither builds 50 JS objects of 22 columns nor stringifies them) and
 * kept per connection while the catalogue's list version is unchanged, with the ids of the pages in a
 * catalogue order (they change only when the catalogue does), so a page rebuilt after a sale or receipt reads
 * only its stock. The total of an unfiltered list comes from `medicine_counts` (trigger-kept, migration 0014)
 * instead of counting 100,000 index entries. Each row's JSON is the `Medicine` of `toMedicine` (a test holds
 * them equal); image_url, a signed URL, is added in JS for the rows that have an image.
 *
 * Search-as-you-type over a large catalogue: search-large.sqlite.ts.
 *
 * Every statement comes from the connection's one statement cache (db/prepared.ts).
 */
export class SqliteMedicineStore {
  readonly #db: Db;
  readonly #sqlite: Sqlite;

  constructor(db: Db, sqlite: Sqlite) {
    this.#db = db;
    this.#sqlite = sqlite;
  }

  browse(
    app: AppContext,
    branchId: string,
    day: string,
    exponent: number,
    f: BrowseFilter,
  ): Promise<JsonText> {
    return browseMedicines(app, this.#db, this.#sqlite, branchId, day, exponent, f);
  }

  searchLargeActive(text: string, page: number, pageSize: number): IdPage | null {
    return searchLargeActive(this.#sqlite, text, page, pageSize);
  }

  catalogueTotal(f: CatalogueFilter): number | null {
    const other = f.category !== undefined || f.requires_prescription !== undefined;
    if (f.barcode || other || f.is_controlled !== undefined) return null;
    if (f.search) return searchTotal(this.#sqlite, f.search, f.is_active);
    return total(this.#sqlite, { ...f, page: 1, page_size: 1, sort: 'name', order: 'asc' }, '', {});
  }

  /** FTS5: `alias`.rowid among the index's prefix matches. */
  searchCondition(text: string, alias: string): RawBuilder<boolean> | null {
    return ftsPrefixQuery(text) === null ? null : medicineSearchCondition('sqlite', text, alias);
  }

  async withStock(ids: readonly string[], branchId: string, day: string): Promise<MedicineWithStock[]> {
    await settled(this.#db, this.#sqlite, branchId, day);
    return sqliteStatement(this.#sqlite, WITH_STOCK).all(
      branchId,
      JSON.stringify(ids),
    ) as MedicineWithStock[];
  }

  merged<R>(query: ZeroQuery<R>): Promise<R[]> {
    return mergedExcept(this.#db, query);
  }

  rowsTable(rows: readonly StockRow[]): RawBuilder<unknown> {
    return rowsTable(rows);
  }
}

/** The compound EXCEPT: SQLite merges its two name-ordered reads, stopping after the page. */
async function mergedExcept<R>(db: Db, query: ZeroQuery<R>): Promise<R[]> {
  return (await query.except.execute(db)).rows;
}

/** Rows bound as one JSON parameter: `[[id, stock], …]` read by json_each. */
const rowsTable = (rows: readonly StockRow[]): RawBuilder<unknown> =>
  sql`(SELECT json_extract(value, '$[0]') AS id, json_extract(value, '$[1]') AS stock FROM json_each(${JSON.stringify(rows.map((r) => [r.id, r.stock]))}))`;

/**
 * Sellable units of the page's medicines (a JSON array of ids) in the branch, as medicine_stock holds them
 * (settled to the branch's day first, see `settled`): one primary-key seek per id, no batch read.
 */
const PAGE_STOCK = `SELECT s.medicine_id, s.qty FROM medicine_stock s WHERE s.branch_id = ? AND ${inJsonArray('s.medicine_id')}`;
/**
 * The same for a page in name order: the stocked medicines between its first and last name, one range of
 * medicine_stock_names (qty is read from the rows it finds: kept out of that index, a sale rewrites one index
 * entry fewer).
 */
const NAME_RANGE_STOCK = `SELECT s.medicine_id, s.qty FROM medicine_stock s INDEXED BY medicine_stock_names
  WHERE s.branch_id = ? AND s.name COLLATE NOCASE BETWEEN ? AND ?`;

/**
 * The page's stock: by name, one range of medicine_stock_names (its ids lie together there, where key seeks
 * land on a different page of the table for each id); in other orders, a seek per id.
 */
function pageStock(
  sqlite: Sqlite,
  branchId: string,
  f: BrowseFilter,
  ids: string[],
  rows: Map<string, RowText>,
): Array<[string, number]> {
  const names = ids.map((id) => rows.get(id)?.name ?? '');
  if (f.sort !== 'name' || names.length === 0 || names.includes(''))
    return sqliteStatement(sqlite, PAGE_STOCK, 'raw').all(branchId, JSON.stringify(ids)) as Array<
      [string, number]
    >;
  const [low, high] = f.order === 'desc' ? [names.at(-1), names[0]] : [names[0], names.at(-1)];
  // Equal names (case aside) may reach past the page: only its ids are kept.
  const onPage = new Set(ids);
  return (
    sqliteStatement(sqlite, NAME_RANGE_STOCK, 'raw').all(branchId, low, high) as Array<[string, number]>
  ).filter(([id]) => onPage.has(id));
}

/** Medicines by id (a JSON array) with the branch's sellable stock (medicine_stock, settled). */
const WITH_STOCK = `SELECT m.*, coalesce(s.qty, 0) AS stock_quantity FROM medicines m
  LEFT JOIN medicine_stock s ON s.branch_id = ? AND s.medicine_id = m.id WHERE ${inJsonArray('m.id')}`;

/**
 * medicine_stock of the branch settled to `day` (stock-sort.ts): a statement of the connection's cache on the
 * hot path, the settling itself once a day.
 */
async function settled(db: Db, sqlite: Sqlite, branchId: string, day: string): Promise<void> {
  const at = sqliteStatement(sqlite, 'SELECT day FROM medicine_stock_days WHERE branch_id = ?', 'pluck').get(
    branchId,
  );
  if (at !== day) await settleStockDay(db, branchId, day);
}

/** The ORDER BY of each sort; every one ends on name and rowid so pages never overlap. */
const ORDER: Record<MedicineSort, (dir: string) => string> = {
  name: (d) => `m.name COLLATE NOCASE ${d}, m.id ${d}`,
  generic_name: (d) => `m.generic_name COLLATE NOCASE ${d}, m.name COLLATE NOCASE ${d}, m.rowid ${d}`,
  category: (d) => `m.category ${d}, m.name COLLATE NOCASE ${d}, m.rowid ${d}`,
  selling_price: (d) => `m.selling_price ${d}, m.name COLLATE NOCASE ${d}, m.rowid ${d}`,
  stock_quantity: (d) => `stock ${d}, m.name COLLATE NOCASE ${d}, m.id ${d}`,
};

/**
 * The index that reads a sort's page in order. Named, not left to the planner: without statistics for an
 * index (a database migrated after its last ANALYZE) SQLite picked another is_active index and sorted all
 * 100,000 rows (0.5 s a page).
 */
function indexFor(f: BrowseFilter): string {
  if (f.is_active === 'all') return '';
  if (f.category !== undefined)
    return f.sort === 'name' || f.sort === 'category' ? indexedBy('medicines_active_category') : '';
  return indexedBy(
    {
      name: 'medicines_active_name_id',
      generic_name: 'medicines_active_generic',
      category: 'medicines_active_category',
      selling_price: 'medicines_active_price',
      // by stock, the zero-stock segment is read in name order (stock-sort.ts)
      stock_quantity: 'medicines_active_name_id',
    }[f.sort],
  );
}

const bool = (column: string) => `json(iif(${column} = 1, 'true', 'false'))`;

/** Minor units as a decimal string in SQL, as formatMinor writes it (prices are >= 0; money-sql.test holds the two together). */
export function money(column: string, exponent: number): string {
  if (exponent === 0) return `CAST(${column} AS TEXT)`;
  const unit = 10 ** exponent;
  return `(${column} / ${unit}) || '.' || printf('%0${exponent}d', ${column} % ${unit})`;
}

/** A row's catalogue part as JSON (everything but stock_quantity, which the page adds). */
function rowJson(exponent: number): string {
  return `json_object('id', m.id, 'name', m.name, 'generic_name', m.generic_name, 'barcode', m.barcode,
    'category', m.category, 'form', m.form, 'strength', m.strength, 'unit', m.unit,
    'selling_price', ${money('m.selling_price', exponent)},
    'max_public_price', iif(m.max_public_price IS NULL, NULL, ${money('m.max_public_price', exponent)}),
    'low_stock_threshold', m.low_stock_threshold,
    'requires_prescription', ${bool('m.requires_prescription')}, 'is_controlled', ${bool('m.is_controlled')},
    'requires_cold_chain', ${bool('m.requires_cold_chain')}, 'is_active', ${bool('m.is_active')},
    'vat_category', m.vat_category, 'regulator_registration_no', m.regulator_registration_no,
    'image_key', m.image_key, 'image_url', NULL, 'created_at', m.created_at, 'updated_at', m.updated_at)`;
}

/** The WHERE of a filter; constants a partial index names are literals (docs/CONVENTIONS.md). */
function whereOf(f: BrowseFilter): string {
  const parts = conditionsOf(f);
  return parts.length ? `WHERE ${parts.join(' AND ')}` : '';
}

function conditionsOf(f: BrowseFilter): string[] {
  const parts: string[] = [];
  if (f.is_active !== 'all') parts.push(`m.is_active = ${f.is_active === 'true' ? 1 : 0}`);
  if (f.category !== undefined) parts.push('m.category = :category');
  if (f.requires_prescription !== undefined)
    parts.push(`m.requires_prescription = ${f.requires_prescription ? 1 : 0}`);
  if (f.is_controlled !== undefined) parts.push(`m.is_controlled = ${f.is_controlled ? 1 : 0}`);
  return parts;
}

function total(sqlite: Sqlite, f: BrowseFilter, where: string, params: Record<string, unknown>): number {
  const filtered =
    f.category !== undefined || f.requires_prescription !== undefined || f.is_controlled !== undefined;
  if (!filtered) {
    const text =
      f.is_active === 'all'
        ? 'SELECT coalesce(sum(n), 0) FROM medicine_counts'
        : `SELECT coalesce(sum(n), 0) FROM medicine_counts WHERE is_active = ${f.is_active === 'true' ? 1 : 0}`;
    return Number(sqliteStatement(sqlite, text, 'pluck').get());
  }
  return Number(
    sqliteStatement(sqlite, `SELECT count(*) FROM medicines m ${where}`, 'pluck').get(
      f.category === undefined ? {} : { category: params.category },
    ),
  );
}

/**
 * Pages answered lately, per connection, valid while the catalogue's and the branch's list_versions (trigger-
 * set, migration 0014) are the ones they were built under and for at most PAGE_TTL_MS (image URLs are signed
 * with an expiry). A sale, receipt, write-off or catalogue edit changes a version, and the next read rebuilds.
 */
const PAGE_TTL_MS = 60_000;
/**
 * `PHARMACY_LIST_PAGE_CACHE=off` builds every page afresh (as after any sale or receipt), `cold` also without
 * the rows' cached text (as after a catalogue edit): how bench/medicines-list.ts measures those paths.
 */
const PAGE_CACHE_ON = !['off', 'cold'].includes(process.env.PHARMACY_LIST_PAGE_CACHE ?? '');
const PAGE_CACHE_SIZE = 500;
const pages = new WeakMap<Sqlite, Map<string, { versions: string; at: number; text: string }>>();

/** The catalogue's and the branch's list versions: [catalogue, stock]. */
function versionsOf(sqlite: Sqlite, branchId: string): [number | null, number | null] {
  return sqliteStatement(
    sqlite,
    "SELECT (SELECT v FROM list_versions WHERE key = 'medicines'), (SELECT v FROM list_versions WHERE key = 'stock:' || ?)",
    'raw',
  ).get(branchId) as [number | null, number | null];
}

/**
 * Rows' catalogue JSON per connection, without its closing brace (the page appends stock_quantity), while the
 * catalogue's list version and the currency exponent are the ones it was written under: any medicine write
 * changes that version (trigger, migration 0014) and the next page starts afresh.
 * `PHARMACY_LIST_PAGE_CACHE=cold` keeps nothing (every row read and written by SQLite each time).
 */
interface RowText {
  head: string;
  imageKey: string | null;
  /** The medicine's name: a page in name order reads its stock as one range of medicine_stock_names. */
  name: string;
}
const ROW_CACHE_SIZE = 20_000;
const ROW_CACHE_ON = process.env.PHARMACY_LIST_PAGE_CACHE !== 'cold';
/** Also the ids of the pages sorted by a catalogue column: they change only when the catalogue does. */
const PAGE_IDS_SIZE = 1000;
interface CatalogueHeld {
  version: string;
  rows: Map<string, RowText>;
  pageIds: Map<string, string[]>;
}
const rowTexts = new WeakMap<Sqlite, CatalogueHeld>();

function catalogueHeld(sqlite: Sqlite, version: string): CatalogueHeld {
  let held = rowTexts.get(sqlite);
  if (!held || held.version !== version || !ROW_CACHE_ON) {
    held = { version, rows: new Map(), pageIds: new Map() };
    rowTexts.set(sqlite, held);
  }
  return held;
}

/** A page's ids in a catalogue order (not stock), read once per catalogue version. */
function pageIds(sqlite: Sqlite, version: string, f: BrowseFilter, text: string, params: object): string[] {
  const held = catalogueHeld(sqlite, version);
  const key = `${f.page}|${f.page_size}|${f.sort}|${f.order}|${f.is_active}|${f.category ?? ''}|${f.requires_prescription ?? ''}|${f.is_controlled ?? ''}`;
  let ids = held.pageIds.get(key);
  if (!ids) {
    ids = sqliteStatement(sqlite, text, 'pluck').all(params) as string[];
    if (held.pageIds.size >= PAGE_IDS_SIZE) held.pageIds.clear();
    held.pageIds.set(key, ids);
  }
  return ids;
}

function rowsById(sqlite: Sqlite, version: string, exponent: number, ids: string[]): Map<string, RowText> {
  const held = catalogueHeld(sqlite, version);
  const missing = ids.filter((id) => !held.rows.has(id));
  if (missing.length > 0) {
    if (held.rows.size + missing.length > ROW_CACHE_SIZE) held.rows.clear();
    const read = sqliteStatement(
      sqlite,
      `SELECT m.id AS id, ${rowJson(exponent)} AS json, m.image_key AS image_key, m.name AS name FROM medicines m WHERE ${inJsonArray('m.id')}`,
    ).all(JSON.stringify(missing)) as Array<{
      id: string;
      json: string;
      image_key: string | null;
      name: string;
    }>;
    for (const r of read)
      held.rows.set(r.id, { head: r.json.slice(0, -1), imageKey: r.image_key, name: r.name });
  }
  return held.rows;
}

/** A page of the catalogue with the branch's stock, as the JSON text of the answer. */
async function browseMedicines(
  app: AppContext,
  db: Db,
  sqlite: Sqlite,
  branchId: string,
  day: string,
  exponent: number,
  f: BrowseFilter,
): Promise<JsonText> {
  let cache = pages.get(sqlite);
  if (!cache) {
    cache = new Map();
    pages.set(sqlite, cache);
  }
  const key = `${branchId}|${day}|${exponent}|${f.page}|${f.page_size}|${f.sort}|${f.order}|${f.is_active}|${f.category ?? ''}|${f.requires_prescription ?? ''}|${f.is_controlled ?? ''}`;
  const [catalogue, stock] = versionsOf(sqlite, branchId);
  const versions = `${catalogue}:${stock}`;
  const hit = cache.get(key);
  if (hit && PAGE_CACHE_ON && hit.versions === versions && Date.now() - hit.at < PAGE_TTL_MS)
    return new JsonText(hit.text);
  const text = await buildPage(app, db, sqlite, branchId, day, exponent, f, `${catalogue}|${exponent}`);
  // The versions again: a write while the page was built (image URLs are awaited) must not be cached over.
  if (versionsOf(sqlite, branchId).join(':') === versions) {
    cache.delete(key);
    if (cache.size >= PAGE_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(key, { versions, at: Date.now(), text });
  }
  return new JsonText(text);
}

/**
 * The page: its ids (sorted by stock: with their stock), its stock in one statement, then each row's catalogue
 * JSON (cached, see rowsById) with stock_quantity appended. Pages in a catalogue order are read in one turn of
 * the event loop, so the ids, the stock and the row texts are read under the catalogue version `version` the
 * caller read; a page built across a write is not cached (browseMedicines reads the versions again).
 */
async function buildPage(
  app: AppContext,
  db: Db,
  sqlite: Sqlite,
  branchId: string,
  day: string,
  exponent: number,
  f: BrowseFilter,
  version: string,
): Promise<string> {
  await settled(db, sqlite, branchId, day);
  const where = whereOf(f);
  const order = ORDER[f.sort](f.order === 'desc' ? 'DESC' : 'ASC');
  const text = `SELECT m.id FROM medicines m ${indexFor(f)} ${where}
    ORDER BY ${order} LIMIT :limit OFFSET :offset`;
  const window = pageWindow(f);
  const params: Record<string, unknown> = {
    ...window,
    ...(f.category !== undefined && { category: f.category }),
  };
  // Sorted by stock: in segments (stock-sort.ts), never sorting the catalogue; otherwise the page, then its stock.
  const page: StockRow[] =
    f.sort === 'stock_quantity'
      ? await stockSortedPage({
          db,
          branchId,
          day,
          active: f.is_active,
          conditions: catalogueConditions(f),
          desc: f.order === 'desc',
          ...window,
          total: async () => total(sqlite, f, where, params),
          rowsTable,
          merged: (query) => mergedExcept(db, query),
        })
      : pageIds(sqlite, version, f, text, params).map((id) => ({ id, stock: 0 }));
  const ids = page.map((r) => r.id);
  const rows = rowsById(sqlite, version, exponent, ids);
  if (f.sort !== 'stock_quantity') {
    const stock = new Map(pageStock(sqlite, branchId, f, ids, rows));
    for (const p of page) p.stock = stock.get(p.id) ?? 0;
  }
  const items: string[] = [];
  for (const p of page) {
    const row = rows.get(p.id);
    if (!row) continue; // unreachable: read in the same turn as the page
    const json = `${row.head},"stock_quantity":${p.stock}}`;
    if (row.imageKey === null) items.push(json);
    else {
      const item = JSON.parse(json) as { image_url: string | null };
      item.image_url = await imageReadUrl(app, row.imageKey);
      items.push(JSON.stringify(item));
    }
  }
  const count = total(sqlite, f, where, params);
  return `{"items":[${items.join(',')}],"total":${count},"page":${f.page},"page_size":${f.page_size}}`;
}
