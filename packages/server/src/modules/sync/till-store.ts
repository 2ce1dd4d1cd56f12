import type { SyncChange, SyncPullResponse, SyncPushResponse } from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { withChangeOrigin } from '../../db/changes';
import { commitPending, ownTransaction } from '../../db/group-commit';
import { prepared } from '../../db/prepared';
import { AppError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { recordTillRejections, settlePulledRejections } from './conflicts';
import { setMeta } from './meta';
import {
  type EntityDefinition,
  getEntity,
  type Payload,
  registeredEntities,
  registeredEntityNames,
} from './registry';
import { openReviewItem } from './review-item';
import { loadSnapshot, registryFingerprint, type SnapshotProgress } from './snapshot-load';
import { tillBranch } from './till-identity';

export interface OutboxItem {
  revision: number;
  bytes: number;
  change: SyncChange;
}

const markAnswered = prepared(
  (db, p: { status: 'accepted' | 'rejected'; result: string; acked: number | null; revision: number }) =>
    db
      .updateTable('change_log')
      .set({ sync_status: p.status, sync_result: p.result, acked_revision: p.acked })
      .where('revision', '=', p.revision),
);

/**
 * The till's side of replication, over its own database: the outbox is its own change_log rows
 * (from_remote = 0, sync_status NULL) of registered entities, in revision order.
 */
export class TillStore {
  /** While a snapshot loads: rows staged so far of the total its header announced. */
  progress: SnapshotProgress | null = null;

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
        (m.get('bootstrapped') === '1' && m.get('registry') !== registryFingerprint()
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
   * Loads a snapshot stream and swaps every replicated table for its rows in one transaction (snapshot-load.ts);
   * `progress` follows the rows staged meanwhile.
   */
  loadSnapshot(lines: AsyncIterable<string>): Promise<{ revision: number; rows: number }> {
    return loadSnapshot(this.app, lines, this);
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
