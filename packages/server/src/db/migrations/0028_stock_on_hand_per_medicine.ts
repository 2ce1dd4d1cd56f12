import type { Migration } from 'kysely';
import { runStatements, type Statement } from './run-statements';

/** Units of batch `id` held for the will-call shelf (stock/reservations.ts): on hand, not available. */
const held = (id: string) =>
  `(SELECT coalesce(sum(r.quantity), 0) FROM stock_reservations r WHERE r.batch_id = ${id} AND r.status = 'held')`;

/**
 * Adds `delta` units to a branch's row of a medicine (SQLite trigger statements): the row is made when missing,
 * with the medicine's name and flag as they are (a batch may arrive before its medicine in a snapshot swap:
 * the medicine's own trigger fills them in then), and dropped when its units come to zero, so a medicine
 * without a row holds none. `from` names a table the branch and medicine are read from (a reservation's batch).
 * No UPSERT: an outer upsert (the sync write path) overrides a trigger's conflict clause (as in 0014).
 * `threshold`: the row also carries the medicine's low-stock threshold (migration 0030 remakes these triggers so).
 */
function addUnits(
  branch: string,
  medicine: string,
  delta: string,
  from = '',
  when = '1',
  threshold = false,
): string {
  const source = from ? `FROM ${from} WHERE ${when}` : `WHERE ${when}`;
  const key = `branch_id = ${branch} AND medicine_id = ${medicine}`;
  // The row to change: the key itself, or the key read from `from` (the batch of a reservation).
  const row = from
    ? `(branch_id, medicine_id) IN (SELECT ${branch}, ${medicine} ${source})`
    : `branch_id = ${branch} AND medicine_id = ${medicine} AND ${when}`;
  return `
  INSERT INTO medicine_stock (branch_id, medicine_id, qty, name, is_active${threshold ? ', low_stock_threshold' : ''})
    SELECT ${branch}, ${medicine}, 0, coalesce((SELECT name FROM medicines WHERE id = ${medicine}), ''),
      coalesce((SELECT is_active FROM medicines WHERE id = ${medicine}), 1)${
        threshold
          ? `,
      coalesce((SELECT low_stock_threshold FROM medicines WHERE id = ${medicine}), 0)`
          : ''
      }
    ${source} AND (${delta}) <> 0 AND NOT EXISTS (SELECT 1 FROM medicine_stock WHERE ${key});
  UPDATE medicine_stock SET qty = qty + (${delta}) WHERE ${row};
  DELETE FROM medicine_stock WHERE qty = 0 AND ${row};`;
}

/**
 * Whether batch `alias` (NEW, OLD, b) counts in medicine_stock: active, and not expired before the day its
 * branch's rows were settled to (medicine_stock_days; none yet: every expiry counts).
 */
const counts = (alias: string) =>
  `${alias}.regulator_status = 'active' AND ${alias}.expiry_date >= coalesce((SELECT d.day FROM medicine_stock_days d WHERE d.branch_id = ${alias}.branch_id), '')`;

/** A reservation's batch while it counts (a held reservation of another batch takes nothing sellable). */
const countedBatch = (batch: string) => ['batches b', `b.id = ${batch} AND ${counts('b')}`];

/**
 * The triggers that make, change and drop a row when a batch is inserted, deleted, quarantined, released or
 * re-dated, or a reservation held or let go (`threshold`: with the medicine's low-stock threshold, 0030).
 */
