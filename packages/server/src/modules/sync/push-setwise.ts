import { type SyncAcceptedItem, SyncChange } from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { closeRetried } from './retried';
import { deferChanges, flushDeferredChanges } from '../../db/changes';
import type { Db } from '../../db/connection';
import type { SyncMutationsTable } from '../../db/tables/sync';
import { nowIso } from '../../lib/time';
import {
  acceptedItem,
  entityIdOf,
  isTemporary,
  malformedItem,
  markPushed,
  pushedChange,
  type PushOutcome,
  type PushSource,
  type ResultKey,
  replayStored,
  resultKey,
} from './push-change';
import { branchesReadAhead, currentRevision, judgeChange, readReferencesAhead } from './gate';
import { type EntityDefinition, getEntity, type PushedChange } from './registry';
import { tableColumns } from './row-writes';

/** The batch holds a change the set-wise path does not answer alone: apply it again one change at a time. */
class OneByOne extends Error {}

/**
 * A run of insert-once changes (sales and stock movements: registry `applyPushMany`) applied as one piece, for
 * PostgreSQL, where every statement is a round trip that SQLite answers in-process (and on this kind of
 * machine a socket write costs more than the insert it carries):
 * - READ COMMITTED: applying such a change only inserts rows absent by id and adds quantities in place, so the
 *   unique keys of the entity's tables and of the mutation ledger keep it applied once whatever runs beside
 *   it; SERIALIZABLE here made pushes from different tills abort each other, their reads and inserts landing on
 *   the same index pages (ids and revisions grow in time order);
 * - the mutation ledger and the stored branches of the named rows are read once for the run, and each
 *   entity's changes are applied together in a few multi-row statements, parents first;
 * - no savepoint per change: the run is optimistic. The first change that fails (or a mutation id repeated
 *   within the run) abandons the attempt and push.ts applies the run again one change at a time, which
 *   refuses that change alone; a deadlock retries the whole transaction;
 * - the change-log rows and the stored results are written last, in multi-row inserts, so the lock that keeps
 *   revisions in commit order (db/changes.ts) is held for those statements and the commit only, and pushes
 *   from many tills apply side by side.
 * Null when the run must be applied one change at a time.
 */
export async function pushSetWise(
  app: AppContext,
  from: PushSource,
  rawChanges: unknown[],
  appVersion: string | null,
): Promise<PushOutcome | null> {
  try {
    return await app.db
      .transaction()
      .setIsolationLevel('read committed')
      .execute(async (trx) => {
        // Before applyAll's last step, which holds the revision-order lock: that turn stays as short as it can.
        await markPushed(trx, from.device, appVersion);
        return applyAll(trx, from, rawChanges);
      });
  } catch (err) {
    if (err instanceof OneByOne) return null;
    throw err;
  }
}

/** Whether a pushed change (not yet validated) is of an entity applied set-wise (registry `applyPushMany`). */
export const isInsertOnce = (raw: unknown): boolean =>
  getEntity(String((raw as { entity?: unknown } | null)?.entity))?.applyPushMany !== undefined;

/** A change the run applies: its answer is filled once its entity's group is applied and the log flushed. */
interface Pending {
  key: ResultKey;
  c: SyncChange;
  change: PushedChange;
  item: SyncAcceptedItem;
}

async function applyAll(trx: Db, from: PushSource, rawChanges: unknown[]): Promise<PushOutcome> {
  deferChanges(trx);
  const parsed = rawChanges.map((raw) => SyncChange.safeParse(raw));
  const cmids = parsed.flatMap((p) => (p.success ? [p.data.client_mutation_id] : []));
  const stored = await storedResults(trx, from.device.id, cmids);
  const valid = parsed.flatMap((p) => (p.success ? [p.data] : []));
  await readBranchesAhead(trx, valid);
  await readReferencesAhead(
    trx,
    valid.map((c) => pushedChange(c, entityIdOf(c))),
  );
  const out: PushOutcome = { accepted: [], rejected: [] };
  const groups = new Map<EntityDefinition, Pending[]>();
  const inBatch = new Set<string>();
  for (const [i, p] of parsed.entries()) {
    if (!p.success) {
      out.rejected.push(malformedItem(rawChanges[i], p.error.issues[0]));
      continue;
    }
    const c = p.data;
    const key = resultKey(c);
    const before = stored.get(c.client_mutation_id);
    if (before) {
      replayStored(before, c.client_mutation_id, key.hash, out);
      continue;
    }
    const def = getEntity(c.entity);
    if (!def?.applyPushMany || def.push !== 'till-owned' || c.op !== 'upsert' || !key.entityId)
      throw new OneByOne();
    if (inBatch.has(c.client_mutation_id)) throw new OneByOne();
    inBatch.add(c.client_mutation_id);
    const change = pushedChange(c, key.entityId);
    await judgeChange(trx, change, { ...from, via: 'push' }).catch((err: unknown) => {
      throw isTemporary(err) ? err : new OneByOne();
    });
    // Answered in batch order; filled in once applied.
    const item = acceptedItem(c, { id: key.entityId }, 0);
    out.accepted.push(item);
    groups.set(def, [...(groups.get(def) ?? []), { key, c, change, item }]);
  }
  await applyGroups(trx, from, groups);
  await settle(trx, from, [...groups.values()].flat());
  return out;
}

