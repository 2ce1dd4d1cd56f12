import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * Adds the approval kind refund_tender (a refund to another tender than the sale was paid with). SQLite cannot
 * change a CHECK constraint in place, so the approvals table is rebuilt with the same columns and indexes; no
 * other table refers to it.
 */
export const refundTenderApprovals: Migration = {
  async up(db) {
    await runStatements(db, [
      `CREATE TABLE approvals_new (
        id TEXT PRIMARY KEY,
        branch_id TEXT NOT NULL REFERENCES branches(id),
        kind TEXT NOT NULL CHECK (kind IN (
          'price_override', 'discount', 'return_without_receipt', 'void', 'stock_variance', 'refund_tender'
        )),
        payload TEXT NOT NULL DEFAULT '{}',
        reason TEXT NOT NULL DEFAULT '',
        status TEXT NOT NULL DEFAULT 'pending' CHECK (status IN ('pending', 'approved', 'rejected', 'used')),
        requested_by TEXT NOT NULL,
        decided_by TEXT,
        decision_reason TEXT,
        decided_at TEXT,
        used_by TEXT,
        used_at TEXT,
        expires_at TEXT NOT NULL,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT`,
      `INSERT INTO approvals_new (id, branch_id, kind, payload, reason, status, requested_by, decided_by,
        decision_reason, decided_at, used_by, used_at, expires_at, created_at, updated_at)
       SELECT id, branch_id, kind, payload, reason, status, requested_by, decided_by,
        decision_reason, decided_at, used_by, used_at, expires_at, created_at, updated_at FROM approvals`,
      'DROP TABLE approvals',
      'ALTER TABLE approvals_new RENAME TO approvals',
      'CREATE INDEX approvals_branch ON approvals(branch_id, status, created_at)',
      'CREATE INDEX approvals_requester ON approvals(requested_by, created_at)',
    ]);
  },
};