export function rowTriggers(threshold: boolean): Array<{ name: string; text: string }> {
  const add = (branch: string, medicine: string, delta: string, from = '', when = '1') =>
    addUnits(branch, medicine, delta, from, when, threshold);
  const [batch, batchWhen] = countedBatch('NEW.batch_id');
  const [oldBatch, oldBatchWhen] = countedBatch('OLD.batch_id');
  return [
    {
      name: 'medicine_stock_batch_insert',
      text: `CREATE TRIGGER medicine_stock_batch_insert AFTER INSERT ON batches BEGIN
    ${add('NEW.branch_id', 'NEW.medicine_id', `NEW.qty_on_hand - ${held('NEW.id')}`, '', counts('NEW'))}
  END`,
    },
    // Quarantined, released, recalled, its expiry corrected (or, never in practice, moved): the old contribution
    // out, the new one in.
    {
      name: 'medicine_stock_batch_status',
      text: `CREATE TRIGGER medicine_stock_batch_status AFTER UPDATE ON batches
    WHEN NEW.regulator_status IS NOT OLD.regulator_status OR NEW.expiry_date IS NOT OLD.expiry_date
      OR NEW.branch_id IS NOT OLD.branch_id OR NEW.medicine_id IS NOT OLD.medicine_id
  BEGIN
    ${add('OLD.branch_id', 'OLD.medicine_id', `-(OLD.qty_on_hand - ${held('OLD.id')})`, '', counts('OLD'))}
    ${add('NEW.branch_id', 'NEW.medicine_id', `NEW.qty_on_hand - ${held('NEW.id')}`, '', counts('NEW'))}
  END`,
    },
    {
      name: 'medicine_stock_batch_delete',
      text: `CREATE TRIGGER medicine_stock_batch_delete AFTER DELETE ON batches BEGIN
    ${add('OLD.branch_id', 'OLD.medicine_id', `-(OLD.qty_on_hand - ${held('OLD.id')})`, '', counts('OLD'))}
  END`,
    },
    {
      name: 'medicine_stock_reservation_insert',
      text: `CREATE TRIGGER medicine_stock_reservation_insert AFTER INSERT ON stock_reservations
    WHEN NEW.status = 'held' BEGIN
    ${add('b.branch_id', 'b.medicine_id', '-NEW.quantity', batch, batchWhen)}
  END`,
    },
    {
      name: 'medicine_stock_reservation_update',
      text: `CREATE TRIGGER medicine_stock_reservation_update AFTER UPDATE ON stock_reservations
    WHEN (OLD.status = 'held' OR NEW.status = 'held') AND (NEW.status IS NOT OLD.status
      OR NEW.quantity IS NOT OLD.quantity OR NEW.batch_id IS NOT OLD.batch_id)
  BEGIN
    ${add('b.branch_id', 'b.medicine_id', "iif(OLD.status = 'held', OLD.quantity, 0)", oldBatch, oldBatchWhen)}
    ${add('b.branch_id', 'b.medicine_id', "-iif(NEW.status = 'held', NEW.quantity, 0)", batch, batchWhen)}
  END`,
    },
    {
      name: 'medicine_stock_reservation_delete',
      text: `CREATE TRIGGER medicine_stock_reservation_delete AFTER DELETE ON stock_reservations
    WHEN OLD.status = 'held' BEGIN
    ${add('b.branch_id', 'b.medicine_id', 'OLD.quantity', oldBatch, oldBatchWhen)}
  END`,
    },
  ];
}

const [batchInsert, ...otherRowTriggers] = rowTriggers(false).map((t) => t.text);

const SQLITE_TRIGGERS: Statement[] = [
  batchInsert!,
  // The hot path (a sale, a receipt into an existing batch, a write-off): the units change, nothing else does.
  `CREATE TRIGGER medicine_stock_batch_units AFTER UPDATE OF qty_on_hand ON batches
    WHEN NEW.qty_on_hand IS NOT OLD.qty_on_hand AND NEW.regulator_status IS OLD.regulator_status
      AND NEW.expiry_date IS OLD.expiry_date AND NEW.branch_id IS OLD.branch_id AND NEW.medicine_id IS OLD.medicine_id
      AND ${counts('NEW')}
  BEGIN
    ${addUnits('NEW.branch_id', 'NEW.medicine_id', 'NEW.qty_on_hand - OLD.qty_on_hand')}
  END`,
  ...otherRowTriggers,
  // The name and flag a page is sorted and filtered by, read from the index without the medicines row.
  `CREATE TRIGGER medicine_stock_medicine_insert AFTER INSERT ON medicines BEGIN
    UPDATE medicine_stock SET name = NEW.name, is_active = NEW.is_active WHERE medicine_id = NEW.id;
  END`,
  `CREATE TRIGGER medicine_stock_medicine_update AFTER UPDATE OF name, is_active ON medicines
    WHEN NEW.name IS NOT OLD.name OR NEW.is_active IS NOT OLD.is_active BEGIN
    UPDATE medicine_stock SET name = NEW.name, is_active = NEW.is_active WHERE medicine_id = NEW.id;
  END`,
].map((text) => ({ sqlite: text, postgres: null }));

