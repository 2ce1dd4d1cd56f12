import type { Db } from './connection';
import { nowIso } from '../lib/time';

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
 * Appends to the replication log in the caller's transaction; every write to a replicated table goes through
 * this, so a till's outbox and central's pull feed can never miss or invent a write.
 */
export async function recordChange(trx: Db, change: Change): Promise<void> {
  await trx
    .insertInto('change_log')
    .values({
      entity: change.entity,
      entity_id: change.entityId,
      op: change.op,
      payload: JSON.stringify(change.payload),
      branch_id: change.branchId,
      origin_device_id: change.originDeviceId ?? null,
      client_mutation_id: change.clientMutationId ?? null,
      created_at: nowIso(),
    })
    .execute();
}
