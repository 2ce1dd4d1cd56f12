import type { Migration } from 'kysely';
import { runStatements, sqliteOnly } from './run-statements';

const REBUILD_WILL_CALLS = [
  'PRAGMA defer_foreign_keys = ON',
  'CREATE TABLE will_calls_copy AS SELECT * FROM will_calls',
  'DROP TABLE will_calls',
  `CREATE TABLE will_calls (
    id TEXT PRIMARY KEY,
    prescription_id TEXT NOT NULL REFERENCES prescriptions(id),
    branch_id TEXT NOT NULL REFERENCES branches(id),
    bin_location TEXT NOT NULL DEFAULT '',
    notes TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL CHECK (status IN ('waiting', 'picked_up', 'returned')),
    placed_by TEXT REFERENCES users(id),
    placed_at TEXT NOT NULL,
    collected_by_name TEXT,
    collector_relationship TEXT,
    collector_id_number TEXT,
    picked_up_by TEXT REFERENCES users(id),
    picked_up_at TEXT,
    sale_id TEXT,
    returned_by TEXT REFERENCES users(id),
    returned_at TEXT,
    return_reason TEXT
  ) STRICT`,
  `INSERT INTO will_calls (id, prescription_id, branch_id, bin_location, notes, status, placed_by, placed_at,
     collected_by_name, collector_relationship, collector_id_number, picked_up_by, picked_up_at)
   SELECT id, prescription_id, branch_id, bin_location, notes, status, placed_by, placed_at,
     collected_by_name, collector_relationship, collector_id_number, picked_up_by, picked_up_at
   FROM will_calls_copy`,
  'DROP TABLE will_calls_copy',
  `CREATE UNIQUE INDEX will_calls_open ON will_calls(prescription_id) WHERE status = 'waiting'`,
  'CREATE INDEX will_calls_branch ON will_calls(branch_id, status, placed_at)',
];

const WILL_CALLS_POSTGRES = [
  'ALTER TABLE will_calls DROP CONSTRAINT will_calls_status_check',
  `ALTER TABLE will_calls ADD CONSTRAINT will_calls_status_check
     CHECK (status IN ('waiting', 'picked_up', 'returned'))`,
  'ALTER TABLE will_calls ADD COLUMN sale_id TEXT',
  'ALTER TABLE will_calls ADD COLUMN returned_by TEXT REFERENCES users(id) DEFERRABLE INITIALLY DEFERRED',
  'ALTER TABLE will_calls ADD COLUMN returned_at TEXT',
  'ALTER TABLE will_calls ADD COLUMN return_reason TEXT',
];

/**
 * Issue 27.1 and 27.4.
 * - A prescription prepared for the will-call shelf holds its units in `stock_reservations` (per batch) instead
 *   of taking them out of stock; the pickup is a sale, which takes the reserved units and marks them sold;
 *   returning the entry to stock releases them. A will-call entry gains the `returned` state, the sale that
 *   paid for it and who returned it; a dispensing records when it was reversed (goods returned to stock).
 * - A branch lists the foreign currencies its drawers hold (`drawer_currencies`, a JSON array, default none);
 *   a sale records the currency its change was given in; a closed session keeps its count per currency.
 * will_calls is rebuilt for its new status (SQLite cannot alter a CHECK): its rows are copied back under
 * deferred foreign keys, so the dispensings that point at them stay valid.
 */
export const willCallReservations: Migration = {
  async up(db) {
    await runStatements(db, [
      `CREATE TABLE stock_reservations (
        id TEXT PRIMARY KEY,
        branch_id TEXT NOT NULL REFERENCES branches(id),
        batch_id TEXT NOT NULL REFERENCES batches(id),
        medicine_id TEXT NOT NULL REFERENCES medicines(id),
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        prescription_id TEXT NOT NULL REFERENCES prescriptions(id),
        dispense_id TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('held', 'sold', 'released')),
        sale_id TEXT,
        created_by TEXT,
        created_at TEXT NOT NULL,
        closed_at TEXT
      ) STRICT`,
      `CREATE INDEX stock_reservations_held_batch ON stock_reservations(batch_id) WHERE status = 'held'`,
      `CREATE INDEX stock_reservations_held_medicine ON stock_reservations(branch_id, medicine_id) WHERE status = 'held'`,
      'CREATE INDEX stock_reservations_dispense ON stock_reservations(dispense_id)',
      ...REBUILD_WILL_CALLS.map(sqliteOnly),
      { sqlite: null, postgres: WILL_CALLS_POSTGRES },
      'ALTER TABLE dispensings ADD COLUMN reversed_at TEXT',
      `ALTER TABLE branches ADD COLUMN drawer_currencies TEXT NOT NULL DEFAULT '[]'`,
      'ALTER TABLE sales ADD COLUMN change_currency_code TEXT',
      'ALTER TABLE cash_sessions ADD COLUMN counted_by_currency TEXT',
    ]);
  },
};
