import { type Migration, sql } from 'kysely';
import { isPostgres } from '../dialect';
import { runStatements, type Statement } from './run-statements';

const SQLITE: Statement[] = [
  // A row takes its medicine's threshold when it is made (whichever trigger or writer makes it) ...
  `CREATE TRIGGER medicine_stock_threshold AFTER INSERT ON medicine_stock BEGIN
    UPDATE medicine_stock SET low_stock_threshold =
      coalesce((SELECT low_stock_threshold FROM medicines WHERE id = NEW.medicine_id), 0)
    WHERE branch_id = NEW.branch_id AND medicine_id = NEW.medicine_id;
  END`,
  // ... and follows it, as it follows the name and the flag (a medicine may arrive after its batch's row).
  'DROP TRIGGER medicine_stock_medicine_insert',
  'DROP TRIGGER medicine_stock_medicine_update',
  `CREATE TRIGGER medicine_stock_medicine_insert AFTER INSERT ON medicines BEGIN
    UPDATE medicine_stock SET name = NEW.name, is_active = NEW.is_active,
      low_stock_threshold = NEW.low_stock_threshold WHERE medicine_id = NEW.id;
  END`,
  `CREATE TRIGGER medicine_stock_medicine_update AFTER UPDATE OF name, is_active, low_stock_threshold ON medicines
    WHEN NEW.name IS NOT OLD.name OR NEW.is_active IS NOT OLD.is_active
      OR NEW.low_stock_threshold IS NOT OLD.low_stock_threshold BEGIN
    UPDATE medicine_stock SET name = NEW.name, is_active = NEW.is_active,
      low_stock_threshold = NEW.low_stock_threshold WHERE medicine_id = NEW.id;
  END`,
].map((text) => ({ sqlite: text, postgres: null }));

const POSTGRES = [
  `CREATE FUNCTION medicine_stock_threshold() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    NEW.low_stock_threshold := coalesce((SELECT low_stock_threshold FROM medicines WHERE id = NEW.medicine_id), 0);
    RETURN NEW;
  END $$`,
  `CREATE TRIGGER medicine_stock_threshold BEFORE INSERT ON medicine_stock
    FOR EACH ROW EXECUTE FUNCTION medicine_stock_threshold()`,
  'DROP TRIGGER medicine_stock_of_medicine ON medicines',
  `CREATE OR REPLACE FUNCTION medicine_stock_of_medicine() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' OR NEW.name IS DISTINCT FROM OLD.name OR NEW.is_active IS DISTINCT FROM OLD.is_active
        OR NEW.low_stock_threshold IS DISTINCT FROM OLD.low_stock_threshold THEN
      UPDATE medicine_stock SET name = NEW.name, is_active = NEW.is_active,
        low_stock_threshold = NEW.low_stock_threshold WHERE medicine_id = NEW.id;
    END IF;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER medicine_stock_of_medicine AFTER INSERT OR UPDATE OF name, is_active, low_stock_threshold
    ON medicines FOR EACH ROW EXECUTE FUNCTION medicine_stock_of_medicine()`,
];

/**
 * Issue 30.6: the Medicines table filtered by low stock and sorted by stock compared each stocked medicine's
 * units with its threshold through a read of its medicines row (a page fetched from the table per medicine:
 * 0.3-0.5 s over 100,000). medicine_stock now carries each medicine's threshold, kept like its name and flag,
 * at the end of the (branch, units, name) index: the medicines at or below their threshold are read from one
 * range of that index alone (stock-sort.ts). The catalogue's highest threshold (where that range ends) is the
 * last entry of an index of its own.
 */
export const medicineStockLowStockThreshold: Migration = {
  async up(db) {
    await runStatements(db, [
      'ALTER TABLE medicine_stock ADD COLUMN low_stock_threshold INTEGER NOT NULL DEFAULT 0',
      `UPDATE medicine_stock SET low_stock_threshold =
        coalesce((SELECT m.low_stock_threshold FROM medicines m WHERE m.id = medicine_stock.medicine_id), 0)`,
      'DROP INDEX medicine_stock_order',
      `CREATE INDEX medicine_stock_order
        ON medicine_stock(branch_id, qty, name COLLATE NOCASE, medicine_id, is_active, low_stock_threshold)`,
      'CREATE INDEX medicines_low_stock_threshold ON medicines(low_stock_threshold)',
      ...SQLITE,
      { sqlite: null, postgres: POSTGRES },
    ]);
    // The rebuilt index lost its statistics: a database analysed before (a generated catalogue) gets them back,
    // or its planner takes the index with none for the cheapest read of every medicine_stock query.
    if (!isPostgres(db)) {
      const { rows } = await sql<{ n: number }>`SELECT count(*) AS n FROM sqlite_master
        WHERE name = 'sqlite_stat1'`.execute(db);
      if (Number(rows[0]?.n) > 0) await sql`ANALYZE medicine_stock`.execute(db);
    }
  },
};
