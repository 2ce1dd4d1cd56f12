import type { SyncConflictsTable } from '../../db/tables/sync';
import { nowIso } from '../../lib/time';

type Unresolved =
  | 'status'
  | 'resolution'
  | 'resolved_payload'
  | 'resolved_by'
  | 'resolved_at'
  | 'resolved_revision';

/** A new review item (a rejected change or an edit conflict), open and not yet resolved by anyone. */
export function openReviewItem(
  item: Omit<SyncConflictsTable, Unresolved | 'created_at' | 'resolution_note'>,
): SyncConflictsTable {
  return {
    ...item,
    status: 'open',
    resolution: null,
    resolved_payload: null,
    resolved_by: null,
    resolved_at: null,
    resolved_revision: null,
    created_at: nowIso(),
  };
}
