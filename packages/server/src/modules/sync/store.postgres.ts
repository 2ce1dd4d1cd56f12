import { CompiledQuery, sql } from 'kysely';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { numberedPlaceholders } from '../../db/raw-query';
import { onReplica } from '../../db/read-replica';
import { publishedRevision, safeRevision } from '../../db/revision-order';
import type { SyncDevicesTable } from '../../db/tables/sync';
import type { FeedQuery, FeedRead, FeedRow, SnapshotSource } from './feed-types';
import { getMeta } from './meta';
import type { PushOutcome, PushSource } from './push-change';
import { isInsertOnce, pushSetWise } from './push-setwise';
import { registeredEntityNames } from './registry';

/**
 * Sync on PostgreSQL (central), as syncStore (store.ts) picks it. A push batch is applied as runs of changes, in
 * order, each committed on its own (a batch is transport; every change has its own stored result): runs of
 * insert-once changes go set-wise (push-setwise.ts); the others, and a set-wise run that met a failing change,
 * one change at a time. The feed and the snapshot read one REPEATABLE READ snapshot, on the read replica when
 * there is one, up to the safe revision (db/revision-order.ts).
 */
export const postgresSyncStore = {
  /** Central holds no demo catalogue (a till's, SQLite): nothing to skip. */
  skipDemoChanges: async (_db: Db): Promise<void> => undefined,

  async applyBatch(
    app: AppContext,
    from: PushSource,
    rawChanges: unknown[],
    appVersion: string | null,
    oneByOne: (changes: unknown[]) => Promise<PushOutcome>,
  ): Promise<PushOutcome> {
    const out: PushOutcome = { accepted: [], rejected: [] };
    for (const run of runsOf(rawChanges)) {
      const part =
        (run.insertOnce ? await pushSetWise(app, from, run.changes, appVersion) : null) ??
        (await oneByOne(run.changes));
      out.accepted.push(...part.accepted);
      out.rejected.push(...part.rejected);
      if (part.retryFrom !== undefined) {
        out.retryFrom = part.retryFrom;
        break;
      }
    }
    return out;
  },

  readFeed: (app: AppContext, device: SyncDevicesTable, q: FeedQuery): Promise<FeedRead> =>
    readFeedReplica(app, device, q),

  /**
   * One REPEATABLE READ transaction for the whole stream, on the read replica when there is one; the primary
   * if the replica fails while `mayFallBack` (before a byte is sent).
   */
  async withSnapshotSource(
    app: AppContext,
    write: (source: SnapshotSource) => Promise<void>,
    mayFallBack: () => boolean,
  ): Promise<void> {
    const stream = async (db: Db) => {
      const safe = await headOn(app, db);
      await db
        .transaction()
        .setIsolationLevel('repeatable read')
        .setAccessMode('read only')
        .execute((trx) => write(postgresSource(trx, safe)));
    };
    await onReplica(app, stream, mayFallBack);
  },
};

/** Shorter runs of insert-once changes (a delivery's batch, movement, batch, movement…) join their neighbours. */
const MIN_SET_WISE_RUN = 8;

/** Consecutive changes grouped by whether they go set-wise: insert-once, in a run long enough to pay. */
function runsOf(rawChanges: unknown[]): Array<{ insertOnce: boolean; changes: unknown[] }> {
  const byKind: Array<{ insertOnce: boolean; changes: unknown[] }> = [];
  const append = (runs: typeof byKind, insertOnce: boolean, changes: unknown[]) => {
    const last = runs.at(-1);
    if (last?.insertOnce === insertOnce) last.changes.push(...changes);
    else runs.push({ insertOnce, changes: [...changes] });
  };
  for (const raw of rawChanges) append(byKind, isInsertOnce(raw), [raw]);
  const runs: typeof byKind = [];
  for (const run of byKind)
    append(runs, run.insertOnce && run.changes.length >= MIN_SET_WISE_RUN, run.changes);
  return runs;
}

