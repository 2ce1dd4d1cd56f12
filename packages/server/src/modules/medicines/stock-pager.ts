import { type RawBuilder, sql } from 'kysely';
import type { Db } from '../../db/connection';
import { indexedBy } from '../../db/dialect';
import { activeCondition, and } from './list-conditions';
import type { StockRow } from './list-types';

/**
 * The reading side of the Medicines list sorted by stock (stock-sort.ts drives it): what a page asks for, the
 * list's conditions, and the pager that reads each stretch of the order (a segment) from medicine_stock's
 * indexes and the catalogue's name index.
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
  /** How many medicines the filter lets through (the stock filter aside). */
  total: () => Promise<number>;
  /** low_stock, out_of_stock: only the medicines whose stock passes them (compared as medicine_stock holds it). */
  stockFilter?: StockFilter;
  /** The store's derived table `(id, stock)` of the given rows. */
  rowsTable: (rows: readonly StockRow[]) => RawBuilder<unknown>;
  /** The store's way to read the zero segment by merging two name-ordered indexes (MedicineStore.merged). */
  merged: <R>(query: ZeroQuery<R>) => Promise<R[]>;
  /** Past this many rows into the zero segment a page's start is found by counting (zeroRowsFar): 2000. */
  walkLimit?: number;
  /** Past this many rows into the zero segment a page is read from its nearer end (NEAR): 100. */
  near?: number;
  /** false: read medicine_stock as settled, correcting for the day, without settling it to `day` first. */
  settle?: boolean;
  /**
   * The conditions include a search, one matching many (a search matching few is sorted whole): the zero segment
   * walks the catalogue's name index testing each medicine against the matches, not sorting them all first.
   */
  searched?: boolean;
}

export type Sign = '>' | '=' | '<';

/** The list's stock filters: at or below each medicine's low-stock threshold, holding none (or short). */
export interface StockFilter {
  low_stock?: boolean | undefined;
  out_of_stock?: boolean | undefined;
}

/**
 * A stretch of the zero segment (the medicines holding none) written for each way an engine reads it, for the
 * store to run the one its engine does best: a compound EXCEPT of the catalogue's and medicine_stock's
 * name-ordered reads (SQLite merges them); `merge`, the same as a join of the two name-ordered indexes, both
 * read in the page's direction (null where the list has conditions of its own, so the catalogue's side is not
 * one range of a name index); and `antiJoin`, a probe of medicine_stock's key per medicine.
 */
export interface ZeroQuery<R> {
  except: RawBuilder<R>;
  merge: RawBuilder<R> | null;
  antiJoin: RawBuilder<R>;
}

/** A medicine whose stock medicine_stock does not hold for this day: its stock, its row and that row's units. */
export interface Correction extends StockRow {
  hasRow: boolean;
  kept: number;
}

const signOf = (stock: number): Sign => (stock > 0 ? '>' : stock < 0 ? '<' : '=');

/** Past this many rows into the zero segment a page's start is found by counting, not by walking. */
const WALK_LIMIT = 2000;
/** Counting stops once the page starts at most this many rows of the zero segment further on: those are walked. */
const WALK_REST = 200;
/**
 * A page starting this far into a segment is read from its nearer end (its size known first): where nearly every
 * medicine has stock, the zero segment's few are spread over the catalogue, its far end a walk through it all.
 */
const NEAR = 100;

type Key = { id: string; name: string };

/** A bound text, typed for PostgreSQL and compared case-insensitively as the names are sorted. */
const text = (value: string) => sql`CAST(${value} AS TEXT) COLLATE NOCASE`;
/** A bound id, compared as ids are sorted (byte order). */
const id = (value: string) => sql`CAST(${value} AS TEXT)`;

/**
 * A stretch of the order: the medicines holding none ('='), or medicine_stock's rows of a sign, or a part of
 * those above zero (units above `above`, up to `upTo`) whose units a low-stock filter compares with each
 * medicine's threshold (`low`: at or below it, or above it).
 */
