import {
  Approval,
  ApprovalListQuery,
  ApprovalParams,
  CreateApprovalRequest,
  DecideApprovalRequest,
  pageOf,
} from '@pharmacy/contracts';
import { type ApiRouter, created } from '../../http/route';
import { actorOf } from '../audit/service';
import { APPROVAL_TTL_MINUTES, decideApproval, listApprovals, requestApproval } from './service';
import './sync';

const TAG = 'Ops';

export function approvalRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/approvals',
    tag: TAG,
    summary: 'List approval requests, newest first',
    description:
      'status pending (default: undecided and not expired), approved (unused and not expired), rejected, used or all; optional kind. Visibility: admin and auditor see every branch (or branch_id); a branch_manager sees their branch; everybody else sees only their own requests. Paged.',
    roles: 'any',
    query: ApprovalListQuery,
    responses: { 200: { description: 'A page of approvals', schema: pageOf(Approval) } },
    handler: ({ app, user, query }) => listApprovals(app, user, query),
  });

  r.route({
    method: 'post',
    path: '/approvals',
    tag: TAG,
    summary: "Ask for a manager's approval",
    description: `kind: price_override, discount, return_without_receipt, void or stock_variance; payload: a flat object describing what (sale, line, amounts; at most 30 keys); reason is required. The request belongs to the caller's branch and must be decided within ${APPROVAL_TTL_MINUTES} minutes; once approved, the requester has ${APPROVAL_TTL_MINUTES} minutes to use it once (sales, returns and stock counts pass its id). Audited and replicated to the branch. Roles: every role but auditor.`,
    roles: ['pharmacist', 'cashier', 'branch_manager', 'inventory_manager'],
    body: CreateApprovalRequest,
    responses: { 201: { description: 'The pending approval', schema: Approval } },
    handler: async ({ app, user, body, requestId }) =>
      created(await requestApproval(app, user, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'put',
    path: '/approvals/:approvalId',
    tag: TAG,
    summary: 'Approve or reject a request',
    description:
      "status approved or rejected, with a reason. Roles: admin, branch_manager of the approval's branch (another branch: 403 OTHER_BRANCH). Nobody decides their own request (403 SELF_APPROVAL). Already decided: 409 APPROVAL_DECIDED; not decided in time: 409 APPROVAL_EXPIRED. Audited and replicated.",
    roles: ['branch_manager'],
    params: ApprovalParams,
    body: DecideApprovalRequest,
    responses: {
      200: { description: 'The decided approval', schema: Approval },
      403: { description: 'Role not allowed, another branch or own request' },
      404: { description: 'Unknown approval' },
      409: { description: 'Already decided or expired' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      decideApproval(app, user, actorOf(user, requestId), params.approvalId, body),
  });
}