/**
 * Each entity's changes at once, parents first (the registry's order, as a snapshot loads them): insert-once
 * entities of a run reference each other only that way (a movement's batch, a sale's session), never back.
 */
async function applyGroups(trx: Db, from: PushSource, groups: Map<EntityDefinition, Pending[]>) {
  for (const [def, members] of [...groups].sort(([a], [b]) => a.order - b.order)) {
    const results = await def.applyPushMany!(
      trx,
      members.map((m) => m.change),
      from.device,
    ).catch((err: unknown) => {
      throw isTemporary(err) ? err : new OneByOne();
    });
    for (const [i, m] of members.entries()) Object.assign(m.item, acceptedItem(m.c, results[i]!, 0));
  }
}

/** Writes the change log, gives each applied change its revision and stores its result. */
async function settle(trx: Db, from: PushSource, pending: Pending[]): Promise<void> {
  const written = await flushDeferredChanges(trx);
  const revisionOf = new Map(written.map((w) => [w.clientMutationId, w.revision]));
  // A change that recorded no row (already held) answers the head revision before the run's first row.
  const head = written.length > 0 ? written[0]!.revision - 1 : await currentRevision(trx);
  const at = nowIso();
  const rows: SyncMutationsTable[] = pending.map(({ key, item }) => {
    item.revision = revisionOf.get(key.clientMutationId) ?? head;
    return {
      device_id: from.device.id,
      client_mutation_id: key.clientMutationId,
      seq: key.seq,
      entity: key.entity,
      entity_id: key.entityId,
      payload_hash: key.hash,
      status: 'accepted',
      result: JSON.stringify(item),
      revision: item.revision,
      created_at: at,
    };
  });
  for (let i = 0; i < rows.length; i += 1_000)
    await trx
      .insertInto('sync_mutations')
      .values(rows.slice(i, i + 1_000))
      .execute();
  for (const r of rows)
    await closeRetried(trx, from.device.id, {
      clientMutationId: r.client_mutation_id,
      entity: r.entity,
      entityId: r.entity_id,
    });
}

type Stored = Pick<SyncMutationsTable, 'payload_hash' | 'status' | 'result'>;

/** The stored results of the batch's mutation ids this device pushed before, in one query. */
async function storedResults(trx: Db, deviceId: string, cmids: string[]): Promise<Map<string, Stored>> {
  if (cmids.length === 0) return new Map();
  const rows = await trx
    .selectFrom('sync_mutations')
    .select(['client_mutation_id', 'payload_hash', 'status', 'result'])
    .where('device_id', '=', deviceId)
    .where(sql<boolean>`client_mutation_id = ANY(${cmids})`)
    .execute();
  return new Map(rows.map((r) => [r.client_mutation_id, r]));
}

/** One query per branch-scoped table for the stored branches of the rows the run names (branchesReadAhead). */
async function readBranchesAhead(trx: Db, changes: SyncChange[]): Promise<void> {
  const idsByDef = new Map<EntityDefinition, string[]>();
  for (const c of changes) {
    const def = getEntity(c.entity);
    const id = entityIdOf(c);
    if (def?.scope !== 'branch' || !id) continue;
    idsByDef.set(def, [...(idsByDef.get(def) ?? []), id]);
  }
  const byTable = new Map<string, Map<string, string | null>>();
  for (const [def, ids] of idsByDef) {
    if (!(await tableColumns(trx, def.table)).includes(def.branchColumn)) continue;
    const { rows } = await sql<{ k: string; b: string | null }>`SELECT ${sql.ref(def.key)} AS k,
      ${sql.ref(def.branchColumn)} AS b FROM ${sql.table(def.table)} WHERE ${sql.ref(def.key)} = ANY(${ids})`.execute(
      trx,
    );
    byTable.set(def.table, new Map(rows.map((r) => [r.k, r.b])));
  }
  branchesReadAhead.set(trx, byTable);
}
