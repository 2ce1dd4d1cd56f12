import {
  type Approval,
  type ApprovalKind,
  type ApprovalStatus,
  BRANCH_BOUND_ROLES,
  type CreateApprovalRequest,
  type OverrideApprovalRequest,
  type Role,
  whoCan,
} from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordUpsert } from '../../db/changes';
import { assertBranchAccess, assertTillBranch, type AuthUser } from '../../http/auth';
import { Conflict, Forbidden, Invalid, NotFound, Unauthorized } from '../../lib/errors';
import { roleAllowed } from '../../http/route';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { recordedBounds } from './bounds';
import { type ApprovalOperation, assertApprovalCovers } from './covers';
import type { ApprovalsTable } from '../../db/tables/approvals';
import { checkCredentials } from '../auth/service';
import { APPROVAL_DECIDERS, allows, ORGANISATION_READERS } from '@pharmacy/contracts/roles';
import { recordSignInAtTill } from './sign-ins';
import { paginate } from '../../db/paginate';

/** A request must be decided, and an approval used, within this many minutes. */
export const APPROVAL_TTL_MINUTES = 15;
const ttlFrom = (iso: string) => new Date(Date.parse(iso) + APPROVAL_TTL_MINUTES * 60_000).toISOString();

function approvalQuery(db: Db) {
  return db
    .selectFrom('approvals as a')
    .leftJoin('users as rq', 'rq.id', 'a.requested_by')
    .leftJoin('users as dc', 'dc.id', 'a.decided_by')
    .selectAll('a')
    .select(['rq.full_name as requested_by_name', 'dc.full_name as decided_by_name']);
}

type ApprovalRow = ApprovalsTable & { requested_by_name: string | null; decided_by_name: string | null };

const isExpired = (r: ApprovalsTable, now: string) =>
  (r.status === 'pending' || r.status === 'approved') && r.expires_at <= now;

const toApproval = (r: ApprovalRow, now = nowIso()): Approval => ({
  ...r,
  payload: JSON.parse(r.payload) as Record<string, unknown>,
  is_expired: isExpired(r, now),
});

const recordApprovalChange = (trx: Db, row: ApprovalsTable) =>
  recordUpsert(trx, 'approval', row, row.branch_id);

async function readApproval(db: Db, id: string): Promise<ApprovalRow> {
  const row = await approvalQuery(db).where('a.id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Approval', id);
  return row;
}

export async function requestApproval(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: CreateApprovalRequest,
): Promise<Approval> {
  const payload = await recordedBounds(app, user, input);
  const at = nowIso();
  const row: ApprovalsTable = {
    id: newId(),
    branch_id: user.branchId,
    kind: input.kind,
    payload: JSON.stringify(payload),
    reason: input.reason,
    status: 'pending',
    requested_by: user.id,
    decided_by: null,
    decision_reason: null,
    decided_at: null,
    used_by: null,
    used_at: null,
    decided_at_device: null,
    expires_at: ttlFrom(at),
    created_at: at,
    updated_at: at,
  };
  await app.db.transaction().execute(async (trx) => {
    await trx.insertInto('approvals').values(row).execute();
    await recordApprovalChange(trx, row);
    await writeAudit(trx, actor, {
      action: 'approval.request',
      entity: 'approval',
      entityId: row.id,
      branchId: row.branch_id,
      after: row,
    });
  });
  return toApproval(await readApproval(app.db, row.id));
}

