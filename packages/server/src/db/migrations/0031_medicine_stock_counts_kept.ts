import type { Migration } from 'kysely';
import { runStatements, type Statement } from './run-statements';

/** The segment a medicine_stock row of `alias` (NEW, OLD) counts in: 1 above zero, -1 below (a shortage). */
const positive = (alias: string) => `CASE WHEN ${alias}.qty > 0 THEN 1 ELSE 0 END`;
const negative = (alias: string) => `CASE WHEN ${alias}.qty < 0 THEN 1 ELSE 0 END`;

/** A row's change that moves it between the counts: its sign, its flag or its branch. */
const MOVED = `(OLD.qty > 0) IS NOT (NEW.qty > 0) OR (OLD.qty < 0) IS NOT (NEW.qty < 0)
  OR OLD.is_active IS NOT NEW.is_active OR OLD.branch_id IS NOT NEW.branch_id`;

/**
 * SQLite's trigger statements adding a row of `alias` to its count (`sign` '+') or taking it out ('-'). No
 * UPSERT: an outer upsert (the units writer's) overrides a trigger's conflict clause (as in 0014 and 0028).
 */
const sqliteCount = (alias: string, sign: '+' | '-') => `
    INSERT INTO medicine_stock_counts (branch_id, is_active, shard, positive, negative)
      SELECT ${alias}.branch_id, ${alias}.is_active, 0, 0, 0 WHERE NOT EXISTS (SELECT 1 FROM medicine_stock_counts c
        WHERE c.branch_id = ${alias}.branch_id AND c.is_active = ${alias}.is_active AND c.shard = 0);
    UPDATE medicine_stock_counts SET positive = positive ${sign} ${positive(alias)},
      negative = negative ${sign} ${negative(alias)}
      WHERE branch_id = ${alias}.branch_id AND is_active = ${alias}.is_active AND shard = 0;`;

const SQLITE: Statement[] = [
  `CREATE TRIGGER medicine_stock_counts_insert AFTER INSERT ON medicine_stock WHEN NEW.qty <> 0 BEGIN
    ${sqliteCount('NEW', '+')}
  END`,
  `CREATE TRIGGER medicine_stock_counts_delete AFTER DELETE ON medicine_stock WHEN OLD.qty <> 0 BEGIN
    ${sqliteCount('OLD', '-')}
  END`,
  `CREATE TRIGGER medicine_stock_counts_update AFTER UPDATE OF qty, is_active, branch_id ON medicine_stock
    WHEN ${MOVED} BEGIN
    ${sqliteCount('OLD', '-')}
    ${sqliteCount('NEW', '+')}
  END`,
].map((text) => ({ sqlite: text, postgres: null }));

/**
 * PostgreSQL adds a row's change to the shard of the writing connection (its backend's pid modulo SHARDS), so
 * concurrent writers of a branch (tills' pushes, a delivery, two COPY connections of generate:sales) do not
 * queue on one row until each other's commit; a shard's numbers may go below zero, their sums are the counts.
 */
const SHARDS = 16;
const pgCount = (alias: string, sign: '' | '-') => `
      INSERT INTO medicine_stock_counts (branch_id, is_active, shard, positive, negative)
        VALUES (${alias}.branch_id, ${alias}.is_active, pg_backend_pid() % ${SHARDS}, ${sign}${positive(alias)},
          ${sign}${negative(alias)})
      ON CONFLICT (branch_id, is_active, shard) DO UPDATE SET
        positive = medicine_stock_counts.positive + EXCLUDED.positive,
        negative = medicine_stock_counts.negative + EXCLUDED.negative;`;

const POSTGRES = [
  `CREATE FUNCTION medicine_stock_count() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') THEN${pgCount('OLD', '-')}
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') THEN${pgCount('NEW', '')}
    END IF;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER medicine_stock_counts_insert AFTER INSERT ON medicine_stock
    FOR EACH ROW WHEN (NEW.qty <> 0) EXECUTE FUNCTION medicine_stock_count()`,
  `CREATE TRIGGER medicine_stock_counts_delete AFTER DELETE ON medicine_stock
    FOR EACH ROW WHEN (OLD.qty <> 0) EXECUTE FUNCTION medicine_stock_count()`,
  `CREATE TRIGGER medicine_stock_counts_update AFTER UPDATE OF qty, is_active, branch_id ON medicine_stock
    FOR EACH ROW WHEN (${MOVED.replaceAll('IS NOT', 'IS DISTINCT FROM')}) EXECUTE FUNCTION medicine_stock_count()`,
];

/**
 * Issue 30.6: the Medicines list sorted by stock with a stock filter counted the branch's medicine_stock rows
 * above zero on every request (100,000 index entries where nearly every medicine is stocked: 70-140 ms on
 * PostgreSQL), to size its segments and its total. `medicine_stock_counts` holds, per branch and flag (on
 * PostgreSQL, per writer's shard too), how many rows are above zero and below it, kept by medicine_stock's own triggers (a row made, dropped, or moved across
 * zero, to another flag or branch: a sale that leaves a medicine above zero fires nothing), so every writer of
 * medicine_stock keeps it (the units writer, 0028's triggers, the day's settling, the medicines' triggers).
 * modules/medicines/stock-pager.ts reads a segment's size from it where the list has no other condition.
 */
export const medicineStockCountsKept: Migration = {
  async up(db) {
    await runStatements(db, [
      `CREATE TABLE medicine_stock_counts (
        branch_id TEXT NOT NULL,
        is_active INTEGER NOT NULL,
        shard INTEGER NOT NULL,
        positive INTEGER NOT NULL,
        negative INTEGER NOT NULL,
        PRIMARY KEY (branch_id, is_active, shard)
      ) STRICT, WITHOUT ROWID`,
      `INSERT INTO medicine_stock_counts (branch_id, is_active, shard, positive, negative)
        SELECT branch_id, is_active, 0, sum(${positive('s')}), sum(${negative('s')}) FROM medicine_stock s
        GROUP BY branch_id, is_active`,
      ...SQLITE,
      { sqlite: null, postgres: POSTGRES },
    ]);
  },
};
