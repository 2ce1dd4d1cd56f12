import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * Prescriptions, their dispensings (the prescription book), the will-call shelf and refill reminders.
 * Sale and customer ids are plain TEXT: those tables belong to the selling module's migration.
 */
export const prescriptions: Migration = {
  async up(db) {
    await runStatements(db, [
      `CREATE TABLE prescriptions (
        id TEXT PRIMARY KEY,
        branch_id TEXT NOT NULL REFERENCES branches(id),
        customer_id TEXT,
        patient_name TEXT NOT NULL,
        patient_id_number TEXT NOT NULL DEFAULT '',
        patient_phone TEXT NOT NULL DEFAULT '',
        prescriber_name TEXT NOT NULL,
        prescriber_licence_no TEXT NOT NULL,
        prescriber_facility TEXT NOT NULL DEFAULT '',
        issue_date TEXT NOT NULL,
        valid_until TEXT NOT NULL CHECK (valid_until >= issue_date),
        status TEXT NOT NULL CHECK (status IN ('active', 'partially_dispensed', 'ready', 'dispensed', 'cancelled')),
        notes TEXT NOT NULL DEFAULT '',
        cancel_reason TEXT,
        cancelled_at TEXT,
        cancelled_by TEXT REFERENCES users(id),
        created_by TEXT REFERENCES users(id),
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX prescriptions_branch_issue ON prescriptions(branch_id, issue_date)',
      'CREATE INDEX prescriptions_customer ON prescriptions(customer_id) WHERE customer_id IS NOT NULL',
      'CREATE INDEX prescriptions_status ON prescriptions(branch_id, status)',
      `CREATE TABLE prescription_items (
        id TEXT PRIMARY KEY,
        prescription_id TEXT NOT NULL REFERENCES prescriptions(id),
        branch_id TEXT NOT NULL REFERENCES branches(id),
        line_no INTEGER NOT NULL,
        medicine_id TEXT NOT NULL REFERENCES medicines(id),
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        dosage TEXT NOT NULL DEFAULT '',
        refills_allowed INTEGER NOT NULL DEFAULT 0 CHECK (refills_allowed >= 0),
        refills_used INTEGER NOT NULL DEFAULT 0 CHECK (refills_used >= 0 AND refills_used <= refills_allowed),
        dispensed_quantity INTEGER NOT NULL DEFAULT 0 CHECK (dispensed_quantity >= 0 AND dispensed_quantity <= quantity),
        total_dispensed INTEGER NOT NULL DEFAULT 0 CHECK (total_dispensed >= 0),
        UNIQUE (prescription_id, medicine_id)
      ) STRICT`,
      `CREATE TABLE will_calls (
        id TEXT PRIMARY KEY,
        prescription_id TEXT NOT NULL REFERENCES prescriptions(id),
        branch_id TEXT NOT NULL REFERENCES branches(id),
        bin_location TEXT NOT NULL DEFAULT '',
        notes TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL CHECK (status IN ('waiting', 'picked_up')),
        placed_by TEXT REFERENCES users(id),
        placed_at TEXT NOT NULL,
        collected_by_name TEXT,
        collector_relationship TEXT,
        collector_id_number TEXT,
        picked_up_by TEXT REFERENCES users(id),
        picked_up_at TEXT
      ) STRICT`,
      // One open shelf entry per prescription.
      `CREATE UNIQUE INDEX will_calls_open ON will_calls(prescription_id) WHERE status = 'waiting'`,
      'CREATE INDEX will_calls_branch ON will_calls(branch_id, status, placed_at)',
      `CREATE TABLE dispensings (
        id TEXT PRIMARY KEY,
        dispense_id TEXT NOT NULL,
        prescription_id TEXT NOT NULL REFERENCES prescriptions(id),
        prescription_item_id TEXT NOT NULL REFERENCES prescription_items(id),
        branch_id TEXT NOT NULL REFERENCES branches(id),
        medicine_id TEXT NOT NULL REFERENCES medicines(id),
        quantity INTEGER NOT NULL CHECK (quantity > 0),
        fill_number INTEGER NOT NULL CHECK (fill_number >= 1),
        source TEXT NOT NULL CHECK (source IN ('dispense', 'sale')),
        sale_id TEXT,
        pharmacist_id TEXT REFERENCES users(id),
        will_call_id TEXT REFERENCES will_calls(id),
        notes TEXT NOT NULL DEFAULT '',
        created_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX dispensings_prescription ON dispensings(prescription_id)',
      'CREATE INDEX dispensings_branch_time ON dispensings(branch_id, created_at)',
      'CREATE INDEX dispensings_dispense ON dispensings(dispense_id)',
      'CREATE INDEX dispensings_sale ON dispensings(sale_id) WHERE sale_id IS NOT NULL',
      `CREATE TABLE refill_reminders (
        id TEXT PRIMARY KEY,
        branch_id TEXT NOT NULL REFERENCES branches(id),
        customer_id TEXT,
        prescription_id TEXT REFERENCES prescriptions(id),
        patient_name TEXT NOT NULL,
        medicine_id TEXT NOT NULL REFERENCES medicines(id),
        due_date TEXT NOT NULL,
        contact TEXT NOT NULL,
        notes TEXT NOT NULL DEFAULT '',
        created_by TEXT REFERENCES users(id),
        created_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX refill_reminders_due ON refill_reminders(branch_id, due_date)',
    ]);
  },
};
