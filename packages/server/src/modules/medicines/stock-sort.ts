import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connection';
import type { StockRow } from './list-types';

/**
 * A page of medicines sorted by the branch's sellable stock (then name, then id, as every sort), never sorting
 * the catalogue. `medicine_stock` (trigger-kept, migration 0028) holds each stocked medicine's units of active
 * batches less those held for the will-call shelf, with the medicine's name and flag, and its index
 * (branch_id, qty, name, medicine_id, is_active) reads them in the page's order from the index alone. It counts
 * expired batches too (the date is the reader's), so the few medicines whose active expired batches still hold
 * units (`corrections`) are read with their true stock and merged in. The order is three segments: above zero,
 * zero (the catalogue in name order from its index, less the medicines with stock), below zero (a sale under
 * negative_stock_policy 'allow'); ascending reads them the other way round. A segment's size is counted only
 * when a page starts past its end.
 *
 * The SQL is what SQLite and PostgreSQL both speak; the one thing that differs, a list of rows bound as one
 * parameter, comes from the store (`rowsTable`).
 */
export interface StockSortInput {
  db: Db;
  branchId: string;
  day: string;
  active: 'true' | 'false' | 'all';
  /** The filter's other conditions, on medicines `m` (catalogueConditions, a search, a barcode). */
  conditions: RawBuilder<boolean>[];
  desc: boolean;
  limit: number;
  offset: number;
  /** How many medicines the filter lets through. */
  total: () => Promise<number>;
  /** The store's derived table `(id, stock)` of the given rows. */
  rowsTable: (rows: readonly StockRow[]) => RawBuilder<unknown>;
  /** The store's way to run the zero segment's anti join as a merge of two name-ordered indexes (MedicineStore.merged). */
  merged: <R>(query: RawBuilder<R>) => Promise<R[]>;
  /** Past this many rows into the zero segment a page's start is found by counting (zeroRowsFar): 2000. */
  walkLimit?: number;
  /** false: read medicine_stock as settled, correcting for the day, without settling it to `day` first. */
  settle?: boolean;
}

type Sign = '>' | '=' | '<';

const flag = (on: boolean) => sql.lit(on ? 1 : 0);

/** `alias`.is_active as the filter asks (a literal, as partial indexes name it); null: every medicine. */
export function activeCondition(alias: string, active: 'true' | 'false' | 'all'): RawBuilder<boolean> | null {
  return active === 'all'
    ? null
    : sql<boolean>`${sql.ref(`${alias}.is_active`)} = ${flag(active === 'true')}`;
}

/** The list filters on the catalogue's own columns but is_active, as conditions on medicines `m`. */
export function catalogueConditions(f: {
  category?: string | undefined;
  requires_prescription?: boolean | undefined;
  is_controlled?: boolean | undefined;
}): RawBuilder<boolean>[] {
  const out: RawBuilder<boolean>[] = [];
  if (f.category !== undefined) out.push(sql<boolean>`m.category = ${f.category}`);
  if (f.requires_prescription !== undefined)
    out.push(sql<boolean>`m.requires_prescription = ${flag(f.requires_prescription)}`);
  if (f.is_controlled !== undefined) out.push(sql<boolean>`m.is_controlled = ${flag(f.is_controlled)}`);
  return out;
}

/** Units of batch `b` held for the will-call shelf (stock/reservations.ts): on hand, not available. */
const HELD = sql`(SELECT coalesce(sum(r.quantity), 0) FROM stock_reservations r WHERE r.batch_id = b.id AND r.status = 'held')`;

const and = (conditions: Array<RawBuilder<boolean> | null>) => {
  const present = conditions.filter((c): c is RawBuilder<boolean> => c !== null);
  return present.length ? sql`AND ${sql.join(present, sql` AND `)}` : sql``;
};

/** The day a branch's medicine_stock leaves out the batches expired before ('' when never settled). */
async function settledDay(db: Db, branchId: string): Promise<string> {
  const { rows } = await sql<{ day: string }>`SELECT day FROM medicine_stock_days
    WHERE branch_id = ${branchId}`.execute(db);
  return rows[0]?.day ?? '';
}

