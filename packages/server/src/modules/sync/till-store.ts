import { openReviewItem } from './review-item';
import fs from 'node:fs';
import path from 'node:path';
import type { SyncChange, SyncPullResponse, SyncPushResponse } from '@pharmacy/contracts';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { ownerOnlyDatabaseFile, requireSqlite } from '../../db/connection';
import { withChangeOrigin } from '../../db/changes';
import { commitPending, ownTransaction } from '../../db/group-commit';
import { prepared } from '../../db/prepared';
import { setTillBranch, tillBranch } from './till-identity';
import { recordTillRejections, settlePulledRejections } from './conflicts';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { deleteMeta, setMeta } from './meta';
import {
  type EntityDefinition,
  getEntity,
  type Payload,
  registeredEntities,
  registeredEntityNames,
  toSqlValue,
} from './registry';

export interface OutboxItem {
  revision: number;
  bytes: number;
  change: SyncChange;
}

const fingerprint = () => registeredEntityNames().sort().join(',');

/**
 * The till's side of replication, over its own database: the outbox is its own change_log rows
 * (from_remote = 0, sync_status NULL) of registered entities, in revision order.
 */
/** Page cache of the snapshot staging database, in KiB (negative: SQLite's unit for a size in KiB). */
const STAGE_COMMIT_ROWS = 5000;
const STAGE_CACHE_KIB = -2000;
const SWAP_CACHE_KIB = -4000;

const markAnswered = prepared(
  (db, p: { status: 'accepted' | 'rejected'; result: string; acked: number | null; revision: number }) =>
    db
      .updateTable('change_log')
      .set({ sync_status: p.status, sync_result: p.result, acked_revision: p.acked })
      .where('revision', '=', p.revision),
);

export class TillStore {
  /** While a snapshot loads: rows staged so far of the total its header announced. */
  progress: { received: number; total: number | null } | null = null;

  constructor(readonly app: AppContext) {}

  private get db() {
    return this.app.db;
  }

  async state(): Promise<{
    cursor: number;
    epoch: string | null;
    bootstrapped: boolean;
    resetRequired: string | null;
  }> {
    const rows = await this.db.selectFrom('sync_meta').selectAll().execute();
    const m = new Map(rows.map((r) => [r.key, r.value]));
    return {
      cursor: Number(m.get('cursor') ?? 0),
      epoch: m.get('central_epoch') ?? null,
      bootstrapped: m.get('bootstrapped') === '1',
      resetRequired:
        m.get('reset_required') ??
        (m.get('bootstrapped') === '1' && m.get('registry') !== fingerprint()
          ? 'the replicated entities changed with this app version'
          : null),
    };
  }

  async needsBootstrap(): Promise<boolean> {
    const s = await this.state();
    return !s.bootstrapped || s.resetRequired !== null;
  }

  async markResetRequired(reason: string): Promise<void> {
    await setMeta(this.db, 'reset_required', reason);
  }

  async outbox(limit: number, maxBytes: number): Promise<OutboxItem[]> {
    // Only durable changes leave the till: a sale still waiting for its group's COMMIT could yet be lost.
    await commitPending(this.db);
    // Before the first bootstrap the till holds only its own seed for central-owned entities: never push it
    // (the swap marks it skipped); till-owned records are pushed.
    await this.skipKeptAtTill();
    const { bootstrapped } = await this.state();
    const entities = registeredEntities()
      .filter((d) => bootstrapped || d.owner === 'till')
      .map((d) => d.entity);
    if (entities.length === 0) return [];
    const rows = await this.db
      .selectFrom('change_log')
      .select(['revision', 'entity', 'entity_id', 'op', 'payload', 'client_mutation_id', 'base_revision'])
      .where('from_remote', '=', sql.lit(0))
      .where('sync_status', 'is', null)
      // Literals and the unary + keep SQLite on the partial outbox index (revision order, stops at the limit)
      // instead of gathering every logged row of those entities and sorting them: 60 ms a batch at 30,000.
      .where(sql<boolean>`+entity IN (${sql.join(entities)})`)
      .orderBy('revision')
      .limit(limit)
      .execute();
    const items: OutboxItem[] = [];
    let total = 0;
    for (const r of rows) {
      const bytes = r.payload.length + 256;
      if (items.length > 0 && total + bytes > maxBytes) break;
      total += bytes;
      items.push({
        revision: r.revision,
        bytes,
        change: {
          client_mutation_id: r.client_mutation_id ?? `rev-${r.revision}`,
          entity: r.entity,
          op: r.op as 'upsert' | 'delete',
          entity_id: r.entity_id,
          payload: JSON.parse(r.payload),
          seq: r.revision,
          base_revision: r.base_revision,
        },
      });
    }
    return items;
  }

