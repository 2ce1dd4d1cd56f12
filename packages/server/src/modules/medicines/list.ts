import type { MedicineSort } from '@pharmacy/contracts';
import type BetterSqlite3 from 'better-sqlite3';
import type { AppContext } from '../../app-context';
import type { Sqlite } from '../../db/connection';
import { JsonText } from '../../http/route';
import { imageReadUrl } from '../images/storage';

/**
 * The back office's Medicines table: a page of the catalogue with the branch's stock, sorted and filtered,
 * in ONE statement that also writes each row's JSON (SQLite's json_object), so the server neither builds 50
 * JS objects of 22 columns (better-sqlite3's value conversion was most of the page's cost) nor stringifies
 * them. The total of an unfiltered list comes from `medicine_counts` (trigger-kept, migration 0014) instead
 * of counting 100,000 index entries. Each row's JSON is the `Medicine` of `toMedicine` (a test holds them
 * equal); image_url, a signed URL, is added in JS for the rows that have an image.
 */
export interface BrowseFilter {
  page: number;
  page_size: number;
  category?: string;
  is_active: 'true' | 'false' | 'all';
  requires_prescription?: boolean;
  is_controlled?: boolean;
  sort: MedicineSort;
  order: 'asc' | 'desc';
}

const STOCK =
  "(SELECT coalesce(sum(b.qty_on_hand), 0) FROM batches b WHERE b.branch_id = :branch AND b.medicine_id = m.id AND b.regulator_status = 'active' AND b.expiry_date >= :day)";

/** Every medicine's stock in the branch at once (one pass over the branch's batches), to sort by it. */
const BRANCH_STOCK =
  "SELECT b.medicine_id, sum(b.qty_on_hand) AS qty FROM batches b WHERE b.branch_id = :branch AND b.regulator_status = 'active' AND b.expiry_date >= :day GROUP BY b.medicine_id";

/** The ORDER BY of each sort; every one ends on name and rowid so pages never overlap. */
const ORDER: Record<MedicineSort, (dir: string) => string> = {
  name: (d) => `m.name COLLATE NOCASE ${d}, m.rowid ${d}`,
  generic_name: (d) => `m.generic_name COLLATE NOCASE ${d}, m.name COLLATE NOCASE ${d}, m.rowid ${d}`,
  category: (d) => `m.category ${d}, m.name COLLATE NOCASE ${d}, m.rowid ${d}`,
  selling_price: (d) => `m.selling_price ${d}, m.name COLLATE NOCASE ${d}, m.rowid ${d}`,
  stock_quantity: (d) => `stock_quantity ${d}, m.name COLLATE NOCASE ${d}, m.rowid ${d}`,
};

/**
 * The index that reads a sort's page in order. Named, not left to the planner: without statistics for an
 * index (a database migrated after its last ANALYZE) SQLite picked another is_active index and sorted all
 * 100,000 rows (0.5 s a page).
 */
function indexFor(f: BrowseFilter): string {
  if (f.is_active === 'all' || f.sort === 'stock_quantity') return '';
  if (f.category !== undefined)
    return f.sort === 'name' || f.sort === 'category' ? 'INDEXED BY medicines_active_category' : '';
  return {
    name: 'INDEXED BY medicines_active_name',
    generic_name: 'INDEXED BY medicines_active_generic',
    category: 'INDEXED BY medicines_active_category',
    selling_price: 'INDEXED BY medicines_active_price',
  }[f.sort];
}

const bool = (column: string) => `json(iif(${column} = 1, 'true', 'false'))`;

/** A decimal string of minor units in the base currency's exponent, as formatMinor writes it (prices are >= 0). */
function money(column: string, exponent: number): string {
  if (exponent === 0) return `CAST(${column} AS TEXT)`;
  const unit = 10 ** exponent;
  return `(${column} / ${unit}) || '.' || printf('%0${exponent}d', ${column} % ${unit})`;
}

function rowJson(exponent: number, stock: string): string {
  return `json_object('id', m.id, 'name', m.name, 'generic_name', m.generic_name, 'barcode', m.barcode,
    'category', m.category, 'form', m.form, 'strength', m.strength, 'unit', m.unit,
    'selling_price', ${money('m.selling_price', exponent)},
    'max_public_price', iif(m.max_public_price IS NULL, NULL, ${money('m.max_public_price', exponent)}),
    'stock_quantity', ${stock}, 'low_stock_threshold', m.low_stock_threshold,
    'requires_prescription', ${bool('m.requires_prescription')}, 'is_controlled', ${bool('m.is_controlled')},
    'requires_cold_chain', ${bool('m.requires_cold_chain')}, 'is_active', ${bool('m.is_active')},
    'vat_category', m.vat_category, 'regulator_registration_no', m.regulator_registration_no,
    'image_key', m.image_key, 'image_url', NULL, 'created_at', m.created_at, 'updated_at', m.updated_at)`;
}

/** The WHERE of a filter; constants a partial index names are literals (docs/CONVENTIONS.md). */
function whereOf(f: BrowseFilter): string {
  const parts: string[] = [];
  if (f.is_active !== 'all') parts.push(`m.is_active = ${f.is_active === 'true' ? 1 : 0}`);
  if (f.category !== undefined) parts.push('m.category = :category');
  if (f.requires_prescription !== undefined)
    parts.push(`m.requires_prescription = ${f.requires_prescription ? 1 : 0}`);
  if (f.is_controlled !== undefined) parts.push(`m.is_controlled = ${f.is_controlled ? 1 : 0}`);
  return parts.length ? `WHERE ${parts.join(' AND ')}` : '';
}

