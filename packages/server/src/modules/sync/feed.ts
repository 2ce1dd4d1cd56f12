import type { Response } from 'express';
import type { SyncPullResponse } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import { durable } from '../../db/group-commit';
import { AppError } from '../../http/errors';
import { nowIso } from '../../lib/time';
import { feedReader, getEpoch, openReader } from './meta';
import { registeredEntities, registeredEntityNames } from './registry';
import type { SyncDevicesTable } from '../../db/tables/sync';

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
): Promise<SyncPullResponse> {
  const epoch = await getEpoch(app);
  if (q.epoch && q.epoch !== epoch)
    throw new ResetRequired(
      `Central's database changed (epoch ${epoch}, the till has ${q.epoch}); the till must bootstrap from a snapshot again.`,
    );
  const reader = feedReader(app);
  const entities = JSON.stringify(registeredEntityNames());
  const read = reader.transaction(() => {
    const head = Number(
      (reader.prepare('SELECT max(revision) AS r FROM change_log').get() as { r: number | null }).r ?? 0,
    );
    const compacted = Number(
      (
        reader.prepare("SELECT value FROM sync_meta WHERE key = 'compacted_revision'").get() as
          | { value: string }
          | undefined
      )?.value ?? 0,
    );
    if (q.since < compacted)
      throw new ResetRequired(
        `Revision ${q.since} is older than the retained change history (compacted up to ${compacted}); the till must bootstrap from a snapshot again.`,
      );
    const seq = reader.prepare("SELECT seq FROM sqlite_sequence WHERE name = 'change_log'").get() as
      | { seq: number }
      | undefined;
    if (q.since > Math.max(head, Number(seq?.seq ?? 0)))
      throw new ResetRequired(
        `Revision ${q.since} is ahead of central (${head}): central was restored from an older backup; the till must bootstrap again.`,
      );
    const rows = reader
      .prepare(
        `SELECT revision, entity, entity_id, op, payload, branch_id FROM change_log
         WHERE revision > ? AND revision <= ?
           AND (branch_id IS NULL OR branch_id = ?)
           AND (origin_device_id IS NULL OR origin_device_id <> ?)
           AND entity IN (SELECT value FROM json_each(?))
         ORDER BY revision LIMIT ?`,
      )
      .all(q.since, head, device.branch_id, device.id, entities, q.limit + 1) as FeedRow[];
    return { head, rows };
  });
  const { head, rows } = read();
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
      payload: JSON.parse(r.payload),
      branch_id: r.branch_id,
    })),
    next_revision: next,
    has_more: hasMore,
  };
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

/**
 * The device's scope as of one revision, streamed as NDJSON from one read transaction on its own connection
 * (better-sqlite3 iterate(), respecting backpressure): memory stays flat whatever the size.
 * Lines: {type:'header', revision, epoch, branch_id, entities, total_rows}, {type:'row', entity, id, payload}..., {type:'end', rows}.
 */
export async function streamSnapshot(
  app: AppContext,
  device: SyncDevicesTable,
  res: Response,
): Promise<void> {
  const epoch = await getEpoch(app);
  const reader = openReader(app);
  let rows = 0;
  try {
    reader.exec('BEGIN');
    const revision = Number(
      (reader.prepare('SELECT max(revision) AS r FROM change_log').get() as { r: number | null }).r ?? 0,
    );
    await durable(app.db);
    const entities = registeredEntities();
    const whereOf = (def: (typeof entities)[number]) =>
      def.scope === 'branch' ? ` WHERE ${def.snapshotWhere ?? `"${def.branchColumn}" = ?`}` : '';
    // The rows this snapshot will carry, from the same read transaction: the till's progress bar.
    let totalRows = 0;
    for (const def of entities) {
      const count = reader.prepare(`SELECT count(*) AS n FROM "${def.table}"${whereOf(def)}`);
      const row = (def.scope === 'branch' ? count.get(device.branch_id) : count.get()) as { n: number };
      totalRows += Number(row.n);
    }
    res.status(200);
    res.setHeader('Content-Type', 'application/x-ndjson; charset=utf-8');
    res.setHeader('Cache-Control', 'no-store');
    res.setHeader('X-Snapshot-Revision', String(revision));
    const write = async (line: string) => {
      if (!res.write(`${line}\n`)) await drained(res);
      if (res.destroyed) throw new Error('client went away');
    };
    await write(
      JSON.stringify({
        type: 'header',
        revision,
        epoch,
        branch_id: device.branch_id,
        entities: entities.map((e) => e.entity),
        total_rows: totalRows,
      }),
    );
    for (const def of entities) {
      const stmt =
        def.scope === 'branch'
          ? reader.prepare(
              `SELECT * FROM "${def.table}" WHERE ${def.snapshotWhere ?? `"${def.branchColumn}" = ?`}`,
            )
          : reader.prepare(`SELECT * FROM "${def.table}"`);
      const iterator = (
        def.scope === 'branch' ? stmt.iterate(device.branch_id) : stmt.iterate()
      ) as IterableIterator<Record<string, unknown>>;
      let chunk = '';
      for (const row of iterator) {
        chunk += `${JSON.stringify({ type: 'row', entity: def.entity, id: String(row[def.key]), payload: def.fromRow(row) })}\n`;
        rows++;
        if (chunk.length > 64_000) {
          if (!res.write(chunk)) await drained(res);
          chunk = '';
          if (res.destroyed) {
            iterator.return?.();
            throw new Error('client went away');
          }
        }
      }
      if (chunk) await write(chunk.slice(0, -1));
    }
    await write(JSON.stringify({ type: 'end', rows }));
    res.end();
  } finally {
    if (reader.inTransaction) reader.exec('COMMIT');
    reader.close();
  }
}
