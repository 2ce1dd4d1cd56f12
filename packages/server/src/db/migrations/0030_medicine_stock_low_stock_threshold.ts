import { type Migration, sql } from 'kysely';
import { isPostgres } from '../dialect';
import { rowTriggers } from './0028_stock_on_hand_per_medicine';
import { runStatements, type Statement } from './run-statements';

const SQLITE: Statement[] = [
  // Every writer that makes a row copies the medicine's name, flag and threshold from its medicines row (the
  // units writer, stock/medicine-stock.ts; the day's settling, stock-sort.ts; these triggers of 0028 for
  // inserted, deleted, quarantined or re-dated batches and reservations) ...
  ...rowTriggers(true).flatMap(({ name, text }) => [`DROP TRIGGER ${name}`, text]),
  // ... and the medicines' triggers carry a change of any of them to the medicine's rows (a medicine may also
  // arrive after its batch's row, in a snapshot swap).
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
  // The one row maker of 0028's triggers (batches, reservations) copies the threshold as it copies the name.
  `CREATE OR REPLACE FUNCTION medicine_stock_add(branch TEXT, medicine TEXT, delta BIGINT) RETURNS void LANGUAGE plpgsql AS $$
  BEGIN
    IF delta = 0 THEN RETURN; END IF;
    INSERT INTO medicine_stock (branch_id, medicine_id, qty, name, is_active, low_stock_threshold)
      SELECT branch, medicine, delta, coalesce(m.name, ''), coalesce(m.is_active, 1), coalesce(m.low_stock_threshold, 0)
      FROM (SELECT 1) AS one LEFT JOIN medicines m ON m.id = medicine
    ON CONFLICT (branch_id, medicine_id) DO UPDATE SET qty = medicine_stock.qty + EXCLUDED.qty;
    DELETE FROM medicine_stock WHERE branch_id = branch AND medicine_id = medicine AND qty = 0;
  END $$`,
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
 * last entry of an index of its own. The threshold is kept as the name and flag are: copied from the medicines
 * row by whatever makes a medicine_stock row (the units writer stock/medicine-stock.ts on every sale, return,
 * receipt, adjustment, count, transfer and applied movement; the day's settling; 0028's batch and reservation
 * triggers, remade here), and carried to the medicine's rows by the medicines' triggers when it changes.
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
