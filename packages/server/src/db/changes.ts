import { AsyncLocalStorage } from 'node:async_hooks';
import { type Kysely, sql, type Transaction } from 'kysely';
import { afterCommit } from './after-commit';
import type { Db } from './connection';
import { isPostgres } from './dialect';
import { newId } from '../lib/ids';
import { nowIso } from '../lib/time';
import { ownTransaction } from './group-commit';
import { serializableInTurn } from './postgres';
import { prepared, preparedInsert } from './prepared';
import { holdRevisionMarker } from './revision-order';
import type { Database } from './schema';

export interface Change {
  entity: string;
  entityId: string;
  op: 'upsert' | 'delete';
  payload: object;
  /** The branch a change is scoped to for pull; null for organisation-wide data. */
  branchId: string | null;
  clientMutationId?: string | null;
  originDeviceId?: string | null;
}

/**
 * Where the writes of a transaction come from when it is not a local user action: a change pushed by a till
 * (central sets originDeviceId + clientMutationId so the pull never echoes it back to that till) or a change
 * pulled from central (a till sets fromRemote so it is never pushed back). Set by the sync module around the
 * entity's own write function, so modules keep calling recordChange(trx, change) unchanged.
 */
export interface ChangeOrigin {
  originDeviceId?: string | null;
  clientMutationId?: string | null;
  fromRemote?: boolean;
  remoteRevision?: number | null;
}

const origins = new WeakMap<object, ChangeOrigin>();

/** Runs fn with every recordChange on `trx` stamped with `origin`. */
export async function withChangeOrigin<T>(trx: Db, origin: ChangeOrigin, fn: () => Promise<T>): Promise<T> {
  const previous = origins.get(trx);
  origins.set(trx, origin);
  try {
    return await fn();
  } finally {
    if (previous) origins.set(trx, previous);
    else origins.delete(trx);
  }
}

type LocalChangeListener = () => void;
const listeners = new Set<LocalChangeListener>();

/**
 * Called once a transaction that recorded a local change has committed (db/after-commit.ts), so the till
 * replicator can push soon: its read of the outbox sees the change.
 */
export function onLocalChange(listener: LocalChangeListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Appends to the replication log in the caller's transaction; every write to a replicated table goes through
 * this, so a till's outbox and central's pull feed can never miss or invent a write.
 *
 * Each row gets a client mutation id (the idempotency key central stores its result under) and, on a till,
 * the pull cursor it was written against (base_revision: how central detects an edit of a row it has
 * changed since). Revisions are SQLite's AUTOINCREMENT (PostgreSQL's identity, in order: takeChangeLogTurn):
 * never a device clock.
 */
const cursorQuery = prepared((db) => db.selectFrom('sync_meta').select('value').where('key', '=', 'cursor'));

type ChangeRow = {
  entity: string;
  entity_id: string;
  op: string;
  payload: string;
  branch_id: string | null;
  origin_device_id: string | null;
  client_mutation_id: string;
  from_remote: 0 | 1;
  remote_revision: number | null;
  base_revision: number | null;
  created_at: string;
};
const insertChange = prepared((db, row: ChangeRow) =>
  db.insertInto('change_log').values({
    entity: row.entity,
    entity_id: row.entity_id,
    op: row.op,
    payload: row.payload,
    branch_id: row.branch_id,
    origin_device_id: row.origin_device_id,
    client_mutation_id: row.client_mutation_id,
    from_remote: row.from_remote,
    remote_revision: row.remote_revision,
    base_revision: row.base_revision,
    created_at: row.created_at,
  }),
);

/**
 * A transaction reads the pull cursor once (a sale records six changes) and setMeta forgets it when it moves
 * the cursor; outside a transaction it is read every time.
 */
const cursors = new WeakMap<Db, number | null>();

export function forgetPullCursor(trx: Db): void {
  cursors.delete(trx);
}

async function pullCursor(trx: Db): Promise<number | null> {
  const known = cursors.get(trx);
  if (known !== undefined) return known;
  const cursor = await cursorQuery.first(trx, {});
  const revision = cursor ? Number(cursor.value) : null;
  if (trx.isTransaction) cursors.set(trx, revision);
  return revision;
}

/** The lock PostgreSQL writers of the change log take turns on (see takeChangeLogTurn). */
const CHANGE_LOG_LOCK = 7_301_002;
const ordered = new WeakSet<Db>();
const marked = new WeakSet<Db>();

/** PostgreSQL: the transaction's revision marker (db/revision-order.ts), once, before its first revision. */
async function markRevisions(trx: Db): Promise<void> {
  if (marked.has(trx)) return;
  await holdRevisionMarker(trx);
  marked.add(trx);
}

/**
 * A PostgreSQL writer of single changes (central's own services, a pushed change applied one at a time) takes a
 * transaction-scoped advisory lock before its first change, so such writers, which may read what the others
 * wrote, run one after another from there to their commit, as on SQLite's single writer. Revision order does
 * not rest on it: every change-log writer also holds a revision marker.
 */
