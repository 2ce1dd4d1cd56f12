import { createHash } from 'node:crypto';
import type { SyncAcceptedItem, SyncChange, SyncRejectedItem } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import { closeRetried } from './retried';
import { withChangeOrigin } from '../../db/changes';
import type { Db } from '../../db/connection';
import { isRetryableConflict } from '../../db/postgres';
import { prepared } from '../../db/prepared';
import type { SyncDevicesTable, SyncMutationsTable } from '../../db/tables/sync';
import type { AuthUser } from '../../http/auth';
import { AppError } from '../../lib/errors';
import { canonicalJson } from '../../lib/canonical-json';
import { nowIso } from '../../lib/time';
import { judgeChange, Rejection } from './gate';
import { getEntity, type PushedChange, type Pusher } from './registry';

/**
 * What applying one pushed change takes, whichever way the batch is applied (push.ts: a savepoint per change;
 * push-setwise.ts: the whole batch at once on PostgreSQL): hashing, the device's branch check, the entity's
 * apply, and the stored result a replay answers with.
 */

/** Canonical JSON (sorted keys) so the same change always hashes the same, whatever the key order. */
export { canonicalJson };

export const payloadHash = (c: { entity: string; op: string; entity_id?: string; payload: unknown }) =>
  createHash('sha256')
    .update(canonicalJson({ entity: c.entity, op: c.op, entity_id: c.entity_id ?? null, payload: c.payload }))
    .digest('hex');

/**
 * A failure worth retrying (the database is busy, locked or out of space; on PostgreSQL a serialization
 * failure or deadlock): stop the batch, keep order.
 */
export function isTemporary(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code;
  return (
    (typeof code === 'string' &&
      /^SQLITE_(BUSY|LOCKED|IOERR|FULL|NOMEM|INTERRUPT|PROTOCOL|CANTOPEN)/.test(code)) ||
    isRetryableConflict(err)
  );
}

export function permanentError(err: unknown): { code: string; message: string } {
  if (err instanceof AppError) return { code: err.code, message: err.detail };
  const code = (err as { code?: unknown })?.code;
  const message = err instanceof Error ? err.message : String(err);
  // SQLite's constraint codes, and PostgreSQL's SQLSTATE class 23 (integrity constraint violation).
  if (typeof code === 'string' && (code.startsWith('SQLITE_CONSTRAINT') || /^23[0-9A-Z]{3}$/.test(code)))
    return { code: 'CONSTRAINT', message: `The change breaks a database rule: ${message}` };
  return { code: 'APPLY_FAILED', message: `The change could not be applied: ${message}` };
}

export const storedResult = prepared((db, p: { deviceId: string; clientMutationId: string }) =>
  db
    .selectFrom('sync_mutations')
    .select(['payload_hash', 'status', 'result'])
    .where('device_id', '=', p.deviceId)
    .where('client_mutation_id', '=', p.clientMutationId),
);

export const insertResult = prepared((db, row: SyncMutationsTable) =>
  db.insertInto('sync_mutations').values({
    device_id: row.device_id,
    client_mutation_id: row.client_mutation_id,
    seq: row.seq,
    entity: row.entity,
    entity_id: row.entity_id,
    payload_hash: row.payload_hash,
    status: row.status,
    result: row.result,
    revision: row.revision,
    created_at: row.created_at,
  }),
);

/**
 * Applies one pushed change once the gate (gate.ts) lets its pusher make it; a till's edit of a central-owned
 * row that central changed since the till last saw it is refused as an edit conflict for a manager.
 */
export async function applyOne(
  trx: Db,
  app: AppContext,
  change: PushedChange,
  pusher: Pusher,
): Promise<{ id: string; invoice_number?: string; icv?: number }> {
  const { device } = pusher;
  const def = await judgeChange(trx, change, pusher);
  if (def.owner === 'central') {
    // A till edit of a central-owned row: refused as a conflict when central changed the row after the
    // revision the till had seen (by anyone but this device).
    const latest = await trx
      .selectFrom('change_log')
      .select(['revision', 'payload', 'origin_device_id'])
      .where('entity', '=', change.entity)
      .where('entity_id', '=', change.entityId)
      .orderBy('revision', 'desc')
      .limit(1)
      .executeTakeFirst();
    if (latest && latest.revision > (change.baseRevision ?? 0) && latest.origin_device_id !== device.id) {
      throw new Rejection(
        'CONFLICT',
        `Central changed this ${change.entity} (revision ${latest.revision}) after the till last saw it (revision ${change.baseRevision ?? 0}); a manager must resolve the conflict.`,
        {
          kind: 'edit_conflict',
          centralPayload: JSON.parse(latest.payload),
          centralRevision: latest.revision,
        },
      );
    }
  }
  return def.applyPush(trx, change, device, app);
}

/** Where a change's result is stored: (device, client_mutation_id), with what the change was. */
export interface ResultKey {
  clientMutationId: string;
  seq: number | null;
  entity: string;
  entityId: string | null;
  hash: string;
}

