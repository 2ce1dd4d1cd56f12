import { ApprovalPayload } from '@pharmacy/contracts';
import type { Db } from '../../db/connection';
import { assertNamedUserMay, PushForbidden } from '../sync/push-actors';
import type { PushedChange, Pusher, EntityRegistration } from '../sync/registry';
import { APPROVAL_DECIDERS, APPROVAL_REQUESTERS } from './roles';

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
  ],
  payloadSchema: ApprovalPayload,
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const approvalsEntities: readonly EntityRegistration[] = [approvalEntity];