async function takeChangeLogTurn(trx: Db): Promise<void> {
  if (!isPostgres(trx)) return;
  if (!ordered.has(trx)) {
    await sql`SELECT pg_advisory_xact_lock(${CHANGE_LOG_LOCK})`.execute(trx);
    ordered.add(trx);
  }
  await markRevisions(trx);
}

/**
 * A transaction that holds the change-log turn from before it begins (PostgreSQL), so change-log writers that
 * also read what other writers wrote run strictly one after another; on SQLite, its own transaction.
 */
export function inChangeLogTurn<T>(
  db: Kysely<Database>,
  fn: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  if (!isPostgres(db)) return ownTransaction(db, fn);
  return serializableInTurn(db, CHANGE_LOG_LOCK, (trx) => {
    ordered.add(trx);
    return fn(trx);
  });
}

/** Change-log rows a transaction holds back until flushDeferredChanges (see deferChanges). */
const deferred = new WeakMap<Db, ChangeRow[]>();

/**
 * From now on `trx`'s changes are kept in memory and written by flushDeferredChanges, which the caller runs
 * last, just before COMMIT: a PostgreSQL push of hundreds of changes writes its change log in one multi-row
 * insert, and takes no turn: it holds only a revision marker (db/revision-order.ts) from that insert to its
 * commit, so pushes from many tills apply and commit side by side.
 */
export function deferChanges(trx: Db): void {
  deferred.set(trx, []);
}

const FLUSH_CHUNK = 1_000;

/** Writes the held-back rows in order; each one's revision and mutation id. */
export async function flushDeferredChanges(
  trx: Db,
): Promise<Array<{ revision: number; clientMutationId: string }>> {
  const rows = deferred.get(trx) ?? [];
  deferred.delete(trx);
  if (rows.length === 0) return [];
  if (isPostgres(trx)) await markRevisions(trx);
  const written: Array<{ revision: number; clientMutationId: string }> = [];
  for (let i = 0; i < rows.length; i += FLUSH_CHUNK) {
    const chunk = rows.slice(i, i + FLUSH_CHUNK);
    const revisions = await trx.insertInto('change_log').values(chunk).returning('revision').execute();
    // One statement takes its identity values in VALUES order (others' values may fall between them).
    const ascending = revisions.map((r) => r.revision).sort((a, b) => a - b);
    for (const [j, row] of chunk.entries())
      written.push({ revision: ascending[j]!, clientMutationId: row.client_mutation_id });
  }
  return written;
}

/**
 * A check every local change of the current scope passes before it is recorded: throws to refuse it, which
 * rolls the caller's transaction back. A connected till's REST writes run under one refusing the entities head
 * office writes (modules/sync/central-writes.ts), so no route or side effect makes one locally.
 */
export const localChangeCheck = new AsyncLocalStorage<(entity: string) => void>();

/** A row replicated as it now stands: an upsert change under the row's id, the row itself the payload. */
export function recordUpsert(
  trx: Db,
  entity: string,
  row: { id: string },
  branchId: string | null,
): Promise<void> {
  return recordChange(trx, { entity, entityId: row.id, op: 'upsert', payload: row, branchId });
}

export async function recordChange(trx: Db, change: Change): Promise<void> {
  await recordChanges(trx, [change]);
}

const insertChanges = preparedInsert('change_log');

/**
 * recordChange for several changes at once, in order (their revisions ascend in that order): a sale's stock
 * movements go in a few multi-row inserts rather than one statement each.
 */
export async function recordChanges(trx: Db, changes: readonly Change[]): Promise<void> {
  if (changes.length === 0) return;
  // Outside a transaction the lock would end with its own statement: give the changes one of their own.
  if (!trx.isTransaction && isPostgres(trx))
    return trx.transaction().execute((own) => recordChanges(own, changes));
  const held = deferred.get(trx);
  if (!held) await takeChangeLogTurn(trx);
  const origin = origins.get(trx);
  const fromRemote = origin?.fromRemote === true;
  if (!fromRemote) for (const change of changes) localChangeCheck.getStore()?.(change.entity);
  // Only a till's own writes carry the cursor they were made against; changes applied from a push (central)
  // or a pull (till) do not, and skipping the lookup saves a statement per replicated change.
  const baseRevision = !fromRemote && !origin?.originDeviceId ? await pullCursor(trx) : null;
  const createdAt = nowIso();
  const rows = changes.map(
    (change): ChangeRow => ({
      entity: change.entity,
      entity_id: change.entityId,
      op: change.op,
      payload: JSON.stringify(change.payload),
      branch_id: change.branchId,
      origin_device_id: change.originDeviceId ?? origin?.originDeviceId ?? null,
      client_mutation_id: change.clientMutationId ?? origin?.clientMutationId ?? newId(),
      from_remote: fromRemote ? 1 : 0,
      remote_revision: fromRemote ? (origin?.remoteRevision ?? null) : null,
      base_revision: baseRevision,
      created_at: createdAt,
    }),
  );
  if (held) held.push(...rows);
  else if (rows.length === 1) await insertChange.run(trx, rows[0]!);
  else await insertChanges.run(trx, rows);
  if (!fromRemote && listeners.size > 0)
    afterCommit(trx, () => {
      for (const l of listeners) l();
    });
}