export async function listApprovals(
  app: AppContext,
  user: AuthUser,
  f: {
    status: ApprovalStatus | 'all';
    kind?: ApprovalKind;
    branch_id?: string;
    page: number;
    page_size: number;
  },
) {
  const now = nowIso();
  let q = approvalQuery(app.db);
  if (allows(ORGANISATION_READERS, user.role)) {
    if (f.branch_id) q = q.where('a.branch_id', '=', f.branch_id);
  } else if (user.role === 'branch_manager') {
    q = q.where('a.branch_id', '=', user.branchId);
  } else {
    q = q.where('a.requested_by', '=', user.id);
  }
  if (f.status !== 'all') q = q.where('a.status', '=', f.status);
  if (f.status === 'pending' || f.status === 'approved') q = q.where('a.expires_at', '>', now);
  if (f.kind) q = q.where('a.kind', '=', f.kind);
  const found = await paginate(q, f, (q) => q.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc'));
  return { ...found, items: found.items.map((r) => toApproval(r, now)) };
}

/**
 * A branch manager (of the approval's branch) or an admin approves or rejects a pending request, with a
 * reason. Nobody decides their own request (403 SELF_APPROVAL). An approval is usable for 15 minutes after it
 * is granted; a request not decided within 15 minutes expires (409 APPROVAL_EXPIRED). At a till the decision
 * is recorded with the manager's sign-in at this device, which is what lets the till carry it to head office.
 */
export async function decideApproval(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  input: { status: 'approved' | 'rejected'; reason: string },
): Promise<Approval> {
  const existing = await readApproval(app.db, id);
  assertBranchAccess(user, existing.branch_id, 'approval');
  assertNotOwn(existing, user.id);
  await app.db.transaction().execute(async (trx) => {
    const device = await recordSignInAtTill(app, trx, {
      branchId: existing.branch_id,
      userId: user.id,
      method: 'session',
      subject: { approvalId: id },
    });
    await writeDecision(trx, actor, id, { ...input, decidedBy: user.id, device });
  });
  return toApproval(await readApproval(app.db, id));
}

function assertNotOwn(approval: ApprovalsTable, deciderId: string): void {
  if (approval.requested_by === deciderId)
    throw new Forbidden('You cannot decide your own request; another manager must.', 'SELF_APPROVAL');
}

/** Decides a pending, unexpired approval inside the caller's transaction: the row, its change and audit. */
async function writeDecision(
  trx: Db,
  actor: Actor,
  id: string,
  input: { status: 'approved' | 'rejected'; reason: string | null; decidedBy: string; device: string | null },
): Promise<void> {
  const before = await readApproval(trx, id);
  if (before.status !== 'pending')
    throw new Conflict(
      `This approval is already ${before.status}; it can be decided only once.`,
      'APPROVAL_DECIDED',
    );
  const at = nowIso();
  if (before.expires_at <= at)
    throw new Conflict('This request expired before it was decided; ask again.', 'APPROVAL_EXPIRED');
  const { requested_by_name: _r, decided_by_name: _d, ...plain } = before;
  const row: ApprovalsTable = {
    ...plain,
    status: input.status,
    decided_by: input.decidedBy,
    decision_reason: input.reason,
    decided_at: at,
    decided_at_device: input.device,
    expires_at: input.status === 'approved' ? ttlFrom(at) : before.expires_at,
    updated_at: at,
  };
  const result = await trx
    .updateTable('approvals')
    .set({
      status: row.status,
      decided_by: row.decided_by,
      decision_reason: row.decision_reason,
      decided_at: row.decided_at,
      decided_at_device: row.decided_at_device,
      expires_at: row.expires_at,
      updated_at: row.updated_at,
    })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1)
    throw new Conflict('This approval was decided meanwhile.', 'APPROVAL_DECIDED');
  await recordApprovalChange(trx, row);
  await writeAudit(trx, actor, {
    action: input.status === 'approved' ? 'approval.approve' : 'approval.reject',
    entity: 'approval',
    entityId: id,
    branchId: row.branch_id,
    before: { status: before.status },
    after: {
      status: row.status,
      reason: input.reason,
      expires_at: row.expires_at,
      decided_at_device: row.decided_at_device,
    },
  });
}

/**
 * Manager override at the counter (issue 29): the manager types their email and password at the cashier's
 * till and approves the request there, with an optional note. The password is checked as sign-in checks it
 * (the till's own verifier, so it works offline; the sign-in throttle; a failure audited), the manager must be
 * able to decide it through REST (a branch manager of its branch or an admin, not the requester), and the
 * sign-in at this device is recorded with the decision.
 */
export async function overrideApproval(
  app: AppContext,
  caller: AuthUser,
  request: { requestId: string; clientAddress: string },
  id: string,
  input: OverrideApprovalRequest,
): Promise<Approval> {
  const existing = await readApproval(app.db, id);
  assertBranchAccess(caller, existing.branch_id, 'approval');
  const manager = await overridingManager(app, request, existing, input);
  const actor: Actor = { userId: manager.id, requestId: request.requestId };
  await app.db.transaction().execute(async (trx) => {
    const device = await recordSignInAtTill(app, trx, {
      branchId: existing.branch_id,
      userId: manager.id,
      method: 'override',
      subject: { approvalId: id },
    });
    await writeDecision(trx, actor, id, {
      status: 'approved',
      reason: input.note?.trim() || null,
      decidedBy: manager.id,
      device,
    });
    await writeAudit(trx, actor, {
      action: 'approval.override',
      entity: 'approval',
      entityId: id,
      branchId: existing.branch_id,
      after: { at_till_of: caller.id, device_id: device, client_address: request.clientAddress },
    });
  });
  return toApproval(await readApproval(app.db, id));
}

