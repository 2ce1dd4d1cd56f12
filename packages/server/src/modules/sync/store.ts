import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { isPostgres } from '../../db/dialect';
import type { SyncDevicesTable } from '../../db/tables/sync';
import type { FeedQuery, FeedRead, SnapshotSource } from './feed-types';
import type { PushOutcome, PushSource } from './push-change';
import { postgresSyncStore } from './store.postgres';
import { sqliteSyncStore } from './store.sqlite';

/**
 * What sync does differently on each engine (docs/ARCHITECTURE.md, "Two databases, one server"): how a push
 * batch is applied and how the feed and the snapshot read. The implementations are `store.sqlite.ts` and
 * `store.postgres.ts`; syncStore picks one for a database.
 */
export interface SyncStore {
  /**
   * Applies a till's batch. `oneByOne` applies changes one at a time, each in its own savepoint, in one
   * transaction (push.ts): SQLite applies the whole batch so (one writer; a statement is a function call);
   * PostgreSQL applies it as runs, each committed on its own, runs of insert-once changes set-wise.
   */
  applyBatch(
    app: AppContext,
    from: PushSource,
    rawChanges: unknown[],
    appVersion: string | null,
    oneByOne: (changes: unknown[]) => Promise<PushOutcome>,
  ): Promise<PushOutcome>;
  /**
   * One read of the pull feed for a device (its rows after q.since, at most q.limit + 1, and the positions the
   * cursor is checked against), in one read transaction that sees committed revisions only.
   */
  readFeed(app: AppContext, device: SyncDevicesTable, q: FeedQuery): Promise<FeedRead>;
  /**
   * Runs `write` over one consistent view of the database for a whole snapshot stream; `mayFallBack` says
   * whether a failing read replica may still hand over to the primary (nothing sent yet).
   */
  withSnapshotSource(
    app: AppContext,
    write: (source: SnapshotSource) => Promise<void>,
    mayFallBack: () => boolean,
  ): Promise<void>;
  /**
   * Before a server first syncs as a registered device: marks its demo catalogue's unsent stock as never to
   * be sent (held-records.ts, 28.2). A till's (SQLite); PostgreSQL (central) holds no demo catalogue.
   */
  skipDemoChanges(db: Db): Promise<void>;
}

const chosen = new WeakMap<Db, SyncStore>();

/** The sync store of a database, chosen once per Kysely instance. */
export function syncStore(db: Db): SyncStore {
  let store = chosen.get(db);
  if (!store) {
    store = isPostgres(db) ? postgresSyncStore : sqliteSyncStore;
    chosen.set(db, store);
  }
  return store;
}
