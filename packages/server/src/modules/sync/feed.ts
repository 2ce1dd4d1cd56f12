import type { Response } from 'express';
import { CompiledQuery, sql } from 'kysely';
import type { SyncPullResponse } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db, Sqlite } from '../../db/connection';
import { numberedPlaceholders } from '../../db/raw-query';
import { durable } from '../../db/group-commit';
import { onReplica } from '../../db/read-replica';
import { publishedRevision, safeRevision } from '../../db/revision-order';
import { AppError } from '../../http/errors';
import { nowIso } from '../../lib/time';
import { feedReader, getEpoch, getMeta, openReader } from './meta';
import { registeredEntities, registeredEntityNames } from './registry';
import type { SyncDevicesTable } from '../../db/tables/sync';
import { type FeedAudience, served } from './served';

export class ResetRequired extends AppError {
  constructor(detail: string) {
    super(409, 'RESET_REQUIRED', detail);
  }
}

interface FeedRow {
  revision: number;
  entity: string;
  entity_id: string;
  op: 'upsert' | 'delete';
  payload: string;
  branch_id: string | null;
}

/**
 * Changes after `since` (strictly greater), ascending, in the device's scope: organisation rows plus its
 * branch's rows, of registered entities, excluding the rows this device itself pushed. Read in one read
 * transaction on a separate connection, so only committed revisions are seen and next_revision never passes
 * an uncommitted one (SQLite has one writer; revisions commit in order).
 */
export async function pullChanges(
  app: AppContext,
  device: SyncDevicesTable,
  q: { since: number; limit: number; epoch?: string },
  audience: FeedAudience,
): Promise<SyncPullResponse> {
  const epoch = await getEpoch(app);
  if (q.epoch && q.epoch !== epoch)
    throw new ResetRequired(
      `Central's database changed (epoch ${epoch}, the till has ${q.epoch}); the till must bootstrap from a snapshot again.`,
    );
  const read = app.sqlite ? readFeedSqlite(app, device, q) : await readFeedReplica(app, device, q);
  checkCursor(q.since, read);
  const { head, rows } = read;
  // The reader sees a group once committed, before its WAL sync ends: ship nothing central could still lose.
  await durable(app.db);
  const hasMore = rows.length > q.limit;
  const page = hasMore ? rows.slice(0, q.limit) : rows;
  const next = hasMore ? page[page.length - 1]!.revision : Math.max(head, q.since);
  await app.db
    .updateTable('sync_devices')
    .set({ last_seen_at: nowIso(), last_pull_revision: next })
    .where('id', '=', device.id)
    .execute();
  return {
    epoch,
    changes: page.map((r) => ({
      revision: r.revision,
      entity: r.entity,
      entity_id: r.entity_id,
      op: r.op,
      payload: served(r.entity, JSON.parse(r.payload), audience),
      branch_id: r.branch_id,
    })),
    next_revision: next,
    has_more: hasMore,
  };
}

/** What one read of the feed saw, in one transaction: the page and the positions the cursor is checked against. */
interface FeedRead {
  head: number;
  /** Changes up to here were dropped by compaction. */
  compacted: number;
  /** The highest revision ever handed out (it survives compaction and deletes). */
  issued: number;
  rows: FeedRow[];
}

function checkCursor(since: number, read: FeedRead): void {
  if (since < read.compacted)
    throw new ResetRequired(
      `Revision ${since} is older than the retained change history (compacted up to ${read.compacted}); the till must bootstrap from a snapshot again.`,
    );
  if (since > Math.max(read.head, read.issued))
    throw new ResetRequired(
      `Revision ${since} is ahead of central (${read.head}): central was restored from an older backup; the till must bootstrap again.`,
    );
}

const FEED_PAGE = `SELECT revision, entity, entity_id, op, payload, branch_id FROM change_log
  WHERE revision > ? AND revision <= ?
    AND (branch_id IS NULL OR branch_id = ?)
    AND (origin_device_id IS NULL OR origin_device_id <> ?)
    AND entity IN (SELECT value FROM json_each(?))
  ORDER BY revision LIMIT ?`;