const POSTGRES_TRIGGERS = [
  `CREATE FUNCTION medicine_stock_add(branch TEXT, medicine TEXT, delta BIGINT) RETURNS void LANGUAGE plpgsql AS $$
  BEGIN
    IF delta = 0 THEN RETURN; END IF;
    INSERT INTO medicine_stock (branch_id, medicine_id, qty, name, is_active)
      VALUES (branch, medicine, delta, coalesce((SELECT name FROM medicines WHERE id = medicine), ''),
        coalesce((SELECT is_active FROM medicines WHERE id = medicine), 1))
    ON CONFLICT (branch_id, medicine_id) DO UPDATE SET qty = medicine_stock.qty + EXCLUDED.qty;
    DELETE FROM medicine_stock WHERE branch_id = branch AND medicine_id = medicine AND qty = 0;
  END $$`,
  `CREATE FUNCTION medicine_stock_held(batch TEXT) RETURNS BIGINT LANGUAGE sql STABLE AS $$
    SELECT coalesce(sum(r.quantity), 0)::BIGINT FROM stock_reservations r WHERE r.batch_id = batch AND r.status = 'held' $$`,
  `CREATE FUNCTION medicine_stock_counts(branch TEXT, status TEXT, expiry TEXT) RETURNS boolean LANGUAGE sql STABLE AS $$
    SELECT status = 'active' AND expiry >= coalesce((SELECT d.day FROM medicine_stock_days d WHERE d.branch_id = branch), '') $$`,
  `CREATE FUNCTION medicine_stock_of_batch() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'UPDATE' AND NEW.regulator_status = OLD.regulator_status AND NEW.expiry_date = OLD.expiry_date
        AND NEW.branch_id = OLD.branch_id AND NEW.medicine_id = OLD.medicine_id THEN
      IF NEW.qty_on_hand <> OLD.qty_on_hand
          AND medicine_stock_counts(NEW.branch_id, NEW.regulator_status, NEW.expiry_date) THEN
        PERFORM medicine_stock_add(NEW.branch_id, NEW.medicine_id, NEW.qty_on_hand - OLD.qty_on_hand);
      END IF;
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
    OR UPDATE OF qty_on_hand, regulator_status, expiry_date, branch_id, medicine_id ON batches
    FOR EACH ROW EXECUTE FUNCTION medicine_stock_of_batch()`,
  `CREATE FUNCTION medicine_stock_of_reservation() RETURNS trigger LANGUAGE plpgsql AS $$
  DECLARE b batches%ROWTYPE;
  BEGIN
    IF TG_OP IN ('UPDATE', 'DELETE') AND OLD.status = 'held' THEN
      SELECT * INTO b FROM batches x WHERE x.id = OLD.batch_id
        AND medicine_stock_counts(x.branch_id, x.regulator_status, x.expiry_date);
      IF FOUND THEN PERFORM medicine_stock_add(b.branch_id, b.medicine_id, OLD.quantity); END IF;
    END IF;
    IF TG_OP IN ('INSERT', 'UPDATE') AND NEW.status = 'held' THEN
      SELECT * INTO b FROM batches x WHERE x.id = NEW.batch_id
        AND medicine_stock_counts(x.branch_id, x.regulator_status, x.expiry_date);
      IF FOUND THEN PERFORM medicine_stock_add(b.branch_id, b.medicine_id, -NEW.quantity); END IF;
    END IF;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER medicine_stock_of_reservation AFTER INSERT OR DELETE
    OR UPDATE OF status, quantity, batch_id ON stock_reservations
    FOR EACH ROW EXECUTE FUNCTION medicine_stock_of_reservation()`,
  `CREATE FUNCTION medicine_stock_of_medicine() RETURNS trigger LANGUAGE plpgsql AS $$
  BEGIN
    IF TG_OP = 'INSERT' OR NEW.name IS DISTINCT FROM OLD.name OR NEW.is_active IS DISTINCT FROM OLD.is_active THEN
      UPDATE medicine_stock SET name = NEW.name, is_active = NEW.is_active WHERE medicine_id = NEW.id;
    END IF;
    RETURN NULL;
  END $$`,
  `CREATE TRIGGER medicine_stock_of_medicine AFTER INSERT OR UPDATE OF name, is_active ON medicines
    FOR EACH ROW EXECUTE FUNCTION medicine_stock_of_medicine()`,
];

