import { openReviewItem } from './review-item';
import {
  type SyncAcceptedItem,
  SyncChange,
  type SyncPushResponse,
  type SyncRejectedItem,
} from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { inChangeLogTurn } from '../../db/changes';
import type { Db } from '../../db/connection';
import type { SyncDevicesTable } from '../../db/tables/sync';
import type { AuthUser } from '../../http/auth';
import { newId } from '../../lib/ids';
import { currentRevision, Rejection } from './gate';
import {
  acceptedItem,
  applyAsDevice,
  isTemporary,
  malformedItem,
  markPushed,
  permanentError,
  type PushOutcome,
  type PushSource,
  type ResultKey,
  replayStored,
  resultKey,
  storedResult,
  storeResult,
} from './push-change';
import { getEntity } from './registry';
import { syncStore } from './store';
import { brokenRule } from './describe';

export { canonicalJson, isTemporary } from './push-change';

/** A test-only fault hook: SYNC_FAULT_AFTER_COMMIT=kill dies after committing a push, before answering. */
function faultAfterCommit(): void {
  if (process.env.SYNC_FAULT_AFTER_COMMIT === 'kill') process.kill(process.pid, 'SIGKILL');
}

/** Applies one change inside the open `sync_change` savepoint, stores the accepted result and releases it. */
async function applyAccepted(
  trx: Db,
  app: AppContext,
  from: PushSource,
  c: SyncChange,
  key: ResultKey & { entityId: string },
): Promise<SyncAcceptedItem> {
  const result = await applyAsDevice(trx, app, from, c, key.entityId);
  const revision = await currentRevision(trx);
  const item = acceptedItem(c, result, revision);
  await storeResult(trx, from.device, key, 'accepted', item, revision);
  // Released only now: a failure storing the result rolls the change back with it (pushOne's ROLLBACK TO).
  await sql`RELEASE sync_change`.execute(trx);
  return item;
}

/** A permanently refused change: a sync_conflicts row (an edit conflict or a rejection) and its stored result. */
async function rejectChange(
  trx: Db,
  device: SyncDevicesTable,
  c: SyncChange,
  key: ResultKey,
  err: unknown,
): Promise<SyncRejectedItem> {
  const refused = err instanceof Rejection ? { code: err.code, message: err.detail } : permanentError(err);
  const { code } = refused;
  const message =
    (code === 'CONSTRAINT' && (await brokenRule(trx, c.entity, c.payload, 'head office'))) || refused.message;
  const conflictId = newId();
  await trx
    .insertInto('sync_conflicts')
    .values(
      openReviewItem({
        id: conflictId,
        device_id: device.id,
        branch_id: device.branch_id,
        entity: c.entity,
        entity_id: key.entityId,
        client_mutation_id: c.client_mutation_id,
        kind: err instanceof Rejection && err.conflict ? 'edit_conflict' : 'rejected',
        code,
        message,
        till_payload: JSON.stringify(c.payload),
        central_payload:
          err instanceof Rejection && err.conflict ? JSON.stringify(err.conflict.centralPayload) : null,
        base_revision: c.base_revision ?? null,
        central_revision: err instanceof Rejection && err.conflict ? err.conflict.centralRevision : null,
      }),
    )
    .execute();
  const item: SyncRejectedItem = {
    client_mutation_id: c.client_mutation_id,
    code,
    message,
    conflict_id: conflictId,
  };
  await storeResult(trx, device, key, 'rejected', item, null);
  return item;
}

/**
 * One change of the batch: parsed, answered from its stored result when it was pushed before, else applied in
 * its own SAVEPOINT (rolled back alone when it fails). False when a temporary failure stops the batch.
 */
async function pushOne(
  trx: Db,
  app: AppContext,
  from: PushSource,
  raw: unknown,
  out: PushOutcome,
): Promise<boolean> {
  const parsed = SyncChange.safeParse(raw);
  if (!parsed.success) {
    out.rejected.push(malformedItem(raw, parsed.error.issues[0]));
    return true;
  }
  const c = parsed.data;
  const key = resultKey(c);
  const { entityId, hash } = key;

  const stored = await storedResult.first(trx, {
    deviceId: from.device.id,
    clientMutationId: c.client_mutation_id,
  });
  if (stored) {
    replayStored(stored, c.client_mutation_id, hash, out);
    return true;
  }

  await sql`SAVEPOINT sync_change`.execute(trx);
  try {
    if (!entityId)
      throw new Rejection('VALIDATION', 'The change carries no entity_id and its payload no key.');
    out.accepted.push(await applyAccepted(trx, app, from, c, { ...key, entityId }));
  } catch (err) {
    await sql`ROLLBACK TO sync_change`.execute(trx);
    await sql`RELEASE sync_change`.execute(trx);
    if (isTemporary(err)) {
      out.retryFrom = c.client_mutation_id;
      return false;
    }
    out.rejected.push(await rejectChange(trx, from.device, c, key, err));
  }
  return true;
}

/**
 * Applies a till's batch as the database's sync store does (store.ts: SQLite in one transaction, PostgreSQL in
 * runs committed on their own), one SAVEPOINT per change when one by one; every result (accepted or rejected)
 * is stored under (device, client_mutation_id) with its change, so a replay answers the stored result.
 * A permanent failure becomes a rejected item and a sync_conflicts row; a temporary one stops the batch and
 * answers retry_from. Nothing is ordered by the device's clock: order is the batch order (the device's seq).
 */
export async function pushChanges(
  app: AppContext,
  device: SyncDevicesTable,
  user: AuthUser | null,
  rawChanges: unknown[],
  appVersion: string | null,
): Promise<SyncPushResponse> {
  const from = { device, user, batch: rawChanges };
  const out = await syncStore(app.db).applyBatch(app, from, rawChanges, appVersion, (changes) =>
    pushOneByOne(app, from, changes, appVersion),
  );
  faultAfterCommit();
  const { accepted, rejected, retryFrom } = out;
  if (accepted.length + rejected.length > 0)
    notifyAfterApply(app, [...new Set(rawChanges.map((c) => (c as { entity?: string })?.entity))]);
  return { accepted, rejected, ...(retryFrom !== undefined && { retry_from: retryFrom }) };
}

/** Each change in a savepoint of its own: a failure rolls back that change alone. */
async function pushOneByOne(
  app: AppContext,
  from: PushSource,
  rawChanges: unknown[],
  appVersion: string | null,
): Promise<PushOutcome> {
  const out: PushOutcome = { accepted: [], rejected: [] };
  // Its own COMMIT rather than a shared one: a batch is already hundreds of changes to one fsync, and nested
  // under a group's savepoint each change's SAVEPOINT kept every page image of the batch in the statement
  // journal, which every RELEASE then walked (100 µs per change).
  // On PostgreSQL these SERIALIZABLE pushes take their turn on the change log before they begin: side by side,
  // their reads and inserts met on the same index pages and PostgreSQL aborted them in turn.
  await inChangeLogTurn(app.db, async (trx) => {
    // A PostgreSQL transaction is run again after a serialization failure: start each attempt afresh.
    out.accepted = [];
    out.rejected = [];
    delete out.retryFrom;
    for (const raw of rawChanges) {
      if (!(await pushOne(trx, app, from, raw, out))) break;
    }
    await markPushed(trx, from.device, appVersion);
  });
  return out;
}

function notifyAfterApply(app: AppContext, entities: Array<string | undefined>): void {
  for (const e of entities) if (e) getEntity(e)?.afterApply?.(app);
}