/** SQLite: one read transaction on the feed's own read-only connection (it sees committed data only). */
function readFeedSqlite(
  app: AppContext,
  device: SyncDevicesTable,
  q: { since: number; limit: number },
): FeedRead {
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

/**
 * PostgreSQL reads the feed on the read replica when there is one (db/read-replica.ts), up to the safe
 * revision central published (db/revision-order.ts): a pull there is late, never missing one. A cursor ahead
 * of the replica's head is then lag (the till last pulled from the primary, or from a replica further along),
 * not central restored from an older backup: only the primary's sequence tells the two apart, and lag
 * answers nothing new.
 */
async function readFeedReplica(
  app: AppContext,
  device: SyncDevicesTable,
  q: { since: number; limit: number },
): Promise<FeedRead> {
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
  q: { since: number; limit: number },
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

/** Waits for the response to drain (or close), removing both listeners afterwards. */
function drained(res: Response): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** Where a snapshot reads from: one consistent view of the database for the whole stream. */
interface SnapshotSource {
  revision(): Promise<number>;
  count(table: string, where: string, branchId: string | null): Promise<number>;
  rows(table: string, where: string, branchId: string | null): AsyncIterable<Record<string, unknown>>;
}

type SnapshotEntity = ReturnType<typeof registeredEntities>[number];
const whereOf = (def: SnapshotEntity): string =>
  def.scope === 'branch' ? ` WHERE ${def.snapshotWhere ?? `"${def.branchColumn}" = ?`}` : '';

/**
 * The device's scope as of one revision, streamed as NDJSON from one read transaction (SQLite: its own
 * read-only connection and iterate(); PostgreSQL: a REPEATABLE READ transaction and a server-side cursor),
 * respecting backpressure: memory stays flat whatever the size.
 * Lines: {type:'header', revision, epoch, branch_id, entities, total_rows}, {type:'row', entity, id, payload}..., {type:'end', rows}.
 */
export async function streamSnapshot(
  app: AppContext,
  device: SyncDevicesTable,
  res: Response,
  audience: FeedAudience,
): Promise<void> {
  const epoch = await getEpoch(app);
  if (app.sqlite) {
    const reader = openReader(app);
    try {
      reader.exec('BEGIN');
      await writeSnapshot(app, { device, audience, res, epoch }, sqliteSource(reader));
    } finally {
      if (reader.inTransaction) reader.exec('COMMIT');
      reader.close();
    }
    return;
  }
  // On the read replica when there is one (see readFeedReplica); the primary if it fails before a byte is sent.
  const stream = async (db: Db) => {
    const safe = await headOn(app, db);
    await db
      .transaction()
      .setIsolationLevel('repeatable read')
      .setAccessMode('read only')
      .execute((trx) => writeSnapshot(app, { device, audience, res, epoch }, postgresSource(trx, safe)));
  };
  await onReplica(app, stream, () => !res.headersSent);
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
        .prepare(`SELECT * FROM "${table}"${where}`)
        .iterate(...(where ? [branchId] : [])) as IterableIterator<
        Record<string, unknown>
      > as unknown as AsyncIterable<Record<string, unknown>>,
  };
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

async function writeSnapshot(
  app: AppContext,
  to: { device: SyncDevicesTable; audience: FeedAudience; res: Response; epoch: string },
  source: SnapshotSource,
): Promise<void> {
  const { device, audience, res, epoch } = to;
  const revision = await source.revision();
  await durable(app.db);
  const entities = registeredEntities();
  // The rows this snapshot will carry, from the same read transaction: the till's progress bar.
  let totalRows = 0;
  for (const def of entities) totalRows += await source.count(def.table, whereOf(def), device.branch_id);
  res.status(200);
  res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Snapshot-Revision', String(revision));
  const write = async (text: string) => {
    if (!res.write(text)) await drained(res);
    if (res.destroyed) throw new Error('client went away');
  };
  const header = {
    type: 'header',
    revision,
    epoch,
    branch_id: device.branch_id,
    entities: entities.map((e) => e.entity),
    total_rows: totalRows,
  };
  await write(`${JSON.stringify(header)}\n`);
  let rows = 0;
  for (const def of entities) {
    let chunk = '';
    for await (const row of source.rows(def.table, whereOf(def), device.branch_id)) {
      chunk += `${JSON.stringify({ type: 'row', entity: def.entity, id: String(row[def.key]), payload: served(def.entity, def.fromRow(row), audience) })}\n`;
      rows++;
      if (chunk.length > 64_000) {
        await write(chunk);
        chunk = '';
      }
    }
    if (chunk) await write(chunk);
  }
  await write(`${JSON.stringify({ type: 'end', rows })}\n`);
  res.end();
}