/**
 * Moves a branch's medicine_stock on to `day` (the branch's date), in one transaction: the units of the active
 * batches that expired between the day it was settled to and `day` leave it (for an earlier `day`, they come
 * back). The first read of each day does it, so the reads after it need no correction.
 */
export async function settleStockDay(db: Db, branchId: string, day: string): Promise<void> {
  await db.transaction().execute(async (trx) => {
    const from = await settledDay(trx, branchId);
    if (from === day) return;
    const [lo, hi, sign] = from < day ? [from, day, sql`-`] : [day, from, sql`+`];
    const expiring = sql`b.branch_id = ${branchId} AND b.regulator_status = 'active'
      AND b.expiry_date >= ${lo} AND b.expiry_date < ${hi}`;
    // A medicine whose rows summed to zero has none: make them, update, then drop the rows come to zero.
    await sql`INSERT INTO medicine_stock (branch_id, medicine_id, qty, name, is_active)
        SELECT DISTINCT b.branch_id, b.medicine_id, 0, m.name, m.is_active FROM batches b
        CROSS JOIN medicines m WHERE m.id = b.medicine_id AND ${expiring} AND NOT EXISTS
          (SELECT 1 FROM medicine_stock s WHERE s.branch_id = b.branch_id AND s.medicine_id = b.medicine_id)`.execute(
      trx,
    );
    await sql`UPDATE medicine_stock SET qty = qty ${sign} (SELECT coalesce(sum(b.qty_on_hand - ${HELD}), 0)
        FROM batches b WHERE b.medicine_id = medicine_stock.medicine_id AND ${expiring})
      WHERE branch_id = ${branchId} AND medicine_id IN (SELECT b.medicine_id FROM batches b WHERE ${expiring})`.execute(
      trx,
    );
    await sql`DELETE FROM medicine_stock WHERE branch_id = ${branchId} AND qty = 0`.execute(trx);
    await sql`INSERT INTO medicine_stock_days (branch_id, day) VALUES (${branchId}, ${day})
      ON CONFLICT (branch_id) DO UPDATE SET day = EXCLUDED.day`.execute(trx);
  });
}

/** Settles a branch's medicine_stock to `day` unless it is already (see settleStockDay). */
export async function settleStockFor(db: Db, branchId: string, day: string): Promise<void> {
  if ((await settledDay(db, branchId)) !== day) await settleStockDay(db, branchId, day);
}

/** A medicine whose stock medicine_stock does not hold for this day: its sellable stock, and whether it has a row. */
interface Correction extends StockRow {
  hasRow: boolean;
}

/**
 * The medicines passing the filter with active batches that expired between the day the branch's
 * medicine_stock was settled to and the reader's (none once it is settled to that day), with their sellable
 * stock: their row in medicine_stock less (or, read for an earlier day, plus) those batches' units.
 */
async function corrections(q: StockSortInput, settled: string): Promise<Correction[]> {
  if (settled === q.day) return [];
  const [lo, hi, sign] = settled < q.day ? [settled, q.day, 1] : [q.day, settled, -1];
  const { rows: expired } = await sql<{ id: string; units: number }>`SELECT b.medicine_id AS id,
      b.qty_on_hand - ${HELD} AS units FROM batches b
    WHERE b.branch_id = ${q.branchId} AND b.expiry_date >= ${lo} AND b.expiry_date < ${hi}
      AND b.regulator_status = 'active'`.execute(q.db);
  const units = new Map<string, number>();
  for (const e of expired) units.set(e.id, (units.get(e.id) ?? 0) + sign * Number(e.units));
  const holding = [...units].filter(([, n]) => n !== 0).map(([id, n]) => ({ id, stock: n }));
  if (holding.length === 0) return [];
  const { rows } = await sql<{ id: string; qty: number | null }>`SELECT m.id AS id, s.qty AS qty
    FROM ${q.rowsTable(holding)} c CROSS JOIN medicines m
    LEFT JOIN medicine_stock s ON s.branch_id = ${q.branchId} AND s.medicine_id = m.id
    WHERE m.id = c.id ${and([activeCondition('m', q.active), ...q.conditions])}`.execute(q.db);
  return rows.map((r) => ({
    id: r.id,
    stock: Number(r.qty ?? 0) - (units.get(r.id) ?? 0),
    hasRow: r.qty !== null,
  }));
}

