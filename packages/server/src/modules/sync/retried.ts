import type { Db } from '../../db/connection';
import { nowIso } from '../../lib/time';

/** Marks a mutation id as a second attempt, so central judges it afresh (a replay would answer the refusal). */
export const RETRY_MARK = '~retry-';

/**
 * A retried change central has now accepted closes central's open rejections of the same record from the same
 * till (resolution retry): the manager retried it at the till.
 */
export async function closeRetried(
  trx: Db,
  deviceId: string,
  c: { clientMutationId: string; entity: string; entityId: string | null },
): Promise<void> {
  if (!c.clientMutationId.includes(RETRY_MARK) || !c.entityId) return;
  await trx
    .updateTable('sync_conflicts')
    .set({ status: 'resolved', resolution: 'retry', resolved_at: nowIso() })
    .where('device_id', '=', deviceId)
    .where('entity', '=', c.entity)
    .where('entity_id', '=', c.entityId)
    .where('kind', '=', 'rejected')
    .where('status', '=', 'open')
    .execute();
}