/**
 * PostgreSQL reads the feed on the read replica when there is one (db/read-replica.ts), up to the safe
 * revision central published (db/revision-order.ts): a pull there is late, never missing one. A cursor ahead
 * of the replica's head is then lag (the till last pulled from the primary, or from a replica further along),
 * not central restored from an older backup: only the primary's sequence tells the two apart, and lag
 * answers nothing new.
 */
async function readFeedReplica(app: AppContext, device: SyncDevicesTable, q: FeedQuery): Promise<FeedRead> {
  const read = await onReplica(app, async (db) => readFeedPostgres(db, device, q, await headOn(app, db)));
  if (q.since > Math.max(read.head, read.issued) && app.readDb !== app.db)
    read.issued = await issuedRevision(app.db);
  return read;
}

/** The highest revision PostgreSQL's sequence has handed out (compaction and deletes do not lower it). */
async function issuedRevision(db: Db): Promise<number> {
  const { rows } = await sql<{ n: number | null }>`SELECT last_value AS n FROM pg_sequences
    WHERE sequencename = 'change_log_revision_seq'`.execute(db);
  return Number(rows[0]?.n ?? 0);
}

/**
 * The revision a PostgreSQL read may hand out up to (db/revision-order.ts): on the primary the safe revision,
 * computed now, before the read transaction takes its snapshot (so it sees every revision under it); on a
 * replica null: the read takes the published one from its own snapshot.
 */
async function headOn(app: AppContext, db: Db): Promise<number | null> {
  return db === app.db ? safeRevision(db) : null;
}

/** PostgreSQL: one REPEATABLE READ snapshot from the pool, up to `safe` (see headOn). */
async function readFeedPostgres(
  db: Db,
  device: SyncDevicesTable,
  q: FeedQuery,
  safe: number | null,
): Promise<FeedRead> {
  return db
    .transaction()
    .setIsolationLevel('repeatable read')
    .setAccessMode('read only')
    .execute(async (trx): Promise<FeedRead> => {
      const upTo = safe ?? (await publishedRevision(trx));
      const compacted = await getMeta(trx, 'compacted_revision');
      const issued = await issuedRevision(trx);
      const rows = await trx
        .selectFrom('change_log')
        .select(['revision', 'entity', 'entity_id', 'op', 'payload', 'branch_id'])
        .where('revision', '>', q.since)
        .where('revision', '<=', upTo)
        .where((eb) => eb.or([eb('branch_id', 'is', null), eb('branch_id', '=', device.branch_id)]))
        .where((eb) => eb.or([eb('origin_device_id', 'is', null), eb('origin_device_id', '<>', device.id)]))
        .where('entity', 'in', registeredEntityNames())
        .orderBy('revision')
        .limit(q.limit + 1)
        .execute();
      return {
        head: upTo,
        compacted: Number(compacted ?? 0),
        issued,
        rows: rows as FeedRow[],
      };
    });
}

/**
 * A PostgreSQL snapshot's revision is the safe one (see headOn). Its rows may already hold changes committed
 * above it; the till pulls those again after it, and applying a pulled change twice changes nothing (each
 * entity's applyPulled upserts the row's state or inserts once by id).
 */
function postgresSource(trx: Db, safe: number | null): SnapshotSource {
  const raw = (text: string, params: unknown[]) => CompiledQuery.raw(numberedPlaceholders(text), params);
  return {
    revision: async () => safe ?? publishedRevision(trx),
    count: async (table, where, branchId) => {
      const { rows } = await trx.executeQuery<{ n: number }>(
        raw(`SELECT count(*) AS n FROM "${table}"${where}`, where ? [branchId] : []),
      );
      return Number(rows[0]?.n ?? 0);
    },
    async *rows(table, where, branchId) {
      const query = raw(`SELECT * FROM "${table}"${where}`, where ? [branchId] : []);
      for await (const chunk of trx
        .getExecutor()
        .stream<Record<string, unknown>>(query, SNAPSHOT_CURSOR_ROWS))
        yield* chunk.rows;
    },
  };
}

/** Rows fetched per round trip of the PostgreSQL cursor. */
const SNAPSHOT_CURSOR_ROWS = 2_000;
