import type { Migration } from 'kysely';
import { runStatements, type Statement } from './run-statements';

/** A batch row's change that moved its units and nothing medicine_stock or the list's stock depends on else. */
const UNITS_ONLY = `NEW.qty_on_hand IS NOT OLD.qty_on_hand AND NEW.regulator_status IS OLD.regulator_status
  AND NEW.expiry_date IS OLD.expiry_date AND NEW.branch_id IS OLD.branch_id AND NEW.medicine_id IS OLD.medicine_id`;

const SQLITE: Statement[] = [
  'DROP TRIGGER medicine_stock_batch_units',
  'DROP TRIGGER list_versions_batch_update',
  // Every other change of a batch still moves the branch's list on here; units move it in unitsMoved.
  `CREATE TRIGGER list_versions_batch_update AFTER UPDATE ON batches WHEN NOT (${UNITS_ONLY}) BEGIN
    INSERT INTO list_versions (key, v) SELECT 'stock:' || NEW.branch_id, 0
      WHERE NOT EXISTS (SELECT 1 FROM list_versions WHERE key = 'stock:' || NEW.branch_id);
    UPDATE list_versions SET v = random() WHERE key IN ('stock:' || OLD.branch_id, 'stock:' || NEW.branch_id);
  END`,
].map((text) => ({ sqlite: text, postgres: null }));

const POSTGRES = [
  'DROP TRIGGER medicine_stock_of_batch ON batches',
  `CREATE OR REPLACE FUNCTION medicine_stock_of_batch() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    -- Units alone: the writer keeps medicine_stock itself, once per medicine (unitsMoved).
    IF TG_OP = 'UPDATE' AND NEW.regulator_status = OLD.regulator_status AND NEW.expiry_date = OLD.expiry_date
        AND NEW.branch_id = OLD.branch_id AND NEW.medicine_id = OLD.medicine_id THEN
      RETURN NULL;
    END IF;
    IF TG_OP IN ('UPDATE', 'DELETE') AND medicine_stock_counts(OLD.branch_id, OLD.regulator_status, OLD.expiry_date) THEN
      PERFORM medicine_stock_add(OLD.branch_id, OLD.medicine_id, -(OLD.qty_on_hand - medicine_stock_held(OLD.id)));
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND medicine_stock_counts(NEW.branch_id, NEW.regulator_status, NEW.expiry_date) THEN
      PERFORM medicine_stock_add(NEW.branch_id, NEW.medicine_id, NEW.qty_on_hand - medicine_stock_held(NEW.id));
    END IF;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER medicine_stock_of_batch AFTER INSERT OR DELETE
    OR UPDATE OF regulator_status, expiry_date, branch_id, medicine_id ON batches
    FOR EACH ROW EXECUTE FUNCTION medicine_stock_of_batch()`,
];

/**
 * Issue 30.6: a sale of 200 lines fired 0028's trigger on each batch row it took from (three statements on
 * medicine_stock each, about 50 µs a row) and the list's version trigger (two more). A change of a batch's
 * units alone (a sale, a receipt into an existing batch, a count, a write-off, a transfer, a return, a
 * movement applied from sync) now leaves medicine_stock and the branch's list version to the one code path
 * that writes units (modules/stock/medicine-stock.ts, called by the ledger, receive.ts and stock/sync.ts in
 * the same transaction): one statement for all the batches a write touched. Inserted, deleted, quarantined,
 * released or re-dated batches, reservations and medicines' names stay trigger-kept, on both engines.
 */
export const medicineStockUnitsKeptOncePerWrite: Migration = {
  async up(db) {
    await runStatements(db, [...SQLITE, { sqlite: null, postgres: POSTGRES }]);
  },
};
