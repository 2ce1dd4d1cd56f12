import type { AppContext } from '../../app-context';
import type { Sqlite } from '../../db/connection';
import type { SyncDevicesTable } from '../../db/tables/sync';
import type { FeedQuery, FeedRead, FeedRow, SnapshotSource } from './feed-types';
import { skipDemoChanges } from './held-records';
import { feedReader, openReader } from './meta';
import type { PushOutcome } from './push-change';
import { registeredEntityNames } from './registry';

/**
 * Sync on SQLite (a till, a small central), as syncStore (store.ts) picks it: one writer, and a statement costs
 * a function call, so a batch is applied one change at a time in one transaction; the feed and the snapshot
 * read on a read-only connection of their own (meta.ts), which sees committed data only, and revisions commit
 * in order.
 */
export const sqliteSyncStore = {
  skipDemoChanges,

  applyBatch: (
    _app: unknown,
    _from: unknown,
    rawChanges: unknown[],
    _appVersion: string | null,
    oneByOne: (changes: unknown[]) => Promise<PushOutcome>,
  ): Promise<PushOutcome> => oneByOne(rawChanges),

  readFeed: async (app: AppContext, device: SyncDevicesTable, q: FeedQuery): Promise<FeedRead> =>
    readFeedSqlite(app, device, q),

  /** One read transaction on a fresh read-only connection for the whole stream. */
  async withSnapshotSource(app: AppContext, write: (source: SnapshotSource) => Promise<void>): Promise<void> {
    const reader = openReader(app);
    try {
      reader.exec('BEGIN');
      await write(sqliteSource(reader));
    } finally {
      if (reader.inTransaction) reader.exec('COMMIT');
      reader.close();
    }
  },
};

const FEED_PAGE = `SELECT revision, entity, entity_id, op, payload, branch_id FROM change_log
  WHERE revision > ? AND revision <= ?
    AND (branch_id IS NULL OR branch_id = ?)
    AND (origin_device_id IS NULL OR origin_device_id <> ?)
    AND entity IN (SELECT value FROM json_each(?))
  ORDER BY revision LIMIT ?`;

/** SQLite: one read transaction on the feed's own read-only connection (it sees committed data only). */
function readFeedSqlite(app: AppContext, device: SyncDevicesTable, q: FeedQuery): FeedRead {
  const reader = feedReader(app);
  const read = reader.transaction((): FeedRead => {
    const head = Number(
      (reader.prepare('SELECT max(revision) AS r FROM change_log').get() as { r: number | null }).r ?? 0,
    );
    const compacted = reader.prepare("SELECT value FROM sync_meta WHERE key = 'compacted_revision'").get() as
      | { value: string }
      | undefined;
    const seq = reader.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'change_log'").get() as
      | { seq: number }
      | undefined;
    const entities = JSON.stringify(registeredEntityNames());
    const rows = reader
      .prepare(FEED_PAGE)
      .all(q.since, head, device.branch_id, device.id, entities, q.limit + 1) as FeedRow[];
    return { head, compacted: Number(compacted?.value ?? 0), issued: Number(seq?.seq ?? 0), rows };
  });
  return read();
}

function sqliteSource(reader: Sqlite): SnapshotSource {
  return {
    revision: async () =>
      Number(
        (reader.prepare('SELECT max(revision) AS r FROM change_log').get() as { r: number | null }).r ?? 0,
      ),
    count: async (table, where, branchId) =>
      Number(
        (
          reader
            .prepare(`SELECT count(*) AS n FROM "${table}"${where}`)
            .get(...(where ? [branchId] : [])) as {
            n: number;
          }
        ).n,
      ),
    rows: (table, where, branchId) =>
      reader
        .prepare<unknown[], Record<string, unknown>>(`SELECT * FROM "${table}"${where}`)
        .iterate(...(where ? [branchId] : [])),
  };
}
