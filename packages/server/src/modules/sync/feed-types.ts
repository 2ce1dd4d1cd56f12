/** What the pull feed and the snapshot stream read, as each sync store (store.ts) reads it. */

export interface FeedRow {
  revision: number;
  entity: string;
  entity_id: string;
  op: 'upsert' | 'delete';
  payload: string;
  branch_id: string | null;
}

/** What one read of the feed saw, in one transaction: the page and the positions the cursor is checked against. */
export interface FeedRead {
  head: number;
  /** Changes up to here were dropped by compaction. */
  compacted: number;
  /** The highest revision ever handed out (it survives compaction and deletes). */
  issued: number;
  rows: FeedRow[];
}

/** A page of the feed: revisions after `since`, at most `limit` (the store reads one more to know if more follow). */
export interface FeedQuery {
  since: number;
  limit: number;
}

/** Where a snapshot reads from: one consistent view of the database for the whole stream. */
export interface SnapshotSource {
  revision(): Promise<number>;
  count(table: string, where: string, branchId: string | null): Promise<number>;
  /** The table's rows: read as they come (SQLite's synchronous iterator, a PostgreSQL cursor). */
  rows(
    table: string,
    where: string,
    branchId: string | null,
  ): Iterable<Record<string, unknown>> | AsyncIterable<Record<string, unknown>>;
}
