import { z } from 'zod';
import { DecimalString, Id, MoneyInput, OptionalText, PageQuery, Timestamp } from './common';
import { CouponCode, PositiveMoney } from './selling-fields';

const CouponFields = {
  code: CouponCode,
  description: OptionalText(300),
  discount_type: z.enum(['percent', 'fixed']),
  discount_value: PositiveMoney.describe(
    'percent (at most 2 decimals, at most 100) or a base-currency amount',
  ),
  max_discount: PositiveMoney.nullable().describe('cap of a percent coupon, base currency'),
  min_subtotal: MoneyInput.describe('minimum basket (after line discounts), base currency'),
  starts_at: Timestamp.nullable(),
  ends_at: Timestamp.nullable(),
  usage_limit: z.number().int().min(1).max(1_000_000_000).nullable(),
  per_customer_limit: z.number().int().min(1).max(1_000_000).nullable(),
  is_active: z.boolean(),
};
const IsoTimestampInput = z
  .string()
  .max(40)
  .refine((s) => !Number.isNaN(Date.parse(s)), { message: 'must be an ISO-8601 timestamp' });
export const CreateCouponRequest = z.object({
  ...CouponFields,
  description: CouponFields.description.default(''),
  max_discount: CouponFields.max_discount.optional(),
  min_subtotal: CouponFields.min_subtotal.default(0),
  starts_at: IsoTimestampInput.nullish(),
  ends_at: IsoTimestampInput.nullish(),
  usage_limit: CouponFields.usage_limit.optional(),
  per_customer_limit: CouponFields.per_customer_limit.optional(),
  is_active: CouponFields.is_active.default(true),
});
export const UpdateCouponRequest = z
  .object({
    ...CouponFields,
    starts_at: IsoTimestampInput.nullable(),
    ends_at: IsoTimestampInput.nullable(),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'No fields to update' });
export type Coupon = z.infer<typeof Coupon>;
export const Coupon = z.object({
  id: z.string(),
  code: z.string(),
  description: z.string(),
  discount_type: z.enum(['percent', 'fixed']),
  discount_value: DecimalString,
  max_discount: DecimalString.nullable(),
  min_subtotal: DecimalString,
  starts_at: Timestamp.nullable(),
  ends_at: Timestamp.nullable(),
  usage_limit: z.number().int().nullable(),
  per_customer_limit: z.number().int().nullable(),
  used_count: z.number().int(),
  is_active: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const CouponListQuery = PageQuery.extend({
  search: z.string().trim().max(40).optional(),
  active: z.enum(['true', 'false', 'all']).default('all'),
});
export const CouponParams = z.object({ couponId: Id });
export const CouponCodeParams = z.object({ code: z.string().trim().min(1).max(40) });
export const CouponValidateQuery = z.object({
  subtotal: z.coerce.number().finite().min(0).max(1_000_000_000_000).optional(),
  customer_id: Id.optional(),
});
export const CouponValidation = z.object({
  valid: z.boolean(),
  reason: z
    .string()
    .nullable()
    .describe(
      'why the coupon does not apply: INACTIVE, NOT_STARTED, EXPIRED, MIN_SUBTOTAL, USAGE_LIMIT, CUSTOMER_LIMIT',
    ),
  discount_amount: DecimalString.describe(
    'the discount on the given subtotal (0 when not valid or no subtotal)',
  ),
  coupon: Coupon,
});
