import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * Sync: devices, the exactly-once mutation ledger, conflicts, sync metadata, and the change_log columns the
 * outbox and conflict detection need. Depends only on 0001 (change_log), so 0002-0004 may land before or after.
 */
export const sync: Migration = {
  async up(db) {
    await runStatements(db, [
      // Till: the central revision this row's edit was based on (the till's pull cursor when it was written).
      'ALTER TABLE change_log ADD COLUMN base_revision INTEGER',
      // Till: the central revision of a pulled change (from_remote = 1).
      'ALTER TABLE change_log ADD COLUMN remote_revision INTEGER',
      // Till outbox state of its own rows: NULL pending, accepted, rejected, skipped (never pushed).
      "ALTER TABLE change_log ADD COLUMN sync_status TEXT CHECK (sync_status IN ('accepted', 'rejected', 'skipped'))",
      // Till: the accepted/rejected item central answered, as JSON.
      'ALTER TABLE change_log ADD COLUMN sync_result TEXT',
      // Till: central revision that covers an accepted change; the row is cleaned once the pull cursor passes it.
      'ALTER TABLE change_log ADD COLUMN acked_revision INTEGER',
      'CREATE INDEX change_log_outbox ON change_log(revision) WHERE from_remote = 0 AND sync_status IS NULL',
      'CREATE INDEX change_log_created ON change_log(created_at)',
      `CREATE TABLE sync_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT`,
      `CREATE TABLE sync_devices (
        id TEXT PRIMARY KEY,
        branch_id TEXT NOT NULL REFERENCES branches(id),
        name TEXT NOT NULL,
        token_hash TEXT NOT NULL UNIQUE,
        status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
        app_version TEXT,
        last_seen_at TEXT,
        last_push_at TEXT,
        last_pull_revision INTEGER,
        registered_by TEXT,
        revoked_at TEXT,
        revoked_by TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX sync_devices_branch ON sync_devices(branch_id, name)',
      `CREATE TABLE sync_mutations (
        device_id TEXT NOT NULL REFERENCES sync_devices(id),
        client_mutation_id TEXT NOT NULL,
        seq INTEGER,
        entity TEXT NOT NULL,
        entity_id TEXT,
        payload_hash TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('accepted', 'rejected')),
        result TEXT NOT NULL,
        revision INTEGER,
        created_at TEXT NOT NULL,
        PRIMARY KEY (device_id, client_mutation_id)
      ) STRICT, WITHOUT ROWID`,
      `CREATE TABLE sync_conflicts (
        id TEXT PRIMARY KEY,
        device_id TEXT,
        branch_id TEXT,
        entity TEXT NOT NULL,
        entity_id TEXT,
        client_mutation_id TEXT,
        kind TEXT NOT NULL CHECK (kind IN ('edit_conflict', 'rejected')),
        code TEXT NOT NULL,
        message TEXT NOT NULL,
        till_payload TEXT,
        central_payload TEXT,
        base_revision INTEGER,
        central_revision INTEGER,
        status TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open', 'resolved')),
        resolution TEXT,
        resolved_payload TEXT,
        resolved_by TEXT,
        resolved_at TEXT,
        resolved_revision INTEGER,
        created_at TEXT NOT NULL
      ) STRICT`,
      'CREATE INDEX sync_conflicts_branch ON sync_conflicts(branch_id, status, created_at)',
    ]);
  },
};