  /** The local changes of entities a till never sends (registry keptAtTill): skipped, so cleanup drops them. */
  private async skipKeptAtTill(): Promise<void> {
    const kept = registeredEntities()
      .filter((d) => d.keptAtTill)
      .map((d) => d.entity);
    if (kept.length === 0) return;
    await this.db
      .updateTable('change_log')
      .set({ sync_status: 'skipped' })
      .where('from_remote', '=', sql.lit(0))
      .where('sync_status', 'is', null)
      .where('entity', 'in', kept)
      .execute();
  }

  /** Marks each answered change accepted or rejected (kept, surfaced); unanswered ones stay pending. */
  async recordPushResult(batch: OutboxItem[], res: SyncPushResponse): Promise<number> {
    const byId = new Map<string, number[]>();
    for (const item of batch) {
      const list = byId.get(item.change.client_mutation_id) ?? [];
      list.push(item.revision);
      byId.set(item.change.client_mutation_id, list);
    }
    let answered = 0;
    await this.db.transaction().execute(async (trx) => {
      for (const [status, items] of [
        ['accepted', res.accepted],
        ['rejected', res.rejected],
      ] as const) {
        for (const item of items) {
          const revisions = byId.get(item.client_mutation_id);
          if (!revisions) continue;
          answered += revisions.length;
          const answer = {
            status,
            result: JSON.stringify(item),
            acked: 'revision' in item ? (item.revision ?? null) : null,
          };
          for (const revision of revisions) await markAnswered.run(trx, { ...answer, revision });
        }
      }
      // Every rejection is a review item here too, in the same transaction as the answer.
      if (res.rejected.length > 0) await recordTillRejections(trx, tillBranch(this.app));
    });
    return answered;
  }

  /**
   * Applies one pulled page and moves the cursor in the same transaction (never before the data). A change
   * that cannot apply is recorded as a local conflict and skipped, so the feed is never blocked.
   */
  async applyPullPage(page: SyncPullResponse): Promise<void> {
    const touched = new Set<EntityDefinition>();
    // Foreign keys are checked at COMMIT (a page may carry a child before its parent): its own COMMIT, so a
    // failing check never takes down sales sharing a group commit.
    await ownTransaction(this.db, async (trx) => {
      await sql`PRAGMA defer_foreign_keys = ON`.execute(trx);
      for (const c of page.changes) {
        const def = getEntity(c.entity);
        if (!def) continue;
        touched.add(def);
        await sql`SAVEPOINT sync_pull`.execute(trx);
        try {
          await withChangeOrigin(trx, { fromRemote: true, remoteRevision: c.revision }, () =>
            def.applyPulled(
              trx,
              {
                revision: c.revision,
                entity: c.entity,
                entityId: c.entity_id,
                op: c.op,
                payload: (c.payload ?? {}) as Payload,
                branchId: c.branch_id,
              },
              this.app,
            ),
          );
          await sql`RELEASE sync_pull`.execute(trx);
        } catch (err) {
          await sql`ROLLBACK TO sync_pull`.execute(trx);
          await sql`RELEASE sync_pull`.execute(trx);
          this.app.log.error(
            { err, revision: c.revision, entity: c.entity },
            'sync: pulled change could not apply',
          );
          await trx
            .insertInto('sync_conflicts')
            .values(
              openReviewItem({
                id: newId(),
                device_id: null,
                branch_id: c.branch_id,
                entity: c.entity,
                entity_id: c.entity_id,
                client_mutation_id: null,
                kind: 'rejected',
                code: err instanceof AppError ? err.code : 'PULL_APPLY_FAILED',
                message: err instanceof Error ? err.message : String(err),
                till_payload: null,
                central_payload: JSON.stringify(c.payload),
                base_revision: null,
                central_revision: c.revision,
              }),
            )
            .execute();
        }
      }
      if (page.changes.length > 0) await settlePulledRejections(trx, page.changes);
      await setMeta(trx, 'cursor', page.next_revision);
      await setMeta(trx, 'central_epoch', page.epoch);
    });
    for (const def of touched) def.afterApply?.(this.app);
  }