/** The manager whose email and password were typed, when they may decide this approval. */
async function overridingManager(
  app: AppContext,
  request: { requestId: string; clientAddress: string },
  approval: ApprovalsTable,
  input: OverrideApprovalRequest,
) {
  let checked: Awaited<ReturnType<typeof checkCredentials>>;
  try {
    checked = await checkCredentials(app, input, request.clientAddress, request.requestId);
  } catch (err) {
    if (!(err instanceof Unauthorized)) throw err;
    throw new Invalid(
      "The manager's email or password is not right.",
      [{ path: 'password', message: 'is not right for that email' }],
      'INVALID_CREDENTIALS',
    );
  }
  const { user, centralRefusal } = checked;
  if (!user.is_active)
    throw new Forbidden('This account is deactivated; ask an administrator.', 'ACCOUNT_INACTIVE');
  assertTillBranch(app, user);
  if (centralRefusal) throw centralRefusal;
  const bound = BRANCH_BOUND_ROLES.includes(user.role as Role);
  if (!roleAllowed(APPROVAL_DECIDERS, user.role as Role) || (bound && user.branch_id !== approval.branch_id))
    throw new Forbidden(
      `${whoCan(APPROVAL_DECIDERS, 'approve at the till')}; ${user.full_name} cannot.`,
      'OVERRIDE_NEEDS_MANAGER',
    );
  assertNotOwn(approval, user.id);
  return user;
}

export interface ConsumeApprovalInput {
  approvalId: string;
  /** What is being done that needs the approval: its kind, and what the approval's bounds must cover. */
  operation: ApprovalOperation;
  branchId: string;
  /** The user acting on the approval: it must be the one who asked for it. */
  userId: string;
  /** Request id for the audit row, when there is one. */
  requestId?: string | null;
}

/**
 * For other modules (sales, returns, stock count…), inside THEIR transaction and before they write anything:
 * accepts an approved, unexpired approval of the operation's kind and branch, requested by `userId`, exactly
 * once (it becomes `used`); anything else throws 403 APPROVAL_REQUIRED. An approval whose recorded bounds do
 * not cover the operation throws 403 APPROVAL_MISMATCH and stays unused. A rolled-back caller leaves it unused.
 */
export async function consumeApproval(trx: Db, input: ConsumeApprovalInput): Promise<Approval> {
  const row = await approvalQuery(trx).where('a.id', '=', input.approvalId).executeTakeFirst();
  const at = nowIso();
  const refuse = (why: string) =>
    new Forbidden(`A manager's approval is required: ${why}.`, 'APPROVAL_REQUIRED');
  if (!row) throw refuse(`approval ${input.approvalId} does not exist`);
  const { kind } = input.operation;
  if (row.kind !== kind) throw refuse(`approval ${row.id} is for ${row.kind}, not ${kind}`);
  if (row.branch_id !== input.branchId) throw refuse(`approval ${row.id} belongs to another branch`);
  if (row.requested_by !== input.userId) throw refuse(`approval ${row.id} was requested by another user`);
  if (row.status !== 'approved') throw refuse(`approval ${row.id} is ${row.status}`);
  if (row.expires_at <= at) throw refuse(`approval ${row.id} expired at ${row.expires_at}`);
  assertApprovalCovers(row.id, JSON.parse(row.payload), input.operation);
  const result = await trx
    .updateTable('approvals')
    .set({ status: 'used', used_by: input.userId, used_at: at, updated_at: at })
    .where('id', '=', row.id)
    .where('status', '=', 'approved')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw refuse(`approval ${row.id} was used meanwhile`);
  const { requested_by_name: _r, decided_by_name: _d, ...plain } = row;
  const used: ApprovalsTable = {
    ...plain,
    status: 'used',
    used_by: input.userId,
    used_at: at,
    updated_at: at,
  };
  await recordApprovalChange(trx, used);
  await writeAudit(
    trx,
    { userId: input.userId, requestId: input.requestId ?? null },
    {
      action: 'approval.use',
      entity: 'approval',
      entityId: row.id,
      branchId: row.branch_id,
      before: { status: 'approved' },
      after: { status: 'used', used_at: at },
    },
  );
  return toApproval({ ...row, ...used }, at);
}
