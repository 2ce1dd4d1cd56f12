import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { type JsonColumn, jsonRows } from '../../db/dialect';
import { preparedSql } from '../../db/prepared';

/** A batch's units on hand changed by `delta`, and nothing else of it: its identity, status and expiry stay. */
export interface UnitsMoved {
  batchId: string;
  /** The batch's branch (its medicines list's version moves on). */
  branchId: string;
  delta: number;
}

const MOVED: readonly JsonColumn[] = [
  { name: 'batch_id', type: 'text' },
  { name: 'delta', type: 'integer' },
];
const KEYS: readonly JsonColumn[] = [
  { name: 'branch_id', type: 'text' },
  { name: 'medicine_id', type: 'text' },
];

/**
 * Brings medicine_stock (migration 0028) and the branches' medicines-list versions up to date after batches'
 * qty_on_hand changed, in the writing transaction: each branch's medicine gets the sum of the deltas of its
 * batches that count (active, and not expired before the day its branch's rows were settled to), made when
 * missing (with its medicine's name, flag and low-stock threshold, migration 0030, as every row maker copies them)
 * and dropped when it comes to zero, as the triggers keep it on every other change. ONE statement for
 * any number of batches (and a second only when a row comes to zero): a sale of 200 lines updates each of its
 * medicines once, where a trigger per batch row ran three statements for each (migration 0029). Every path that
 * changes qty_on_hand alone calls it right after its UPDATE (the ledger, a receipt into an existing batch, an
 * applied movement); inserted, deleted, quarantined or re-dated batches, reservations and names stay
 * trigger-kept.
 */
export async function unitsMoved(trx: Db, moved: readonly UnitsMoved[]): Promise<void> {
  if (moved.length === 0) return;
  const rows = await addUnits.all(trx, { deltas: JSON.stringify(moved.map((m) => [m.batchId, m.delta])) });
  const none = rows.filter((r) => Number(r.qty) === 0).map((r) => [r.branch_id, r.medicine_id]);
  if (none.length > 0) await dropNone.run(trx, { keys: JSON.stringify(none) });
  // A page of the branch's medicines list may show other stock now (modules/medicines/store.sqlite.ts).
  for (const branchId of new Set(moved.map((m) => m.branchId)))
    await moveListVersion.run(trx, { key: `stock:${branchId}` });
}

// Rows in key order: two writers' upserts of the same medicines take their row locks (PostgreSQL) in one order.
const addUnits = preparedSql(
  (db, p: { deltas: string }) => sql<{ branch_id: string; medicine_id: string; qty: number | string }>`
    INSERT INTO medicine_stock (branch_id, medicine_id, qty, name, is_active, low_stock_threshold)
    SELECT b.branch_id, b.medicine_id, sum(d.delta), coalesce(m.name, ''), coalesce(m.is_active, 1),
      coalesce(m.low_stock_threshold, 0)
    FROM ${jsonRows(db, MOVED, p.deltas)} AS d CROSS JOIN batches b LEFT JOIN medicines m ON m.id = b.medicine_id
    WHERE b.id = d.batch_id AND b.regulator_status = 'active'
      AND b.expiry_date >= coalesce((SELECT s.day FROM medicine_stock_days s WHERE s.branch_id = b.branch_id), '')
    GROUP BY b.branch_id, b.medicine_id, m.name, m.is_active, m.low_stock_threshold
    HAVING sum(d.delta) <> 0
    ORDER BY b.branch_id, b.medicine_id
    ON CONFLICT (branch_id, medicine_id) DO UPDATE SET qty = medicine_stock.qty + excluded.qty
    RETURNING branch_id, medicine_id, qty`,
);

const dropNone = preparedSql(
  (db, p: { keys: string }) => sql`DELETE FROM medicine_stock WHERE qty = 0 AND (branch_id, medicine_id) IN
    (SELECT z.branch_id, z.medicine_id FROM ${jsonRows(db, KEYS, p.keys)} AS z)`,
);

const moveListVersion = preparedSql(
  (_db, p: { key: string }) => sql`INSERT INTO list_versions (key, v) VALUES (${p.key}, random())
    ON CONFLICT (key) DO UPDATE SET v = excluded.v`,
);
