import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * PostgreSQL's autovacuum visits medicine_stock once 1 % of its rows (and at least 1,000) have changed, instead
 * of its default 20 %. The Medicines list sorted by stock reads the table's indexes alone (index-only scans),
 * which skip the table only on pages the visibility map marks all-visible; every update clears that mark on its
 * page, and a sale's update of a row's units is not HOT (its units are in an index). The day's settling
 * (medicines/stock-sort.ts) updates every row whose batches expired overnight: 13,000 of 199,000 rows of a
 * 100,000-medicine catalogue over two branches, far below the default's 40,000, so the marks stayed cleared
 * and pages deep in the stock order took 170-340 ms instead of about 110 ms until the next vacuum
 * (bench/medicines-stock-sort.ts). Statistics follow at 2 %. SQLite has no visibility map: nothing to do.
 */
export const medicineStockVacuumedOften: Migration = {
  async up(db) {
    await runStatements(db, [
      {
        sqlite: null,
        postgres: `ALTER TABLE medicine_stock SET (autovacuum_vacuum_scale_factor = 0.01,
          autovacuum_vacuum_threshold = 1000, autovacuum_analyze_scale_factor = 0.02)`,
      },
    ]);
  },
};
