import { SyncChange } from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { deferChanges, deferredCount, flushDeferredChanges } from '../../db/changes';
import type { Db } from '../../db/connection';
import type { SyncMutationsTable } from '../../db/tables/sync';
import { nowIso } from '../../lib/time';
import {
  acceptedItem,
  applyAsDevice,
  branchesReadAhead,
  entityIdOf,
  currentRevision,
  isTemporary,
  malformedItem,
  markPushed,
  type PushOutcome,
  type PushSource,
  type ResultKey,
  replayStored,
  resultKey,
} from './push-change';
import { type EntityDefinition, getEntity, tableColumns } from './registry';

/** The batch holds a change the set-wise path does not answer alone: apply it again one change at a time. */
class OneByOne extends Error {}

/**
 * A run of insert-once changes (sales, stock movements: registry.ts `insertOnce`) applied as one piece, for
 * PostgreSQL, where every statement is a round trip that SQLite answers in-process:
 * - READ COMMITTED: applying such a change only inserts rows absent by id and adds quantities in place, so the
 *   unique keys of the entity's tables and of the mutation ledger keep it applied once whatever runs beside
 *   it; SERIALIZABLE here made pushes from different tills abort each other, their reads and inserts landing on
 *   the same index pages (ids and revisions grow in time order);
 * - the mutation ledger is read once for the run;
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
        const out = await applyAll(trx, app, from, rawChanges);
        await markPushed(trx, from.device, appVersion);
        return out;
      });
  } catch (err) {
    if (err instanceof OneByOne) return null;
    throw err;
  }
}

/** Whether a pushed change (not yet validated) is of an insert-once entity. */
export const isInsertOnce = (raw: unknown): boolean =>
  getEntity(String((raw as { entity?: unknown } | null)?.entity))?.insertOnce === true;

/** An applied change whose revision and stored result wait for the change log's flush. */
interface Pending {
  key: ResultKey;
  item: ReturnType<typeof acceptedItem>;
  /** How many change-log rows the batch had recorded once this change was applied. */
  rows: number;
}

async function applyAll(
  trx: Db,
  app: AppContext,
  from: PushSource,
  rawChanges: unknown[],
): Promise<PushOutcome> {
  deferChanges(trx);
  const parsed = rawChanges.map((raw) => SyncChange.safeParse(raw));
  const cmids = parsed.flatMap((p) => (p.success ? [p.data.client_mutation_id] : []));
  const stored = await storedResults(trx, from.device.id, cmids);
  await readBranchesAhead(
    trx,
    parsed.flatMap((p) => (p.success ? [p.data] : [])),
  );
  const out: PushOutcome = { accepted: [], rejected: [] };
  const pending: Pending[] = [];
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
    if (!key.entityId || inBatch.has(c.client_mutation_id)) throw new OneByOne();
    inBatch.add(c.client_mutation_id);
    const result = await applyAsDevice(trx, app, from, c, key.entityId).catch((err: unknown) => {
      throw isTemporary(err) ? err : new OneByOne();
    });
    const item = acceptedItem(c, result, 0);
    out.accepted.push(item);
    pending.push({ key, item, rows: deferredCount(trx) });
  }
  await settle(trx, from, pending);
  return out;
}

/** Writes the change log, gives each applied change its revision and stores its result. */
async function settle(trx: Db, from: PushSource, pending: Pending[]): Promise<void> {
  const revisions = await flushDeferredChanges(trx);
  // A change that recorded no row (or none yet) answers the head revision before the batch's first row.
  const head = revisions.length > 0 ? revisions[0]! - 1 : await currentRevision(trx);
  const at = nowIso();
  const rows: SyncMutationsTable[] = pending.map(({ key, item, rows }) => {
    item.revision = rows > 0 ? revisions[rows - 1]! : head;
    return {
      device_id: from.device.id,
      client_mutation_id: key.cmid,
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
