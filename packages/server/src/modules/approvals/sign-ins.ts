import type { AppContext } from '../../app-context';
import { recordUpsert } from '../../db/changes';
import type { Db } from '../../db/connection';
import type { DeviceSignInsTable } from '../../db/tables/approvals';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { tillDeviceId } from '../sync/runtime';
import { PushForbidden } from '../sync/push-actors';
import type { Pusher } from '../sync/registry';

/** The decision a sign-in backs: an approval, or a customer's credit terms. */
export type SignInSubject = { approvalId: string } | { customerId: string };

/**
 * On a till: records that `userId` signed in at this device for a decision (replicated before the decision,
 * in the caller's transaction, so it travels first), and answers the device id; on central nothing, null.
 */
export async function recordSignInAtTill(
  app: AppContext,
  trx: Db,
  s: { branchId: string; userId: string; method: DeviceSignInsTable['method']; subject: SignInSubject },
): Promise<string | null> {
  if (app.config.mode === 'central') return null;
  const at = nowIso();
  const row: DeviceSignInsTable = {
    id: newId(),
    branch_id: s.branchId,
    device_id: tillDeviceId(app),
    user_id: s.userId,
    approval_id: 'approvalId' in s.subject ? s.subject.approvalId : null,
    customer_id: 'customerId' in s.subject ? s.subject.customerId : null,
    method: s.method,
    signed_in_at: at,
    created_at: at,
  };
  await trx.insertInto('device_sign_ins').values(row).execute();
  await recordUpsert(trx, 'device_sign_in', row, row.branch_id);
  return row.device_id;
}

/**
 * Issue 26 H2, central: a device carries a decision `userId` made only when central holds that person's
 * sign-in at that device for it. A person's own token needs none (it is them).
 */
export async function assertSignedInAtDevice(
  trx: Db,
  pusher: Pusher,
  s: { userId: string; subject: SignInSubject; what: string },
): Promise<void> {
  if (pusher.user?.id === s.userId) return;
  let q = trx
    .selectFrom('device_sign_ins')
    .select('id')
    .where('user_id', '=', s.userId)
    .where('device_id', '=', pusher.device.id);
  q =
    'approvalId' in s.subject
      ? q.where('approval_id', '=', s.subject.approvalId)
      : q.where('customer_id', '=', s.subject.customerId);
  if (!(await q.executeTakeFirst()))
    throw new PushForbidden(
      `A till carries ${s.what} by a manager only with the manager's sign-in at that till, and none was recorded for it.`,
    );
}
