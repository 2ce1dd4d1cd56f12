import { DISPENSERS, PRESCRIPTION_CANCELLERS } from '@pharmacy/contracts/roles';
import {
  CancelPrescriptionRequest,
  CreatePrescriptionRequest,
  DispenseRequest,
  DispenseResult,
  PrescriptionDetail,
  PrescriptionListQuery,
  PrescriptionParams,
  PrescriptionSummary,
  Problem,
  pageOf,
} from '@pharmacy/contracts';
import { assertBranchAccess, scopeBranch } from '../../http/auth';
import { type ApiRouter, created } from '../../http/route';
import { actorOf } from '../audit/service';
import { getPrescription, getPrescriptionRow, listPrescriptions } from './read';
import { cancelPrescription, createPrescription, dispensePrescription } from './service';

const problem = (description: string) => ({ description, schema: Problem });

const STATES = `States: active (nothing dispensed in the current fill) -> partially_dispensed (some dispensed) -> dispensed (current fills complete); ready = prepared and waiting on the will-call shelf (POST /dispensing/will-call), back to partially_dispensed/dispensed on pickup; cancelled (terminal); expired is derived (not stored) when the branch's today is past valid_until while active or partially_dispensed.`;

export function prescriptionRoutes(r: ApiRouter): void {
  r.route({
    method: 'post',
    path: '/prescriptions',
    tag: 'Prescriptions',
    summary: 'Register a prescription',
    description: `Pharmacist (and admin). The patient is given by name, ID number and phone, optionally with customer_id (checked against customers once the customers module exists; kept as text before). issue_date must not be in the future (branch time zone). valid_until defaults to issue_date + 30 days, + 14 days when any item is a controlled medicine; at most 365 days (controlled: 30) after issue, and not already past. Each medicine appears once; items of controlled medicines cannot have refills. Branch-bound roles register in their own branch only (403). ${STATES}`,
    roles: DISPENSERS,
    body: CreatePrescriptionRequest,
    responses: {
      201: { description: 'The prescription with its items', schema: PrescriptionDetail },
      400: problem('Invalid body, future issue date, validity out of range, duplicate or inactive medicine'),
      403: problem('Another branch'),
      404: problem('Unknown medicine, branch or customer'),
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await createPrescription(app, user, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'get',
    path: '/prescriptions',
    tag: 'Prescriptions',
    summary: 'List prescriptions',
    description:
      'Any signed-in user; branch-bound roles see their own branch only. Filters: status (expired is derived), patient (part of name, ID number or phone), customer_id, issue date window. Newest issue date first.',
    roles: 'any',
    query: PrescriptionListQuery,
    responses: {
      200: { description: 'A page of prescriptions', schema: pageOf(PrescriptionSummary) },
      400: problem('Invalid filter'),
    },
    handler: ({ app, user, query }) =>
      listPrescriptions(app, { ...query, branch_id: scopeBranch(user, query.branch_id) }),
  });

  r.route({
    method: 'get',
    path: '/prescriptions/:prescriptionId',
    tag: 'Prescriptions',
    summary: 'Read a prescription',
    description:
      'Any signed-in user of its branch (403 for another branch). Items carry the quantity per fill, dispensed and remaining quantities of the current fill, refills used and allowed; dispensings list every prescription book row.',
    roles: 'any',
    params: PrescriptionParams,
    responses: {
      200: { description: 'The prescription', schema: PrescriptionDetail },
      403: problem('Another branch'),
      404: problem('Unknown prescription'),
    },
    handler: async ({ app, user, params }) => {
      const row = await getPrescriptionRow(app.db, params.prescriptionId);
      assertBranchAccess(user, row.branch_id, 'prescription');
      return getPrescription(app, params.prescriptionId);
    },
  });

  r.route({
    method: 'post',
    path: '/prescriptions/:prescriptionId/dispense',
    tag: 'Prescriptions',
    summary: 'Prepare a prescription for the will-call shelf (no hand-over: that is a sale)',
    description: `Pharmacist (and admin), in the prescription's branch. Without items: everything that remains in the current fills, or, when everything is dispensed, a refill of every item with refills left. With items: each from its current fill (409 beyond what remains) or, when that fill is complete, as the item's next refill (409 beyond the prescribed quantity or with no refills left). The goods are prepared for the will-call shelf: their units are reserved first-expiry-first-out in sellable batches (stock leaves when the pickup's sale is paid, or the reservation is released when the entry goes back to stock); never beyond what is on hand whatever the negative-stock policy (409 INSUFFICIENT_STOCK, nothing written). Nothing is handed over here: a hand-over is a sale. Sell with prescription_id dispenses and hands over in the sale; a will-call entry is picked up by POST /sales with will_call_id and collected_by. A body with collected_by is refused 409 HANDOVER_NEEDS_SALE ("Hand over through Sell: a hand-over is a sale (the prescription is linked to it)") and nothing is written; a till's push of a will-call entry picked up without a sale, or of a dispensing handing one over, is refused with the same code. 409 PRESCRIPTION_NOT_VALID when cancelled, expired, waiting on the will-call shelf or nothing is left. ${STATES}`,
    roles: DISPENSERS,
    params: PrescriptionParams,
    body: DispenseRequest,
    responses: {
      201: { description: 'The dispensing and the prescription after it', schema: DispenseResult },
      400: problem('Invalid body, medicine not on the prescription'),
      403: problem('Another branch'),
      404: problem('Unknown prescription'),
      409: problem('PRESCRIPTION_NOT_VALID, INSUFFICIENT_STOCK, or HANDOVER_NEEDS_SALE (collected_by given)'),
    },
    handler: async ({ app, user, params, body, requestId }) =>
      created(await dispensePrescription(app, user, actorOf(user, requestId), params.prescriptionId, body)),
  });

  r.route({
    method: 'post',
    path: '/prescriptions/:prescriptionId/cancel',
    tag: 'Prescriptions',
    summary: 'Cancel a prescription',
    description:
      "Pharmacist or branch manager (and admin), in the prescription's branch. While nothing has been dispensed a reason is optional; once anything has been dispensed (a partial fill, or a complete fill with refills left) a reason is required (400 REASON_REQUIRED) and the cancellation closes what remains; the dispensings stay in the books. 409 PRESCRIPTION_NOT_VALID when already cancelled, waiting on the will-call shelf (pick up first), or fully dispensed with no refills left. Expired prescriptions may be cancelled.",
    roles: PRESCRIPTION_CANCELLERS,
    params: PrescriptionParams,
    body: CancelPrescriptionRequest,
    responses: {
      200: { description: 'The cancelled prescription', schema: PrescriptionDetail },
      400: problem('Invalid body or reason missing'),
      403: problem('Another branch'),
      404: problem('Unknown prescription'),
      409: problem('Cannot be cancelled in its state'),
    },
    handler: ({ app, user, params, body, requestId }) =>
      cancelPrescription(app, user, actorOf(user, requestId), params.prescriptionId, body.reason),
  });
}