  /**
   * Loads a snapshot stream into a separate staging database file (flat memory, the live tables untouched
   * while downloading), then swaps every replicated table in ONE transaction and sets the cursor to the
   * snapshot revision. A stream without its end line is refused (truncated download).
   */
  async loadSnapshot(lines: AsyncIterable<string>): Promise<{ revision: number; rows: number }> {
    const sqlite = requireSqlite(this.app, 'Loading a snapshot');
    const stageFile = path.join(path.dirname(sqlite.name), 'sync-stage.db');
    for (const suffix of ['', '-journal', '-wal', '-shm']) fs.rmSync(stageFile + suffix, { force: true });
    ownerOnlyDatabaseFile(stageFile);
    const stage = new BetterSqlite3(stageFile);
    stage.pragma('journal_mode = OFF');
    stage.pragma('synchronous = OFF');
    // Staging is written once and read once, in order: a small page cache keeps the till's memory down while
    // hundreds of thousands of rows go through (better-sqlite3's default is 16 MB per connection and schema).
    stage.pragma(`cache_size = ${STAGE_CACHE_KIB}`);
    const defs = registeredEntities();
    const columns = new Map<string, string[]>();
    const inserts = new Map<string, BetterSqlite3.Statement>();
    let header: { revision: number; epoch: string; branchId: string | null } | null = null;
    let ended = false;
    let rows = 0;
    try {
      for (const def of defs) {
        const cols = (
          sqlite.prepare(`SELECT name FROM pragma_table_info(?)`).all(def.table) as {
            name: string;
          }[]
        ).map((c) => c.name);
        columns.set(def.entity, cols);
        stage.exec(`CREATE TABLE "${def.table}" (${cols.map((c) => `"${c}"`).join(', ')})`);
        inserts.set(
          def.entity,
          stage.prepare(
            `INSERT INTO "${def.table}" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
          ),
        );
      }
      // Rows go straight into an open staging transaction, committed every STAGE_COMMIT_ROWS: buffering them
      // in batches let each batch survive a young-generation collection, and the promoted garbage grew the
      // heap by tens of MB over a large snapshot.
      let uncommitted = 0;
      stage.exec('BEGIN');
      for await (const line of lines) {
        if (!line) continue;
        const msg = JSON.parse(line) as { type: string; [k: string]: unknown };
        if (msg.type === 'header') {
          this.progress = { received: 0, total: typeof msg.total_rows === 'number' ? msg.total_rows : null };
          header = {
            revision: Number(msg.revision),
            epoch: String(msg.epoch),
            // The device's branch (absent from older snapshots: then no branch is recorded, nobody refused).
            branchId: typeof msg.branch_id === 'string' && msg.branch_id ? msg.branch_id : null,
          };
        } else if (msg.type === 'row') {
          const def = getEntity(String(msg.entity));
          const cols = def && columns.get(def.entity);
          if (!def || !cols) continue;
          const row = def.toRow(msg.payload as Payload);
          inserts.get(def.entity)!.run(cols.map((c) => toSqlValue(row[c])));
          rows++;
          if (this.progress) this.progress.received = rows;
          if (++uncommitted >= STAGE_COMMIT_ROWS) {
            stage.exec('COMMIT');
            stage.exec('BEGIN');
            uncommitted = 0;
          }
        } else if (msg.type === 'end') {
          if (Number(msg.rows) !== rows)
            throw new Error(`snapshot announced ${String(msg.rows)} rows but carried ${rows}`);
          ended = true;
        }
      }
      stage.exec('COMMIT');
      if (!header) throw new Error('snapshot stream has no header line');
      if (!ended) throw new Error('snapshot stream was truncated (no end line)');
    } catch (err) {
      this.progress = null;
      throw err;
    } finally {
      stage.close();
    }
    const snap = header;
    // The swap: one transaction on the main connection, live tables replaced wholesale.
    await this.db.connection().execute(async (conn) => {
      // The swap streams every row through the main connection's page cache once: a small one for its
      // duration keeps the till's peak memory down (16 MB more otherwise), restored afterwards. Its statement
      // journals, as large as the tables it rewrites, go to a temporary file rather than memory.
      const { rows: cache } = await sql<{ cache_size: number }>`PRAGMA main.cache_size`.execute(conn);
      const { rows: temp } = await sql<{ temp_store: number }>`PRAGMA temp_store`.execute(conn);
      await sql`ATTACH DATABASE ${stageFile} AS sync_stage`.execute(conn);
      // Whatever fails from here on, the stage is detached: left attached, every later attempt failed at its
      // ATTACH ("already in use") and the till never bootstrapped until restarted.
      try {
        await sql.raw(`PRAGMA sync_stage.cache_size = ${STAGE_CACHE_KIB}`).execute(conn);
        await sql.raw(`PRAGMA main.cache_size = ${SWAP_CACHE_KIB}`).execute(conn);
        await sql`PRAGMA temp_store = FILE`.execute(conn);
        await conn.transaction().execute(async (trx) => {
          await sql`PRAGMA defer_foreign_keys = ON`.execute(trx);
          // Append-only ledgers (stock_movements) refuse DELETE by trigger: lift those triggers for the swap
          // only, inside the same transaction, and put them back before it commits.
          const guards = await sql<{ name: string; sql: string }>`SELECT name, sql FROM main.sqlite_master
            WHERE type = 'trigger' AND tbl_name IN (SELECT value FROM json_each(${JSON.stringify(defs.map((d) => d.table))}))
              AND sql LIKE '%BEFORE DELETE%' AND sql LIKE '%RAISE(ABORT%'`.execute(trx);
          for (const g of guards.rows) await sql`DROP TRIGGER main.${sql.ref(g.name)}`.execute(trx);
          for (const def of [...defs].reverse())
            await sql`DELETE FROM main.${sql.table(def.table)}`.execute(trx);
          for (const g of guards.rows) await sql.raw(g.sql).execute(trx);
          for (const def of defs) {
            const cols = sql.join(columns.get(def.entity)!.map((c) => sql.ref(c)));
            await sql`INSERT INTO main.${sql.table(def.table)} (${cols}) SELECT ${cols} FROM sync_stage.${sql.table(def.table)}`.execute(
              trx,
            );
          }
          // Rows this till logged before it had central's data (its seed) are not pushed; pulled history goes.
          await trx
            .updateTable('change_log')
            .set({ sync_status: 'skipped' })
            .where('from_remote', '=', sql.lit(0))
            .where('sync_status', 'is', null)
            .where(
              'entity',
              'in',
              defs.filter((d) => d.owner === 'central').map((d) => d.entity),
            )
            .execute();
          await trx.deleteFrom('change_log').where('from_remote', '=', sql.lit(1)).execute();
          await setMeta(trx, 'cursor', snap.revision);
          await setMeta(trx, 'central_epoch', snap.epoch);
          await setMeta(trx, 'bootstrapped', '1');
          await setMeta(trx, 'bootstrapped_at', nowIso());
          await setMeta(trx, 'registry', fingerprint());
          // The till's own branch: sign-in and every request refuse a branch-bound user of another branch.
          if (snap.branchId) await setMeta(trx, 'branch_id', snap.branchId);
          else await deleteMeta(trx, 'branch_id');
          await deleteMeta(trx, 'reset_required');
        });
      } finally {
        await sql`DETACH DATABASE sync_stage`.execute(conn);
        await sql.raw(`PRAGMA main.cache_size = ${Number(cache[0]?.cache_size ?? -2000)}`).execute(conn);
        await sql.raw(`PRAGMA temp_store = ${Number(temp[0]?.temp_store ?? 0)}`).execute(conn);
      }
    });
    for (const suffix of ['', '-journal']) fs.rmSync(stageFile + suffix, { force: true });
    setTillBranch(this.app, snap.branchId);
    for (const def of defs) def.afterApply?.(this.app);
    this.progress = null;
    return { revision: snap.revision, rows };
  }

  /** Acknowledged rows go once a pull has passed the central revision covering them; pulled rows once applied. */
  async cleanup(): Promise<void> {
    const { cursor } = await this.state();
    await this.db.transaction().execute(async (trx) => {
      await trx
        .deleteFrom('change_log')
        .where('from_remote', '=', sql.lit(0))
        .where('sync_status', '=', 'accepted')
        .where('acked_revision', '<=', cursor)
        .execute();
      await trx
        .deleteFrom('change_log')
        .where('from_remote', '=', sql.lit(0))
        .where('sync_status', '=', 'skipped')
        .execute();
      await trx
        .deleteFrom('change_log')
        .where('from_remote', '=', sql.lit(1))
        .where('remote_revision', '<=', cursor)
        .execute();
    });
  }

  async counts(): Promise<{
    pending: number;
    rejected: number;
    openConflicts: number;
    acknowledged: number;
  }> {
    const rows = await this.db
      .selectFrom('change_log')
      .select(['sync_status', (eb) => eb.fn.countAll<number>().as('n')])
      .where('from_remote', '=', sql.lit(0))
      .where('entity', 'in', registeredEntityNames())
      .groupBy('sync_status')
      .execute();
    const n = (s: string | null) => Number(rows.find((r) => r.sync_status === s)?.n ?? 0);
    // Rejections recorded before review items existed become items now.
    if (n('rejected') > 0) await recordTillRejections(this.db, tillBranch(this.app));
    const local = await this.db
      .selectFrom('sync_conflicts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('status', '=', 'open')
      .executeTakeFirstOrThrow();
    return {
      pending: n(null),
      rejected: n('rejected'),
      acknowledged: n('accepted'),
      openConflicts: Number(local.n),
    };
  }
}
