import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { activeCondition, and } from './list-conditions';
import type { StockRow } from './list-types';
import {
  type Correction,
  type Segment,
  type StockFilter,
  StockPager,
  type StockSortInput,
} from './stock-pager';

/**
 * A page of medicines sorted by the branch's sellable stock (then name, then id, as every sort), never sorting
 * the catalogue. `medicine_stock` (trigger-kept, migration 0028) holds each stocked medicine's units of active
 * batches less those held for the will-call shelf, with the medicine's name, flag and low-stock threshold
 * (migration 0030), and its index (branch_id, qty, name, medicine_id, is_active, low_stock_threshold) reads them
 * in the page's order from the index alone, a stock filter keeping or cutting whole segments and comparing
 * units with thresholds in one range of it (segmentsOf). It counts
 * expired batches too (the date is the reader's), so the few medicines whose active expired batches still hold
 * units (`corrections`) are read with their true stock and merged in. The order is three segments: above zero,
 * zero (the catalogue in name order from its index, less the medicines with stock), below zero (a sale under
 * negative_stock_policy 'allow'); ascending reads them the other way round. A segment's size is counted only
 * when a page starts past its end.
 *
 * The SQL is what SQLite and PostgreSQL both speak; the one thing that differs, a list of rows bound as one
 * parameter, comes from the store (`rowsTable`).
 */

/** Units of batch `b` held for the will-call shelf (stock/reservations.ts): on hand, not available. */
const HELD = sql`(SELECT coalesce(sum(r.quantity), 0) FROM stock_reservations r WHERE r.batch_id = b.id AND r.status = 'held')`;

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
    await sql`INSERT INTO medicine_stock (branch_id, medicine_id, qty, name, is_active, low_stock_threshold)
        SELECT DISTINCT b.branch_id, b.medicine_id, 0, m.name, m.is_active, m.low_stock_threshold FROM batches b
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
    kept: Number(r.qty ?? 0),
  }));
}

/**
 * The segments a page walks, in ascending order: below zero, zero, above zero, as the stock filters keep them.
 * A threshold is never below zero, so a medicine holding none or short is low and one above the highest
 * threshold `top` is not: a low-stock filter compares units with thresholds only in the part above zero up
 * to `top` (one range of the index), the rest of that segment passing or failing whole.
 */
function segmentsOf(filter: StockFilter, top: number): Segment[] {
  const out: Segment[] = [];
  const { low_stock: low, out_of_stock: out_ } = filter;
  if (low !== false && out_ !== false) out.push({ sign: '<' }, { sign: '=' });
  if (out_ === true) return out;
  if (low === undefined) out.push({ sign: '>' });
  else if (low) {
    if (top > 0) out.push({ sign: '>', above: 0, upTo: top, low: true });
  } else out.push({ sign: '>', above: 0, upTo: top, low: false }, { sign: '>', above: top, upTo: null });
  return out;
}

/** The highest low-stock threshold of the catalogue (an index's last entry): no medicine above it is low. */
async function highestThreshold(db: Db): Promise<number> {
  const { rows } = await sql<{
    top: number | null;
  }>`SELECT max(low_stock_threshold) AS top FROM medicines`.execute(db);
  return Number(rows[0]?.top ?? 0);
}

/** A page sorted by stock, and how many medicines the filter and the stock filter let through when asked. */
export async function stockSorted(
  q: StockSortInput,
  withTotal = false,
): Promise<{ rows: StockRow[]; total: number | null }> {
  const filter = q.stockFilter ?? {};
  const filtered = filter.low_stock !== undefined || filter.out_of_stock !== undefined;
  let settled = await settledDay(q.db, q.branchId);
  // A stock filter compares medicine_stock as settled: no corrections to test against thresholds.
  if (settled !== q.day && (q.settle !== false || filtered)) {
    await settleStockDay(q.db, q.branchId, q.day);
    settled = q.day;
  }
  const pager = new StockPager(q, await corrections(q, settled));
  const ascending = segmentsOf(filter, filter.low_stock === undefined ? 0 : await highestThreshold(q.db));
  const segments = q.desc ? ascending.reverse() : ascending;
  const out: StockRow[] = [];
  let offset = q.offset;
  for (const g of segments) {
    const want = q.limit - out.length;
    if (want <= 0) break;
    // A page past a segment skips it by its size where that is kept (no count; an empty one is not read), and
    // past the zero segment always, rather than walk it: where nearly every medicine has stock, its few are
    // spread over the whole catalogue. A page surely inside the zero segment does not count it.
    const size =
      g.sign === '=' && offset > 0 && offset >= (await pager.zeroAtLeast())
        ? await pager.size(g)
        : await pager.sizeIfKept(g);
    if (size !== null && offset >= size) {
      offset -= size;
      continue;
    }
    const got = await pager.rows(g, offset, want);
    out.push(...got);
    if (out.length >= q.limit) break;
    // This segment ended inside the page (the next starts at its beginning) or before it (skip its size).
    offset = got.length > 0 || offset === 0 ? 0 : Math.max(0, offset - (await pager.size(g)));
  }
  if (!withTotal) return { rows: out, total: null };
  let total = 0;
  for (const g of segments) total += await pager.size(g);
  return { rows: out, total };
}

export async function stockSortedPage(q: StockSortInput): Promise<StockRow[]> {
  return (await stockSorted(q)).rows;
}