const signOf = (stock: number): Sign => (stock > 0 ? '>' : stock < 0 ? '<' : '=');

/** Past this many rows into the zero segment a page's start is found by counting, not by walking. */
const WALK_LIMIT = 2000;
/** Counting stops once the page starts at most this many rows of the zero segment further on: those are walked. */
const WALK_REST = 200;

type Key = { id: string; name: string };

/** A bound text, typed for PostgreSQL and compared case-insensitively as the names are sorted. */
const text = (value: string) => sql`CAST(${value} AS TEXT) COLLATE NOCASE`;
/** A bound id, compared as ids are sorted (byte order). */
const id = (value: string) => sql`CAST(${value} AS TEXT)`;

/**
 * Reads a page sorted by stock: each segment's rows from the indexes, merged with the corrected medicines. A
 * medicine whose corrected stock is zero joins the zero segment's rows (in name order, like the rest); the
 * others are merged into the segment of their sign.
 */
class StockPager {
  readonly #q: StockSortInput;
  readonly #d: RawBuilder<unknown>;
  /** Corrected to zero: read with the zero segment. */
  readonly #none: readonly Correction[];
  /** Corrected to some stock or a shortage: merged into those segments. */
  readonly #some: readonly Correction[];
  readonly #all: readonly Correction[];
  readonly #sizes = new Map<Sign, number>();

  constructor(q: StockSortInput, corrected: readonly Correction[]) {
    this.#q = q;
    this.#d = sql.raw(q.desc ? 'DESC' : 'ASC');
    this.#all = corrected;
    this.#none = corrected.filter((c) => c.stock === 0);
    this.#some = corrected.filter((c) => c.stock !== 0);
  }