const statements = new WeakMap<Sqlite, Map<string, BetterSqlite3.Statement<unknown[]>>>();
function statement(sqlite: Sqlite, text: string): BetterSqlite3.Statement<unknown[]> {
  let byText = statements.get(sqlite);
  if (!byText) {
    byText = new Map();
    statements.set(sqlite, byText);
  }
  let s = byText.get(text);
  if (!s) {
    s = sqlite.prepare(text);
    byText.set(text, s);
  }
  return s;
}

function total(sqlite: Sqlite, f: BrowseFilter, where: string, params: Record<string, unknown>): number {
  const filtered =
    f.category !== undefined || f.requires_prescription !== undefined || f.is_controlled !== undefined;
  if (!filtered) {
    const text =
      f.is_active === 'all'
        ? 'SELECT coalesce(sum(n), 0) FROM medicine_counts'
        : `SELECT coalesce(sum(n), 0) FROM medicine_counts WHERE is_active = ${f.is_active === 'true' ? 1 : 0}`;
    return Number(statement(sqlite, text).pluck().get());
  }
  return Number(
    statement(sqlite, `SELECT count(*) FROM medicines m ${where}`)
      .pluck()
      .get(f.category === undefined ? {} : { category: params.category }),
  );
}

/**
 * Pages answered lately, per connection, valid while the catalogue's and the branch's list_versions (trigger-
 * set, migration 0014) are the ones they were built under and for at most PAGE_TTL_MS (image URLs are signed
 * with an expiry). A sale, receipt, write-off or catalogue edit changes a version, and the next read rebuilds.
 */
const PAGE_TTL_MS = 60_000;
const PAGE_CACHE_SIZE = 500;
const pages = new WeakMap<Sqlite, Map<string, { versions: string; at: number; text: string }>>();

function versionsOf(sqlite: Sqlite, branchId: string): string {
  const [catalogue, stock] = statement(
    sqlite,
    "SELECT (SELECT v FROM list_versions WHERE key = 'medicines'), (SELECT v FROM list_versions WHERE key = 'stock:' || ?)",
  )
    .raw()
    .get(branchId) as [number | null, number | null];
  return `${catalogue}:${stock}`;
}

/** A page of the catalogue with the branch's stock, as the JSON text of the answer. */
export async function browseMedicines(
  app: AppContext,
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
  const versions = versionsOf(sqlite, branchId);
  const hit = cache.get(key);
  if (hit && hit.versions === versions && Date.now() - hit.at < PAGE_TTL_MS) return new JsonText(hit.text);
  const text = await buildPage(app, sqlite, branchId, day, exponent, f);
  // The versions again: a write while the page was built (image URLs are awaited) must not be cached over.
  if (versionsOf(sqlite, branchId) === versions) {
    cache.delete(key);
    if (cache.size >= PAGE_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.set(key, { versions, at: Date.now(), text });
  }
  return new JsonText(text);
}

async function buildPage(
  app: AppContext,
  sqlite: Sqlite,
  branchId: string,
  day: string,
  exponent: number,
  f: BrowseFilter,
): Promise<string> {
  const where = whereOf(f);
  const order = ORDER[f.sort](f.order === 'desc' ? 'DESC' : 'ASC');
  // Sorted by stock, the stock of every match is needed to find the page; otherwise only the page's.
  const text =
    f.sort === 'stock_quantity'
      ? `SELECT ${rowJson(exponent, 'p.stock_quantity')} AS json, m.image_key AS image_key
         FROM (SELECT m.rowid AS rid, coalesce(s.qty, 0) AS stock_quantity FROM medicines m
               LEFT JOIN (${BRANCH_STOCK}) s ON s.medicine_id = m.id ${where}
               ORDER BY ${order} LIMIT :limit OFFSET :offset) p
         JOIN medicines m ON m.rowid = p.rid ORDER BY ${order.replace('stock_quantity', 'p.stock_quantity')}`
      : `SELECT ${rowJson(exponent, STOCK)} AS json, m.image_key AS image_key FROM medicines m ${indexFor(f)} ${where}
         ORDER BY ${order} LIMIT :limit OFFSET :offset`;
  const params: Record<string, unknown> = {
    branch: branchId,
    day,
    limit: f.page_size,
    offset: (f.page - 1) * f.page_size,
    ...(f.category !== undefined && { category: f.category }),
  };
  const rows = statement(sqlite, text).all(params) as Array<{ json: string; image_key: string | null }>;
  const items: string[] = [];
  for (const r of rows) {
    if (r.image_key === null) items.push(r.json);
    else {
      const item = JSON.parse(r.json) as { image_url: string | null };
      item.image_url = await imageReadUrl(app, r.image_key);
      items.push(JSON.stringify(item));
    }
  }
  const count = total(sqlite, f, where, params);
  return `{"items":[${items.join(',')}],"total":${count},"page":${f.page},"page_size":${f.page_size}}`;
}
