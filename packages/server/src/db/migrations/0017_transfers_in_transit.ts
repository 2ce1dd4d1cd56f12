import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * Transfers in transit (issue 17): sending takes stock out of the source into a transfer with status
 * `in_transit`; the destination receives it (a receipt, per line the received quantity and, when short, a
 * reason) or the source cancels it. Each line carries what the destination needs to book it in without the
 * source's batch (number, expiry, cost, supplier, regulator status), so transfer_items no longer references
 * batches: the destination's replicas never hold the source's batches. The receipt is the destination's own
 * document (transfer_receipts), so each table has one owning branch for replication. Older transfers keep
 * status `completed` and their to_batch_id.
 */
export const transfersInTransit: Migration = {
  async up(db) {
    await runStatements(db, [
      'ALTER TABLE transfers ADD COLUMN cancelled_at TEXT',
      'ALTER TABLE transfers ADD COLUMN cancelled_by TEXT',
      "ALTER TABLE transfers ADD COLUMN cancel_reason TEXT NOT NULL DEFAULT ''",
      'CREATE INDEX transfers_status ON transfers(status, created_at)',
      `CREATE TABLE transfer_items_v2 (
        id TEXT PRIMARY KEY,
        transfer_id TEXT NOT NULL REFERENCES transfers(id),
        medicine_id TEXT NOT NULL REFERENCES medicines(id),
        from_batch_id TEXT NOT NULL,
        to_batch_id TEXT,
        batch_number TEXT NOT NULL,
        expiry_date TEXT NOT NULL,
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        unit_cost INTEGER NOT NULL,
        supplier_id TEXT,
        regulator_status TEXT NOT NULL DEFAULT 'active'
      ) STRICT`,
      `INSERT INTO transfer_items_v2 (id, transfer_id, medicine_id, from_batch_id, to_batch_id, batch_number,
         expiry_date, quantity, unit_cost, supplier_id, regulator_status)
       SELECT i.id, i.transfer_id, i.medicine_id, i.from_batch_id, i.to_batch_id, b.batch_number, b.expiry_date,
         i.quantity, i.unit_cost, b.supplier_id, b.regulator_status
       FROM transfer_items i JOIN batches b ON b.id = i.from_batch_id`,
      'DROP TABLE transfer_items',
      'ALTER TABLE transfer_items_v2 RENAME TO transfer_items',
      'CREATE INDEX transfer_items_transfer ON transfer_items(transfer_id)',
      `CREATE TABLE transfer_receipts (
        id TEXT PRIMARY KEY,
        transfer_id TEXT NOT NULL UNIQUE REFERENCES transfers(id),
        branch_id TEXT NOT NULL REFERENCES branches(id),
        received_by TEXT,
        received_at TEXT NOT NULL,
        notes TEXT NOT NULL DEFAULT ''
      ) STRICT`,
      'CREATE INDEX transfer_receipts_branch ON transfer_receipts(branch_id, received_at)',
      `CREATE TABLE transfer_receipt_lines (
        id TEXT PRIMARY KEY,
        receipt_id TEXT NOT NULL REFERENCES transfer_receipts(id),
        transfer_item_id TEXT NOT NULL REFERENCES transfer_items(id),
        to_batch_id TEXT,
        received_quantity INTEGER NOT NULL CHECK (received_quantity >= 0),
        discrepancy_reason TEXT CHECK (discrepancy_reason IN ('short', 'damaged')),
        UNIQUE (receipt_id, transfer_item_id)
      ) STRICT`,
      'CREATE INDEX transfer_receipt_lines_item ON transfer_receipt_lines(transfer_item_id)',
    ]);
  },
};