export interface Segment {
  sign: Sign;
  above?: number;
  upTo?: number | null;
  low?: boolean;
}

const segmentKey = (g: Segment) => `${g.sign}${g.above ?? ''}:${g.upTo ?? ''}:${g.low ?? ''}`;

/**
 * Reads a page sorted by stock: each segment's rows from the indexes, merged with the corrected medicines. A
 * medicine whose corrected stock is zero joins the zero segment's rows (in name order, like the rest); the
 * others are merged into the segment of their sign.
 */
export class StockPager {
  readonly #q: StockSortInput;
  /** Corrected to zero: read with the zero segment. */
  readonly #none: readonly Correction[];
  /** Corrected to some stock or a shortage: merged into those segments. */
  readonly #some: readonly Correction[];
  readonly #all: readonly Correction[];
  readonly #sizes = new Map<string, number>();
  #kept: Promise<Record<'>' | '<', number>> | undefined;
  #total: Promise<number> | undefined;

  constructor(q: StockSortInput, corrected: readonly Correction[]) {
    this.#q = q;
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

  /** medicine_stock's rows of the branch passing the filter (with the medicines row only when the filter needs it), in `g` when given. */
  #stocked(g?: Segment, byCatalogue = false) {
    const q = this.#q;
    // `byCatalogue`: the list's medicines probing medicine_stock (a search matching fewer than the rows).
    const joined = !q.conditions.length
      ? sql`FROM medicine_stock s WHERE`
      : byCatalogue
        ? sql`FROM medicines m CROSS JOIN medicine_stock s WHERE s.medicine_id = m.id ${and(q.conditions)} AND`
        : sql`FROM medicine_stock s CROSS JOIN medicines m WHERE m.id = s.medicine_id ${and(q.conditions)} AND`;
    // The medicine's threshold, carried in the row (migration 0030) at the end of medicine_stock_order.
    const low =
      g?.low === undefined
        ? sql``
        : g.low
          ? sql`AND s.qty <= s.low_stock_threshold`
          : sql`AND s.qty > s.low_stock_threshold`;
    const range = !g
      ? sql``
      : g.above === undefined
        ? sql`AND s.qty ${sql.raw(g.sign)} 0`
        : g.upTo === null || g.upTo === undefined
          ? sql`AND s.qty > ${g.above}`
          : sql`AND s.qty > ${g.above} AND s.qty <= ${g.upTo}`;
    return sql`${joined} s.branch_id = ${q.branchId} ${and([activeCondition('s', q.active)])} ${range} ${low}`;
  }

