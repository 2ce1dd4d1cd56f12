export interface SyncMetaTable {
  key: string;
  value: string;
}

export interface SyncDevicesTable {
  id: string;
  branch_id: string;
  name: string;
  token_hash: string;
  status: 'active' | 'revoked';
  app_version: string | null;
  last_seen_at: string | null;
  last_push_at: string | null;
  last_pull_revision: number | null;
  registered_by: string | null;
  revoked_at: string | null;
  revoked_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface SyncMutationsTable {
  device_id: string;
  client_mutation_id: string;
  seq: number | null;
  entity: string;
  entity_id: string | null;
  payload_hash: string;
  status: 'accepted' | 'rejected';
  result: string;
  revision: number | null;
  created_at: string;
}

export interface SyncConflictsTable {
  id: string;
  device_id: string | null;
  branch_id: string | null;
  entity: string;
  entity_id: string | null;
  client_mutation_id: string | null;
  kind: 'edit_conflict' | 'rejected';
  code: string;
  message: string;
  till_payload: string | null;
  central_payload: string | null;
  base_revision: number | null;
  central_revision: number | null;
  status: 'open' | 'resolved';
  resolution: string | null;
  resolved_payload: string | null;
  resolved_by: string | null;
  resolved_at: string | null;
  resolved_revision: number | null;
  created_at: string;
  /** Why a manager dismissed it (0025). */
  resolution_note?: string;
}

/** Central's latest comparison of a till's books of one day with its own (0025). */
export interface BooksChecksTable {
  device_id: string;
  branch_id: string;
  day: string;
  differs: number;
  result: string;
  checked_at: string;
}

/** Columns 0005_sync adds to change_log (merged into ChangeLogTable by schema.ts). */
export interface SyncChangeLogColumns {
  base_revision: number | null;
  remote_revision: number | null;
  sync_status: 'accepted' | 'rejected' | 'skipped' | null;
  sync_result: string | null;
  acked_revision: number | null;
}

export interface SyncTables {
  sync_meta: SyncMetaTable;
  sync_devices: SyncDevicesTable;
  sync_mutations: SyncMutationsTable;
  sync_conflicts: SyncConflictsTable;
  books_checks: BooksChecksTable;
}