export async function storeResult(
  trx: Db,
  device: SyncDevicesTable,
  c: ResultKey,
  status: 'accepted' | 'rejected',
  result: SyncAcceptedItem | SyncRejectedItem,
  revision: number | null,
): Promise<void> {
  await insertResult.run(trx, {
    device_id: device.id,
    client_mutation_id: c.clientMutationId,
    seq: c.seq,
    entity: c.entity,
    entity_id: c.entityId,
    payload_hash: c.hash,
    status,
    result: JSON.stringify(result),
    revision,
    created_at: nowIso(),
  });
  if (status === 'accepted') await closeRetried(trx, device.id, c);
}

/** The answers of a batch so far; `retryFrom` once a temporary failure stopped it. */
export interface PushOutcome {
  accepted: SyncAcceptedItem[];
  rejected: SyncRejectedItem[];
  retryFrom?: string;
}

/** Who pushes: the device, and the signed-in user when the push came with one. */
export interface PushSource {
  device: SyncDevicesTable;
  user: AuthUser | null;
  /** The whole push, for rules that look ahead (a ledger row travels before its sale). */
  batch?: readonly unknown[];
}

/** A change that does not parse: rejected, nothing stored (it has no trustworthy mutation id). */
export function malformedItem(
  raw: unknown,
  issue: { path: PropertyKey[]; message: string } | undefined,
): SyncRejectedItem {
  const clientMutationId = (raw as { client_mutation_id?: unknown })?.client_mutation_id;
  return {
    client_mutation_id: typeof clientMutationId === 'string' ? clientMutationId : '',
    code: 'VALIDATION',
    message: `The change is malformed: ${issue ? `${issue.path.join('.') || 'change'}: ${issue.message}` : 'invalid'}.`,
  };
}

/** A change this device pushed before: its stored result again, or MUTATION_ID_REUSED for another change. */
export function replayStored(
  stored: Pick<SyncMutationsTable, 'payload_hash' | 'status' | 'result'>,
  clientMutationId: string,
  hash: string,
  out: PushOutcome,
): void {
  if (stored.payload_hash !== hash) {
    out.rejected.push({
      client_mutation_id: clientMutationId,
      code: 'MUTATION_ID_REUSED',
      message: `client_mutation_id ${clientMutationId} was already used by this device for a different change; it is never applied twice.`,
    });
  } else if (stored.status === 'accepted') out.accepted.push(JSON.parse(stored.result));
  else out.rejected.push(JSON.parse(stored.result));
}

/** The entity id a change names, or its payload's key; '' when neither. */
export function entityIdOf(c: SyncChange): string {
  const def = getEntity(c.entity);
  return c.entity_id ?? (def ? String(c.payload[def.key] ?? '') : '');
}

/** Where a parsed change's result is stored, and the entity id it names (from its payload's key if absent). */
export function resultKey(c: SyncChange): ResultKey {
  const entityId = entityIdOf(c);
  return {
    clientMutationId: c.client_mutation_id,
    seq: c.seq ?? null,
    entity: c.entity,
    entityId: entityId || null,
    hash: payloadHash(c),
  };
}

/** A parsed change as the registry's entities take it. */
export function pushedChange(c: SyncChange, entityId: string): PushedChange {
  return {
    clientMutationId: c.client_mutation_id,
    entity: c.entity,
    entityId,
    op: c.op,
    payload: c.payload,
    seq: c.seq ?? null,
    baseRevision: c.base_revision ?? null,
  };
}

/** Applies a parsed change as its device's write (every change it records carries the device and mutation). */
export function applyAsDevice(
  trx: Db,
  app: AppContext,
  from: PushSource,
  c: SyncChange,
  entityId: string,
): Promise<{ id: string; invoice_number?: string; icv?: number }> {
  return withChangeOrigin(
    trx,
    { originDeviceId: from.device.id, clientMutationId: c.client_mutation_id },
    () =>
      applyOne(trx, app, pushedChange(c, entityId), {
        device: from.device,
        user: from.user,
        via: 'push',
        batch: from.batch,
      }),
  );
}

/** The answer to an applied change: its id, fiscal fields, and central's revision once it is applied. */
export function acceptedItem(
  c: SyncChange,
  result: { id: string; invoice_number?: string; icv?: number },
  revision: number,
): SyncAcceptedItem {
  return {
    client_mutation_id: c.client_mutation_id,
    id: result.id,
    ...(result.icv !== undefined && { icv: result.icv }),
    ...(result.invoice_number !== undefined && { invoice_number: result.invoice_number }),
    revision,
  };
}

/** The device was seen pushing (and with which app version). */
export async function markPushed(
  trx: Db,
  device: SyncDevicesTable,
  appVersion: string | null,
): Promise<void> {
  const at = nowIso();
  await trx
    .updateTable('sync_devices')
    .set({ last_seen_at: at, last_push_at: at, ...(appVersion && { app_version: appVersion }) })
    .where('id', '=', device.id)
    .execute();
}