/**
 * Issue 30.6: sorting the Medicines table by a branch's stock over 100,000 medicines read every batch of the
 * branch and sorted every stocked medicine for each page (0.5-1.2 s). `medicine_stock` holds, per branch and
 * medicine, the sellable units: those of its active batches less the units held for the will-call shelf,
 * leaving out the batches expired before the branch's day in `medicine_stock_days` (a row there per branch,
 * moved on to the branch's date by the first read of each day, modules/medicines/stock-sort.ts: the branch's
 * date is the reader's; no row yet, nothing left out). A row exists only while its units are not zero: a
 * medicine without one holds none. Triggers keep it in the writing transaction on every path that changes a
 * batch or a reservation (sales, receipts, counts, transfers, the sync write path, the snapshot swap, a test's
 * raw UPDATE). Each row carries its medicine's name and is_active (kept by the medicines' triggers), so a page
 * in the list's order (stock, then name, then id) is read from (branch_id, qty, name, medicine_id, is_active),
 * and the medicines holding none are found against (branch_id, name, medicine_id), both without the medicines
 * table. Filled here from the batches as they are, every expiry counted.
 */
export const stockOnHandPerMedicine: Migration = {
  async up(db) {
    await runStatements(db, [
      'CREATE TABLE medicine_stock_days (branch_id TEXT PRIMARY KEY, day TEXT NOT NULL) STRICT',
      `CREATE TABLE medicine_stock (
        branch_id TEXT NOT NULL,
        medicine_id TEXT NOT NULL,
        qty INTEGER NOT NULL,
        name TEXT NOT NULL,
        is_active INTEGER NOT NULL,
        PRIMARY KEY (branch_id, medicine_id)
      ) STRICT, WITHOUT ROWID`,
      'CREATE INDEX medicine_stock_order ON medicine_stock(branch_id, qty, name COLLATE NOCASE, medicine_id, is_active)',
      'CREATE INDEX medicine_stock_names ON medicine_stock(branch_id, name COLLATE NOCASE, medicine_id, is_active)',
      'CREATE INDEX medicine_stock_medicine ON medicine_stock(medicine_id)',
      // Every medicine in name order whatever its flag (is_active=all), as medicines_active_name_id has each flag's.
      'CREATE INDEX medicines_name_id ON medicines(name COLLATE NOCASE, id)',
      `INSERT INTO medicine_stock (branch_id, medicine_id, qty, name, is_active)
        SELECT b.branch_id, b.medicine_id, sum(b.qty_on_hand - ${held('b.id')}), m.name, m.is_active
        FROM batches b JOIN medicines m ON m.id = b.medicine_id WHERE b.regulator_status = 'active'
        GROUP BY b.branch_id, b.medicine_id, m.name, m.is_active
        HAVING sum(b.qty_on_hand - ${held('b.id')}) <> 0`,
      ...SQLITE_TRIGGERS,
      { sqlite: null, postgres: POSTGRES_TRIGGERS },
    ]);
  },
};
