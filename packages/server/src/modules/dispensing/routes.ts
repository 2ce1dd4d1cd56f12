import { CUSTOMER_COUNTER, DISPENSERS, WILL_CALL_HANDLERS } from '@pharmacy/contracts/roles';
import {
  CreateRefillReminderRequest,
  CreateWillCallRequest,
  GenericSearchQuery,
  GenericSearchResult,
  PickupRequest,
  Problem,
  pageOf,
  RefillListQuery,
  RefillReminder,
  ReturnWillCallRequest,
  WillCall,
  WillCallListQuery,
  WillCallParams,
} from '@pharmacy/contracts';
import { assertBranchAccess, scopeBranch } from '../../http/auth';
import { type ApiRouter, created } from '../../http/route';
import { actorOf } from '../audit/service';
import { requireActiveBranch } from '../branches/active-branch';
import { genericSearch } from './generic-search';
import { createRefill, listRefills } from './refills';
import {
  createWillCall,
  getWillCallRow,
  listWillCalls,
  refusePickupWithoutSale,
  returnWillCall,
} from './will-call';

const problem = (description: string) => ({ description, schema: Problem });

export function dispensingRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/dispensing/will-call',
    tag: 'Dispensing',
    summary: 'The will-call shelf',
    description:
      'Any signed-in user; branch-bound roles see their own branch only. Default: entries waiting for pickup, oldest first (status=picked_up or all for history, newest first). Each entry lists its medicines and whether a controlled medicine needs the collector’s ID.',
    roles: 'any',
    query: WillCallListQuery,
    responses: {
      200: { description: 'A page of will-call entries', schema: pageOf(WillCall) },
      400: problem('Invalid filter'),
    },
    handler: ({ app, user, query }) =>
      listWillCalls(app, { ...query, branch_id: scopeBranch(user, query.branch_id) }),
  });

  r.route({
    method: 'post',
    path: '/dispensing/will-call',
    tag: 'Dispensing',
    summary: 'Put a prepared prescription on the will-call shelf',
    description:
      'Pharmacist (and admin), in the prescription’s branch. Takes every dispensing made through POST /prescriptions/{id}/dispense that has not been handed over; the prescription becomes ready. 409 NOTHING_PREPARED when nothing is prepared, ALREADY_ON_WILL_CALL when it is already on the shelf, PRESCRIPTION_NOT_VALID when cancelled. One waiting entry per prescription.',
    roles: DISPENSERS,
    body: CreateWillCallRequest,
    responses: {
      201: { description: 'The will-call entry', schema: WillCall },
      400: problem('Invalid body'),
      403: problem('Another branch'),
      404: problem('Unknown prescription'),
      409: problem('Nothing prepared, already on the shelf, or cancelled'),
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await createWillCall(app, user, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'put',
    path: '/dispensing/will-call/:willCallId/pickup',
    tag: 'Dispensing',
    summary: 'Record a will-call pickup (replaced by a sale)',
    description:
      'Pharmacist or cashier (and admin), in the entry’s branch. A pickup is a sale since issue 27.1: POST /sales with will_call_id and collected_by takes the payment, the units reserved at dispensing and the collector in one transaction. This route answers 409 PICKUP_NEEDS_SALE (ALREADY_PICKED_UP when already collected) and changes nothing.',
    roles: WILL_CALL_HANDLERS,
    params: WillCallParams,
    body: PickupRequest,
    responses: {
      200: { description: 'Never: a pickup is a sale', schema: WillCall },
      400: problem('Invalid body'),
      403: problem('Another branch'),
      404: problem('Unknown will-call entry'),
      409: problem('A pickup is a sale, or already picked up'),
    },
    handler: async ({ app, user, params }) => {
      const row = await getWillCallRow(app.db, params.willCallId);
      assertBranchAccess(user, row.branch_id, 'will-call entry');
      return refusePickupWithoutSale(row);
    },
  });

  r.route({
    method: 'post',
    path: '/dispensing/will-call/:willCallId/return',
    tag: 'Dispensing',
    summary: 'Return a will-call entry to stock (not collected)',
    description:
      'Pharmacist (and admin), in the entry’s branch, with a reason. Releases the units reserved for it (they are available to sell again), marks its prescription book rows reversed and restores the prescription’s remaining quantities, so it can be dispensed again. 409 WILL_CALL_NOT_WAITING unless it waits on the shelf.',
    roles: DISPENSERS,
    params: WillCallParams,
    body: ReturnWillCallRequest,
    responses: {
      200: { description: 'The will-call entry, returned', schema: WillCall },
      400: problem('Invalid body'),
      403: problem('Another branch'),
      404: problem('Unknown will-call entry'),
      409: problem('Not waiting on the shelf'),
    },
    handler: async ({ app, user, params, body, requestId }) =>
      returnWillCall(app, user, actorOf(user, requestId), params.willCallId, body.reason),
  });

  r.route({
    method: 'get',
    path: '/dispensing/generic-search',
    tag: 'Dispensing',
    summary: 'Generic substitutes in stock',
    description:
      'Any signed-in user. By medicine_id (its generic name, strength and form; the medicine itself excluded) or by generic_name with optional strength and form. Matching ignores case and surrounding spaces. Only active medicines with sellable stock (active, unexpired batches) in the branch (branch-bound roles: their own), cheapest first, then by name. Whether a substitution is allowed for a given prescription is the pharmacist’s decision and is not checked here.',
    roles: 'any',
    query: GenericSearchQuery,
    responses: {
      200: { description: 'Substitutes', schema: GenericSearchResult },
      400: problem('Neither medicine_id nor generic_name, or the medicine has no generic name'),
      404: problem('Unknown medicine or branch'),
    },
    handler: async ({ app, user, query }) => {
      const branchId = scopeBranch(user, query.branch_id) ?? user.branchId;
      await requireActiveBranch(app.db, branchId);
      return genericSearch(app, branchId, query);
    },
  });

  r.route({
    method: 'get',
    path: '/dispensing/refills',
    tag: 'Dispensing',
    summary: 'Refill reminders',
    description:
      'Any signed-in user; branch-bound roles see their own branch only. Earliest due first; due_before (inclusive) lists what is due by a day. Reminders are notes for calling the patient; they carry no state.',
    roles: 'any',
    query: RefillListQuery,
    responses: {
      200: { description: 'A page of refill reminders', schema: pageOf(RefillReminder) },
      400: problem('Invalid filter'),
    },
    handler: ({ app, user, query }) =>
      listRefills(app, { ...query, branch_id: scopeBranch(user, query.branch_id) }),
  });

  r.route({
    method: 'post',
    path: '/dispensing/refills',
    tag: 'Dispensing',
    summary: 'Create a refill reminder',
    description:
      'Pharmacist, cashier or branch manager (and admin), in their branch (or the prescription’s branch when prescription_id is given). due_date must be today or later (branch time zone). customer_id is checked against customers once that module exists.',
    roles: CUSTOMER_COUNTER,
    body: CreateRefillReminderRequest,
    responses: {
      201: { description: 'The reminder', schema: RefillReminder },
      400: problem('Invalid body or due date in the past'),
      403: problem('Another branch'),
      404: problem('Unknown medicine, prescription, branch or customer'),
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await createRefill(app, user, actorOf(user, requestId), body)),
  });
}
