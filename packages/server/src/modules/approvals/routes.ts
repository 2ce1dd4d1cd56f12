import {
  Approval,
  ApprovalListQuery,
  ApprovalParams,
  CreateApprovalRequest,
  DecideApprovalRequest,
  OverrideApprovalRequest,
  pageOf,
} from '@pharmacy/contracts';
import { type ApiRouter, created } from '../../http/route';
import { actorOf } from '../audit/service';
import {
  APPROVAL_TTL_MINUTES,
  decideApproval,
  listApprovals,
  overrideApproval,
  requestApproval,
} from './service';
import { APPROVAL_DECIDERS, APPROVAL_REQUESTERS } from '@pharmacy/contracts/roles';

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
    description: [
      'kind and payload: what the approval allows, bounded (schema per kind; a missing or bad bound is 400 naming payload.<field>).',
      'price_override: medicine_id, quantity (units over all lines of the sale), unit_price (the lowest price allowed).',
      'discount: max_discount with medicine_id and quantity for a line discount, or without them for the global discount.',
      'return_without_receipt: medicine_id, quantity, max_amount. void: sale_id. Neither is consumed by any route yet.',
      'stock_variance: batch_id and variance (counted minus expected: the count may differ in that direction by at most that much).',
      "refund_tender: sale_id (of the caller's branch), from_method (a tender the sale was paid with), to_method, max_amount (sale currency).",
      "Amounts are in payload.currency_code, default the branch's selling currency, recorded in the payload (refund_tender: the sale's currency); more decimals than the currency has is 400.",
      'Using an approval for anything beyond its bounds (another medicine, line, batch, sale, tender or currency, more units, a lower price, a larger discount, variance or refund) is 403 APPROVAL_MISMATCH, nothing is written and the approval stays usable.',
      `reason is required. The request belongs to the caller's branch and must be decided within ${APPROVAL_TTL_MINUTES} minutes; once approved, the requester has ${APPROVAL_TTL_MINUTES} minutes to use it once (sales, returns and stock counts pass its id). Audited and replicated to the branch. Roles: every role but auditor.`,
    ].join(' '),
    roles: APPROVAL_REQUESTERS,
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
    roles: APPROVAL_DECIDERS,
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

  r.route({
    method: 'post',
    path: '/approvals/:approvalId/override',
    tag: TAG,
    summary: 'Manager override: a manager approves at this till',
    description: [
      "The manager types their email and password at the cashier's till and approves the pending request there, with an optional note.",
      "The password is checked as sign-in checks it: against the till's own verifier (so it works while head office is down; an organisation-wide account needs head office), counted by the sign-in throttle (429 LOGIN_THROTTLED), a failure audited as auth.login_failed.",
      "A wrong email or password is 400 INVALID_CREDENTIALS (the cashier stays signed in). The manager must be a branch_manager of the approval's branch or an admin (403 OVERRIDE_NEEDS_MANAGER), not the requester (403 SELF_APPROVAL).",
      "At a till the manager's sign-in at this device is recorded (device_sign_in, replicated before the decision) and the approval is decided_by the manager, decided_at_device this till: head office takes a till's decision only with that record.",
      'Already decided: 409 APPROVAL_DECIDED; expired: 409 APPROVAL_EXPIRED. Audited as approval.approve and approval.override. Roles: whoever may ask for an approval, of its branch.',
    ].join(' '),
    roles: APPROVAL_REQUESTERS,
    params: ApprovalParams,
    body: OverrideApprovalRequest,
    responses: {
      200: { description: 'The approved approval', schema: Approval },
      400: { description: "Wrong manager's email or password" },
      403: { description: 'Not a manager of the branch, or their own request' },
      404: { description: 'Unknown approval' },
      409: { description: 'Already decided or expired' },
      429: { description: 'Too many attempts' },
    },
    handler: ({ app, user, params, body, req, requestId }) =>
      overrideApproval(app, user, { requestId, clientAddress: req.ip ?? 'unknown' }, params.approvalId, body),
  });
}
