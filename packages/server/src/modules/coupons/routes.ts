import { BRANCH_MANAGERS, OVERSEERS } from '@pharmacy/contracts/roles';
import {
  Coupon,
  CouponCodeParams,
  CouponListQuery,
  CouponParams,
  CouponValidateQuery,
  CouponValidation,
  CreateCouponRequest,
  pageOf,
  UpdateCouponRequest,
} from '@pharmacy/contracts';
import { type ApiRouter, created } from '../../http/route';
import { actorOf } from '../audit/service';
import { createCoupon, listCoupons, updateCoupon, validateCoupon } from './service';

const NOTE =
  'Coupons are organisation-wide, in the base currency: percent (discount_value in percent, at most 100, optional max_discount cap) or fixed (an amount). Codes are unique case-insensitively and stored upper-case. Sales apply and count them.';

export function couponRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/coupons/validate/:code',
    tag: 'Coupons',
    summary: 'Check whether a coupon applies to a basket',
    description: `Any signed-in user. Unknown code: 404. A known coupon answers 200 with valid and, when not valid, reason: INACTIVE, NOT_STARTED, EXPIRED, MIN_SUBTOTAL, USAGE_LIMIT, CUSTOMER_LIMIT or CUSTOMER_REQUIRED (a per-customer coupon without customer_id). subtotal (base currency, after line discounts) gives discount_amount. ${NOTE}`,
    roles: 'any',
    params: CouponCodeParams,
    query: CouponValidateQuery,
    responses: {
      200: { description: 'The validation', schema: CouponValidation },
      404: { description: 'Unknown code' },
    },
    handler: ({ app, params, query }) => validateCoupon(app, params.code, query.subtotal, query.customer_id),
  });

  r.route({
    method: 'get',
    path: '/coupons',
    tag: 'Coupons',
    summary: 'List coupons, newest first',
    description: `Roles: admin, branch_manager, auditor (who reads everything and changes nothing). Filters: search (part of the code), active (true, false, all). ${NOTE}`,
    roles: OVERSEERS,
    query: CouponListQuery,
    responses: { 200: { description: 'A page of coupons', schema: pageOf(Coupon) } },
    handler: ({ app, query }) => listCoupons(app, query),
  });

  r.route({
    method: 'post',
    path: '/coupons',
    tag: 'Coupons',
    summary: 'Create a coupon',
    description: `Roles: admin, branch_manager. 409 DUPLICATE_COUPON for a code in use; ends_at before starts_at gives 400. ${NOTE}`,
    roles: BRANCH_MANAGERS,
    body: CreateCouponRequest,
    responses: {
      201: { description: 'The coupon', schema: Coupon },
      400: { description: 'Invalid body' },
      409: { description: 'Code in use' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await createCoupon(app, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'put',
    path: '/coupons/:couponId',
    tag: 'Coupons',
    summary: 'Update a coupon (only the fields given)',
    description: `Roles: admin, branch_manager. Empty body: 400 "No fields to update". usage_limit cannot go below used_count (400). Changing discount_type needs discount_value. ${NOTE}`,
    roles: BRANCH_MANAGERS,
    params: CouponParams,
    body: UpdateCouponRequest,
    responses: {
      200: { description: 'The coupon', schema: Coupon },
      400: { description: 'Invalid body' },
      404: { description: 'Unknown coupon' },
      409: { description: 'Code in use' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      updateCoupon(app, actorOf(user, requestId), params.couponId, body),
  });
}
