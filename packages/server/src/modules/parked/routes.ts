import { SELLERS } from '@pharmacy/contracts/roles';
import {
  ParkCartRequest,
  ParkedCart,
  ParkedListQuery,
  ParkedParams,
  pageOf,
  VoidParkedRequest,
} from '@pharmacy/contracts';
import { type ApiRouter, created } from '../../http/route';
import { actorOf } from '../audit/service';
import { listParked, parkCart, recallCart, voidCart } from './service';

const NOTE =
  "Status values: parked, recalled, voided (recalled and voided are final). A cart belongs to the caller's branch; any till user of the branch may recall it; another branch's cart is 403. Items are stored as given and re-priced when sold.";

export function parkedRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/parked',
    tag: 'Parked',
    summary: "The branch's parked carts, newest first",
    description: `Any signed-in user; status filter default parked (also recalled, voided, all). Branch-bound roles see their branch. ${NOTE}`,
    roles: 'any',
    query: ParkedListQuery,
    responses: { 200: { description: 'A page of carts', schema: pageOf(ParkedCart) } },
    handler: ({ app, user, query }) => listParked(app, user, query),
  });

  r.route({
    method: 'post',
    path: '/parked',
    tag: 'Parked',
    summary: 'Park a cart',
    description: `Roles: admin, branch_manager, pharmacist, cashier. label and items required; an unknown customer_id gives 404. ${NOTE}`,
    roles: SELLERS,
    body: ParkCartRequest,
    responses: {
      201: { description: 'The parked cart', schema: ParkedCart },
      400: { description: 'Invalid body' },
      404: { description: 'Unknown customer' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await parkCart(app, user, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'post',
    path: '/parked/:parkedId/recall',
    tag: 'Parked',
    summary: 'Recall a parked cart (returns it and closes the entry)',
    description: `Roles: admin, branch_manager, pharmacist, cashier. A second recall gives 409 ALREADY_RECALLED; a voided cart 409 ALREADY_VOIDED. ${NOTE}`,
    roles: SELLERS,
    params: ParkedParams,
    responses: {
      200: { description: 'The recalled cart', schema: ParkedCart },
      403: { description: 'Another branch' },
      404: { description: 'Unknown cart' },
      409: { description: 'Already recalled or voided' },
    },
    handler: ({ app, user, params, requestId }) =>
      recallCart(app, user, actorOf(user, requestId), params.parkedId),
  });

  r.route({
    method: 'post',
    path: '/parked/:parkedId/void',
    tag: 'Parked',
    summary: 'Void a parked cart with a reason',
    description: `Roles: admin, branch_manager, pharmacist, cashier. reason required. Only a parked cart can be voided (409 ALREADY_RECALLED / ALREADY_VOIDED). ${NOTE}`,
    roles: SELLERS,
    params: ParkedParams,
    body: VoidParkedRequest,
    responses: {
      200: { description: 'The voided cart', schema: ParkedCart },
      400: { description: 'Missing reason' },
      403: { description: 'Another branch' },
      404: { description: 'Unknown cart' },
      409: { description: 'Already recalled or voided' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      voidCart(app, user, actorOf(user, requestId), params.parkedId, body.reason),
  });
}
