import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * Issue 26 H2 / 29: a decision a till carries for a manager is backed by the manager's sign-in at that till.
 * device_sign_ins records who signed in at which device, when and for which decision (an approval, or a
 * customer's credit terms; a manager override at the counter, or a manager's own session at the till); an approval records the device it was decided
 * at (null: at head office). Also the announcements and recalls each person at the counter has acknowledged.
 */
export const deviceSignIns: Migration = {
  async up(db) {
    await runStatements(db, [
      `CREATE TABLE device_sign_ins (
        id TEXT PRIMARY KEY,
        branch_id TEXT NOT NULL REFERENCES branches(id),
        device_id TEXT,
        user_id TEXT NOT NULL,
        approval_id TEXT,
        customer_id TEXT,
        method TEXT NOT NULL CHECK (method IN ('override', 'session')),
        signed_in_at TEXT NOT NULL,
        created_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX device_sign_ins_approval ON device_sign_ins(approval_id)',
      'ALTER TABLE approvals ADD COLUMN decided_at_device TEXT',
      // Issue 29: which announcements and recalls a person at this till has acknowledged (kept per server).
      `CREATE TABLE notice_acknowledgements (
        user_id TEXT NOT NULL,
        notice_kind TEXT NOT NULL CHECK (notice_kind IN ('announcement', 'recall')),
        notice_id TEXT NOT NULL,
        acknowledged_at TEXT NOT NULL,
        PRIMARY KEY (user_id, notice_kind, notice_id)
      ) STRICT`,
    ]);
  },
};