  #in(column: string, rows: readonly StockRow[]) {
    return sql`${sql.ref(column)} IN (SELECT c.id FROM ${this.#q.rowsTable(rows)} c)`;
  }

  #notIn(column: string, rows: readonly StockRow[]) {
    return rows.length
      ? sql`AND ${sql.ref(column)} NOT IN (SELECT c.id FROM ${this.#q.rowsTable(rows)} c)`
      : sql``;
  }

  /** The catalogue as the filter passes it. */
  #catalogue() {
    const q = this.#q;
    return sql`FROM medicines m WHERE 1 = 1 ${and([activeCondition('m', q.active), ...q.conditions])}`;
  }

  /** medicine_stock's rows of the branch passing the filter (with the medicines row only when the filter needs it). */
  #stocked() {
    const q = this.#q;
    const joined = q.conditions.length
      ? sql`CROSS JOIN medicines m WHERE m.id = s.medicine_id ${and(q.conditions)} AND`
      : sql`WHERE`;
    return sql`FROM medicine_stock s ${joined} s.branch_id = ${q.branchId} ${and([activeCondition('s', q.active)])}`;
  }

  /**
   * FROM … WHERE … of a segment's rows. Above or below zero: medicine_stock's rows of that sign, less the
   * corrected medicines. Zero: the catalogue less the medicines with a row (matched on name and id as well, so
   * PostgreSQL merges the two name-ordered indexes, a merge anti join, instead of probing once per medicine),
   * with the ones corrected to zero, without the ones corrected to some.
   */
  #from(sign: Sign) {
    const q = this.#q;
    if (sign !== '=')
      return sql`${this.#stocked()} AND s.qty ${sql.raw(sign)} 0 ${this.#notIn('s.medicine_id', this.#all)}`;
    const none = sql`NOT EXISTS (SELECT 1 FROM medicine_stock s WHERE s.branch_id = ${q.branchId}
      AND s.name COLLATE NOCASE = m.name COLLATE NOCASE AND s.medicine_id = m.id)`;
    return sql`${this.#catalogue()} ${this.#notIn('m.id', this.#some)}
      AND ${this.#none.length ? sql`(${none} OR ${this.#in('m.id', this.#none)})` : none}`;
  }

  #order(sign: Sign) {
    const d = this.#d;
    return sign === '='
      ? sql`m.name COLLATE NOCASE ${d}, m.id ${d}`
      : sql`s.qty ${d}, s.name COLLATE NOCASE ${d}, s.medicine_id ${d}`;
  }

  /** `limit` rows of a segment's index from `offset` (the corrected medicines left out). */
  async #indexRows(sign: Sign, offset: number, limit: number): Promise<StockRow[]> {
    const q = this.#q;
    if (sign === '=' && offset > (q.walkLimit ?? WALK_LIMIT)) return this.#zeroRowsFar(offset, limit);
    const columns = sign === '=' ? sql`m.id AS id, 0 AS stock` : sql`s.medicine_id AS id, s.qty AS stock`;
    const query = sql<StockRow>`SELECT ${columns} ${this.#from(sign)}
      ORDER BY ${this.#order(sign)} LIMIT ${limit} OFFSET ${offset}`;
    const rows = sign === '=' ? await q.merged(query) : (await query.execute(q.db)).rows;
    return rows.map((r) => ({ id: r.id, stock: Number(r.stock) }));
  }

  /**
   * `alias`'s name and id sort at or after `key` in the page's order (`before`: strictly before it), as a range
   * of a name index and a test of the id among equal names.
   */
  #side(alias: 'm' | 's', key: Key, side: 'from' | 'before') {
    const name = sql.ref(`${alias}.name`);
    const column = sql.ref(alias === 's' ? 's.medicine_id' : 'm.id');
    const up = this.#q.desc === (side === 'before');
    const [range, excluded] = up
      ? ['>=', side === 'from' ? '<' : '<=']
      : ['<=', side === 'from' ? '>' : '>='];
    return sql`${name} COLLATE NOCASE ${sql.raw(range)} ${text(key.name)}
      AND NOT (${name} COLLATE NOCASE = ${text(key.name)} AND ${column} ${sql.raw(excluded)} ${id(key.id)})`;
  }

  /**
   * Rows far into the zero segment without walking to them through the anti join: the catalogue's k-th medicine
   * (from its name index alone) has k - n rows of the zero segment before it, n the medicines before it that are
   * not in the segment (counted on medicine_stock's name index), so the search moves k on by what it fell short
   * (each round closes the gap by the share of medicines with stock) and walks the last stretch.
   */
  async #zeroRowsFar(offset: number, limit: number): Promise<StockRow[]> {
    const q = this.#q;
    let k = offset;
    let key: Key | undefined;
    let before = 0;
    for (let round = 0; round < 12; round++) {
      const { rows } = await sql<Key>`SELECT m.id AS id, m.name AS name ${this.#catalogue()}
        ORDER BY ${this.#order('=')} LIMIT 1 OFFSET ${k}`.execute(q.db);
      if (!rows[0]) break;
      const n = await this.#notZeroBefore(rows[0]);
      key = rows[0];
      before = k - n; // rows of the zero segment before `key`
      if (offset - before <= Math.min(WALK_REST, q.walkLimit ?? WALK_REST)) break;
      k = offset + n;
    }
    if (!key) return [];
    const rows = await q.merged(sql<StockRow>`SELECT m.id AS id, 0 AS stock ${this.#from('=')}
      AND ${this.#side('m', key, 'from')}
      ORDER BY ${this.#order('=')} LIMIT ${limit} OFFSET ${offset - before}`);
    return rows.map((r) => ({ id: r.id, stock: 0 }));
  }

  /** How many catalogue medicines passing the filter sort before `key` and are not in the zero segment. */
  async #notZeroBefore(key: Key): Promise<number> {
    const q = this.#q;
    const beforeKey = (alias: 'm' | 's') => this.#side(alias, key, 'before');
    const some = this.#some.filter((c) => !c.hasRow);
    const count = (rows: readonly StockRow[]) =>
      sql`(SELECT count(*) FROM ${q.rowsTable(rows)} c CROSS JOIN medicines m WHERE m.id = c.id AND ${beforeKey('m')})`;
    const { rows } = await sql<{
      n: number;
    }>`SELECT (SELECT count(*) ${this.#stocked()} AND ${beforeKey('s')})
      ${this.#none.length ? sql`- ${count(this.#none)}` : sql``} ${some.length ? sql`+ ${count(some)}` : sql``}
      AS n`.execute(q.db);
    return Number(rows[0]?.n ?? 0);
  }

  /** How many medicines a segment holds (counted only when a page starts past its end). */
  async size(sign: Sign): Promise<number> {
    let size = this.#sizes.get(sign);
    if (size === undefined) {
      if (sign === '=') size = (await this.#q.total()) - (await this.size('>')) - (await this.size('<'));
      else {
        const { rows } = await sql<{ n: number }>`SELECT count(*) AS n ${this.#from(sign)}`.execute(
          this.#q.db,
        );
        size = Number(rows[0]?.n ?? 0) + this.#some.filter((c) => signOf(c.stock) === sign).length;
      }
      this.#sizes.set(sign, size);
    }
    return size;
  }

  /** `limit` rows of a segment from `offset`: the index's rows merged with the segment's corrected ones. */
  async rows(sign: Sign, offset: number, limit: number): Promise<StockRow[]> {
    const extra = sign === '=' ? [] : this.#some.filter((c) => signOf(c.stock) === sign);
    if (extra.length === 0) return this.#indexRows(sign, offset, limit);
    // The index's rows from `offset - extra.length` (no earlier one can land on this page), sorted by the
    // engine together with the corrected rows (its collation orders the names). Every corrected row sorted
    // before the window's first index row lies before the window, so from that row on, rows[j] stands at
    // start + j.
    const start = Math.max(0, offset - extra.length);
    const want = offset + limit - start;
    const window = await this.#indexRows(sign, start, want);
    if (start > 0 && window.length === 0) return []; // the segment ends before this page
    const d = this.#d;
    const { rows } = await sql<StockRow>`SELECT c.id AS id, c.stock AS stock
      FROM ${this.#q.rowsTable([...window, ...extra])} c CROSS JOIN medicines m WHERE m.id = c.id
      ORDER BY c.stock ${d}, m.name COLLATE NOCASE ${d}, m.id ${d}`.execute(this.#q.db);
    const fromIndex = new Set(window.map((r) => r.id));
    // Past the window's last index row only a window cut short (the segment's end) is in order.
    const last = window.length < want ? rows.length : rows.findLastIndex((r) => fromIndex.has(r.id)) + 1;
    return rows
      .slice(offset - start, Math.min(last, offset - start + limit))
      .map((r) => ({ id: r.id, stock: Number(r.stock) }));
  }
}

export async function stockSortedPage(q: StockSortInput): Promise<StockRow[]> {
  let settled = await settledDay(q.db, q.branchId);
  if (settled !== q.day && q.settle !== false) {
    await settleStockDay(q.db, q.branchId, q.day);
    settled = q.day;
  }
  const pager = new StockPager(q, await corrections(q, settled));
  const segments: Sign[] = q.desc ? ['>', '=', '<'] : ['<', '=', '>'];
  const out: StockRow[] = [];
  let offset = q.offset;
  for (const sign of segments) {
    const want = q.limit - out.length;
    if (want <= 0) break;
    // A page past the zero segment skips it by its size (two counts) rather than walk it: where nearly every
    // medicine has stock, its few are spread over the whole catalogue.
    if (sign === '=' && offset > 0 && offset >= (await pager.size('='))) {
      offset -= await pager.size('=');
      continue;
    }
    const got = await pager.rows(sign, offset, want);
    out.push(...got);
    if (out.length >= q.limit) break;
    // This segment ended inside the page (the next starts at its beginning) or before it (skip its size).
    offset = got.length > 0 ? 0 : Math.max(0, offset - (await pager.size(sign)));
  }
  return out;
}
