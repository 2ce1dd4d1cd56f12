import { ApprovalPayload, DeviceSignInPayload } from '@pharmacy/contracts';
import { recordUpsert } from '../../db/changes';
import type { Db } from '../../db/connection';
import { assertNamedUserMay, PushForbidden } from '../sync/push-actors';
import type { DeviceSignInsTable } from '../../db/tables/approvals';
import { defineEntity, type EntityRegistration, type PushedChange, type Pusher } from '../sync/registry';
import { insertRowIfAbsent } from '../sync/row-writes';
import { APPROVAL_DECIDERS, APPROVAL_REQUESTERS } from '@pharmacy/contracts/roles';
import { assertSignedInAtDevice } from './sign-ins';

/**
 * A pushed approval is taken when its requester may ask for one and, once decided, its decider may decide it
 * through REST (a branch manager of its branch or an admin, never the requester): a till cannot approve a
 * discount by writing the row.
 */
async function authoriseApproval(trx: Db, change: PushedChange, pusher: Pusher): Promise<void> {
  if (change.op !== 'upsert') return;
  const ask = { field: 'requested_by', roles: APPROVAL_REQUESTERS, what: 'asks for an approval' };
  await assertNamedUserMay(trx, change, pusher, { ...ask, pusherRoles: APPROVAL_REQUESTERS });
  const { status, decided_by, requested_by } = change.payload;
  if (status === 'pending' && (decided_by ?? null) === null) return;
  if (decided_by === requested_by)
    throw new PushForbidden('An approval cannot be decided by the person who asked for it.');
  await assertNamedUserMay(trx, change, pusher, {
    field: 'decided_by',
    roles: APPROVAL_DECIDERS,
    what: 'decides an approval',
    pusherRoles: APPROVAL_REQUESTERS,
  });
  await assertDecidedHere(trx, change, pusher);
}

/**
 * Issue 26 H2: a device carries a decision by someone else only when that person signed in at that device
 * for it (a device_sign_in row central already holds: the till pushes it before the decision) and the row says
 * it was decided there. A decision central already holds (made at head office, or taken before) is not new.
 */
async function assertDecidedHere(trx: Db, change: PushedChange, pusher: Pusher): Promise<void> {
  const decidedBy = String(change.payload.decided_by);
  if (pusher.user?.id === decidedBy) return;
  const held = await trx
    .selectFrom('approvals')
    .select('decided_by')
    .where('id', '=', change.entityId)
    .executeTakeFirst();
  if (held?.decided_by === decidedBy) return;
  if (change.payload.decided_at_device !== pusher.device.id)
    throw new PushForbidden(
      'A till carries only decisions made at that till: this approval does not say it was decided at this device.',
    );
  await assertSignedInAtDevice(trx, pusher, {
    userId: decidedBy,
    subject: { approvalId: change.entityId },
    what: 'an approval decided',
  });
}

/** A sign-in record is the device's own: it names that device and someone who may decide at its branch. */
async function authoriseSignIn(trx: Db, change: PushedChange, pusher: Pusher): Promise<void> {
  if (change.op !== 'upsert') return;
  if (change.payload.device_id !== pusher.device.id)
    throw new PushForbidden(
      'A sign-in record comes from the till the person signed in at; this one names another.',
    );
  await assertNamedUserMay(trx, change, pusher, {
    field: 'user_id',
    roles: APPROVAL_DECIDERS,
    what: 'signs in at a till to decide an approval or credit terms',
  });
}

/**
 * Approvals are asked, decided and used at a branch (often all on one till, offline): till-owned and
 * branch-scoped, so central keeps the record and the branch's other tills see the decision.
 */
const approvalEntity: EntityRegistration = {
  entity: 'approval',
  push: authoriseApproval,
  owner: 'till',
  scope: 'branch',
  table: 'approvals',
  order: 420,
  rest: [
    { method: 'post', path: '/approvals' },
    { method: 'put', path: '/approvals/:approvalId' },
    { method: 'post', path: '/approvals/:approvalId/override' },
  ],
  payloadSchema: ApprovalPayload,
};

/**
 * A manager's sign-in at a till for a decision: made by the till itself (no person's route makes one), written
 * once and never changed, so a record cannot be moved to another decision.
 */
const deviceSignInEntity = defineEntity<DeviceSignInsTable>({
  entity: 'device_sign_in',
  push: authoriseSignIn,
  owner: 'till',
  scope: 'branch',
  table: 'device_sign_ins',
  order: 415,
  rest: [],
  payloadSchema: DeviceSignInPayload,
  write: async (trx, payload) => {
    if (!(await insertRowIfAbsent(trx, 'device_sign_ins', 'id', payload))) return;
    await recordUpsert(trx, 'device_sign_in', payload, payload.branch_id);
  },
});

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const approvalsEntities: readonly EntityRegistration[] = [deviceSignInEntity, approvalEntity];
