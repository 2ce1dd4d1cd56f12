import type { Response } from 'express';
import type { SyncPullResponse } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import { durable } from '../../db/group-commit';
import type { SyncDevicesTable } from '../../db/tables/sync';
import { AppError } from '../../lib/errors';
import { nowIso } from '../../lib/time';
import type { FeedRead, SnapshotSource } from './feed-types';
import { getEpoch } from './meta';
import { registeredEntities } from './registry';
import { type FeedAudience, served } from './served';
import { syncStore } from './store';

export class ResetRequired extends AppError {
  constructor(detail: string) {
    super(409, 'RESET_REQUIRED', detail);
  }
}

/**
 * Changes after `since` (strictly greater), ascending, in the device's scope: organisation rows plus its
 * branch's rows, of registered entities, excluding the rows this device itself pushed. Read in one read
 * transaction that sees committed revisions only (store.ts readFeed), so next_revision never passes an
 * uncommitted one.
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
  const read = await syncStore(app.db).readFeed(app, device, q);
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
  // On PostgreSQL's read replica when there is one; the primary if it fails before a byte is sent.
  await syncStore(app.db).withSnapshotSource(
    app,
    (source) => writeSnapshot(app, { device, audience, res, epoch }, source),
    () => !res.headersSent,
  );
}

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