  /**
   * FROM … WHERE … of a segment's rows but the zero segment's: medicine_stock's rows of that sign (and part),
   * less the corrected medicines.
   */
  #from(g: Segment, byCatalogue = false) {
    return sql`${this.#stocked(g, byCatalogue)} ${this.#notIn('s.medicine_id', this.#all)}`;
  }

  /**
   * A stretch of the zero segment, `limit` rows from `offset` in the given direction (from `key` on when given):
   * the catalogue less the medicines with a row, with the ones corrected to zero, without the ones corrected to
   * some. Written for each engine's way (MedicineStore.merged, ZeroQuery): a compound EXCEPT of the two
   * name-ordered reads, which SQLite merges (both indexes named: the (branch, units) index also covers
   * medicine_stock's side, and a planner without statistics sorted that); a join on name and id, medicine_stock's
   * side an ordered read of its own, which PostgreSQL merges reading both name indexes in the page's direction
   * (as an anti join, read descending, its planner sorted the branch's rows); and an anti join on the key.
   */
  async #zeroStretch(desc: boolean, offset: number, limit: number, key?: Key): Promise<StockRow[]> {
    const q = this.#q;
    const d = sql.raw(desc ? 'DESC' : 'ASC');
    const fromKey = (alias: 'm' | 's') => (key ? sql`AND ${this.#side(alias, key, 'from', desc)}` : sql``);
    const someOut = this.#notIn('m.id', this.#some);
    // In name order from its index, a search's matches tested one by one rather than all sorted by name first.
    const catalogueIndex =
      q.conditions.length && !q.searched
        ? sql``
        : sql.raw(indexedBy(q.active === 'all' ? 'medicines_name_id' : 'medicines_active_name_id'));
    const except = sql<StockRow>`SELECT m.name COLLATE NOCASE AS name, m.id AS id FROM medicines m ${catalogueIndex}
        WHERE 1 = 1 ${and([activeCondition('m', q.active), ...q.conditions])} ${someOut} ${fromKey('m')}
      EXCEPT SELECT s.name COLLATE NOCASE, s.medicine_id FROM medicine_stock s ${sql.raw(indexedBy('medicine_stock_names'))}
        WHERE s.branch_id = ${q.branchId}
        ${this.#notIn('s.medicine_id', this.#none)} ${fromKey('s')}
      ORDER BY 1 ${d}, 2 ${d} LIMIT ${limit} OFFSET ${offset}`;
    const orderAndPage = sql`ORDER BY m.name COLLATE NOCASE ${d}, m.id ${d} LIMIT ${limit} OFFSET ${offset}`;
    const zeroToo = (none: RawBuilder<unknown>) =>
      this.#none.length ? sql`(${none} OR ${this.#in('m.id', this.#none)})` : none;
    const merge = q.conditions.length
      ? null
      : sql<StockRow>`SELECT m.id AS id FROM medicines m LEFT JOIN (SELECT s.name, s.medicine_id
          FROM medicine_stock s WHERE s.branch_id = ${q.branchId} ${fromKey('s')}
          ORDER BY s.name COLLATE NOCASE ${d}, s.medicine_id ${d}) s
        ON s.name COLLATE NOCASE = m.name COLLATE NOCASE AND s.medicine_id = m.id
        WHERE 1 = 1 ${and([activeCondition('m', q.active)])} ${someOut}
        AND ${zeroToo(sql`s.medicine_id IS NULL`)} ${fromKey('m')} ${orderAndPage}`;
    const none = sql`NOT EXISTS (SELECT 1 FROM medicine_stock s WHERE s.branch_id = ${q.branchId}
      AND s.medicine_id = m.id)`;
    const antiJoin = sql<StockRow>`SELECT m.id AS id ${this.#catalogue()} ${someOut}
      AND ${zeroToo(none)} ${fromKey('m')} ${orderAndPage}`;
    const rows = await q.merged({ except, merge, antiJoin });
    return rows.map((r) => ({ id: r.id, stock: 0 }));
  }

  /**
   * `limit` rows of a segment's index from `offset` (the corrected medicines left out); from NEAR rows in, read
   * from the segment's nearer end when its size is kept (sizeIfKept), as the zero segment's are.
   */
  async #indexRows(g: Segment, offset: number, limit: number): Promise<StockRow[]> {
    if (g.sign === '=') return this.#zeroRows(offset, limit);
    const desc = this.#q.desc;
    const size = offset > (this.#q.near ?? NEAR) ? await this.sizeIfKept(g) : null;
    if (size !== null) {
      const n = size - this.#extra(g).length;
      if (offset >= n) return [];
      const end = Math.min(n, offset + limit);
      if (n - end < offset) return (await this.#indexRead(g, !desc, n - end, end - offset)).reverse();
    }
    return this.#indexRead(g, desc, offset, limit);
  }

  async #indexRead(g: Segment, desc: boolean, offset: number, limit: number): Promise<StockRow[]> {
    const d = sql.raw(desc ? 'DESC' : 'ASC');
    const query = sql<StockRow>`SELECT s.medicine_id AS id, s.qty AS stock ${this.#from(g)}
      ORDER BY s.qty ${d}, s.name COLLATE NOCASE ${d}, s.medicine_id ${d} LIMIT ${limit} OFFSET ${offset}`;
    const { rows } = await query.execute(this.#q.db);
    return rows.map((r) => ({ id: r.id, stock: Number(r.stock) }));
  }

  /**
   * `limit` rows of the zero segment from `offset`: walked from its start, or, from NEAR rows in, from whichever
   * end is nearer (read backwards, then turned round); far into it, from a key found by counting.
   */
  async #zeroRows(offset: number, limit: number): Promise<StockRow[]> {
    const desc = this.#q.desc;
    if (offset > (this.#q.near ?? NEAR)) {
      const size = await this.size({ sign: '=' });
      if (offset >= size) return [];
      const end = Math.min(size, offset + limit);
      if (size - end < offset) {
        // From the other end: the rows size - end .. size - offset of the reversed order, turned round.
        return (await this.#zeroFrom(!desc, size - end, end - offset)).reverse();
      }
    }
    return this.#zeroFrom(desc, offset, limit);
  }

  async #zeroFrom(desc: boolean, offset: number, limit: number): Promise<StockRow[]> {
    if (offset > (this.#q.walkLimit ?? WALK_LIMIT)) return this.#zeroRowsFar(desc, offset, limit);
    return this.#zeroStretch(desc, offset, limit);
  }

  /**
   * `alias`'s name and id sort at or after `key` in the order `desc` gives (`before`: strictly before it), as a
   * range of a name index and a test of the id among equal names.
   */
  #side(alias: 'm' | 's', key: Key, side: 'from' | 'before', desc: boolean) {
    const name = sql.ref(`${alias}.name`);
    const column = sql.ref(alias === 's' ? 's.medicine_id' : 'm.id');
    const up = desc === (side === 'before');
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
  async #zeroRowsFar(desc: boolean, offset: number, limit: number): Promise<StockRow[]> {
    const q = this.#q;
    const d = sql.raw(desc ? 'DESC' : 'ASC');
    let k = offset;
    let key: Key | undefined;
    let before = 0;
    for (let round = 0; round < 12; round++) {
      const { rows } = await sql<Key>`SELECT m.id AS id, m.name AS name ${this.#catalogue()}
        ORDER BY m.name COLLATE NOCASE ${d}, m.id ${d} LIMIT 1 OFFSET ${k}`.execute(q.db);
      if (!rows[0]) break;
      const n = await this.#notZeroBefore(rows[0], desc);
      key = rows[0];
      before = k - n; // rows of the zero segment before `key`
      if (offset - before <= Math.min(WALK_REST, q.walkLimit ?? WALK_REST)) break;
      k = offset + n;
    }
    if (!key) return [];
    return this.#zeroStretch(desc, offset - before, limit, key);
  }

  /** How many catalogue medicines passing the filter sort before `key` and are not in the zero segment. */
  async #notZeroBefore(key: Key, desc: boolean): Promise<number> {
    const q = this.#q;
    const beforeKey = (alias: 'm' | 's') => this.#side(alias, key, 'before', desc);
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

  /** How many medicines a segment holds (asked only when a page starts past its end, or for the total). */
  async size(g: Segment): Promise<number> {
    const key = segmentKey(g);
    let size = this.#sizes.get(key);
    if (size === undefined) {
      size =
        g.sign === '='
          ? (await this.#listTotal()) - (await this.size({ sign: '>' })) - (await this.size({ sign: '<' }))
          : (await this.#counted(g)) + this.#extra(g).length;
      this.#sizes.set(key, size);
    }
    return size;
  }

  /**
   * A segment's size when it costs no count of medicine_stock's index: a whole segment of a sign (or the zero
   * segment) of a list without conditions of its own, read from medicine_stock_counts, or one the branch has
   * no rows for at all; null otherwise.
   */
  async sizeIfKept(g: Segment): Promise<number | null> {
    const plain = this.#q.conditions.length === 0;
    if (this.#sizes.has(segmentKey(g)) || (g.sign === '=' && plain)) return this.size(g);
    if (g.sign === '=' || g.above !== undefined) return null;
    return plain || (await this.#keptOf(g.sign)) === 0 ? this.size(g) : null;
  }

  /**
   * At least how many medicines the zero segment holds, from the kept counts alone: the list's medicines less
   * every row of the branch above and below zero (and the medicines corrected to some stock).
   */
  async zeroAtLeast(): Promise<number> {
    const kept = (await this.#keptOf('>')) + (await this.#keptOf('<'));
    return (await this.#listTotal()) - kept - this.#some.length;
  }

  #listTotal(): Promise<number> {
    this.#total ??= this.#q.total();
    return this.#total;
  }

  /** The branch's rows of a sign under the list's flag, as medicine_stock_counts keeps them (migration 0031). */
  async #keptOf(sign: '>' | '<'): Promise<number> {
    const q = this.#q;
    this.#kept ??= sql<{ positive: number | string | null; negative: number | string | null }>`SELECT
        sum(c.positive) AS positive, sum(c.negative) AS negative FROM medicine_stock_counts c
      WHERE c.branch_id = ${q.branchId} ${and([activeCondition('c', q.active)])}`
      .execute(q.db)
      .then(({ rows }) => ({ '>': Number(rows[0]?.positive ?? 0), '<': Number(rows[0]?.negative ?? 0) }));
    return (await this.#kept)[sign];
  }

  /**
   * How many of medicine_stock's rows a segment holds, the corrected medicines left out: from the kept counts
   * for a whole segment of a sign (or its part above a threshold: the whole less the part up to it) where the
   * list has no conditions of its own or the branch has no row of that sign; counted on the index otherwise.
   */
  async #counted(g: Segment): Promise<number> {
    if (g.sign !== '=' && (g.upTo === undefined || g.upTo === null) && g.low === undefined) {
      const kept = await this.#keptOf(g.sign);
      if (kept === 0) return 0;
      if (this.#q.conditions.length === 0) {
        const whole = kept - this.#all.filter((c) => c.hasRow && signOf(c.kept) === g.sign).length;
        if (g.above === undefined) return whole;
        return whole - (await this.#counted({ sign: '>', above: 0, upTo: g.above }));
      }
    }
    // Fewer medicines in the list than rows of this sign: counted from the list's side.
    const fewer =
      this.#q.conditions.length > 0 &&
      g.sign !== '=' &&
      (await this.#listTotal()) < (await this.#keptOf(g.sign));
    const { rows } = await sql<{ n: number }>`SELECT count(*) AS n ${this.#from(g, fewer)}`.execute(
      this.#q.db,
    );
    return Number(rows[0]?.n ?? 0);
  }

  /** The corrected medicines merged into a segment (a whole one: a stock filter reads medicine_stock settled). */
  #extra(g: Segment) {
    return g.sign === '=' || g.above !== undefined
      ? []
      : this.#some.filter((c) => signOf(c.stock) === g.sign);
  }

  /** `limit` rows of a segment from `offset`: the index's rows merged with the segment's corrected ones. */
  async rows(g: Segment, offset: number, limit: number): Promise<StockRow[]> {
    const extra = this.#extra(g);
    if (extra.length === 0) return this.#indexRows(g, offset, limit);
    // The index's rows from `offset - extra.length` (no earlier one can land on this page), sorted by the
    // engine together with the corrected rows (its collation orders the names). Every corrected row sorted
    // before the window's first index row lies before the window, so from that row on, rows[j] stands at
    // start + j.
    const start = Math.max(0, offset - extra.length);
    const want = offset + limit - start;
    const window = await this.#indexRows(g, start, want);
    if (start > 0 && window.length === 0) return []; // the segment ends before this page
    const d = sql.raw(this.#q.desc ? 'DESC' : 'ASC');
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
