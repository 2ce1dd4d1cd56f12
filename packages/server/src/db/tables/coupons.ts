import type { Bool } from '../types';

export interface CouponsTable {
  id: string;
  code: string;
  description: string;
  discount_type: 'percent' | 'fixed';
  /** percent: hundredths of a percent (1250 = 12.5 %); fixed: minor units of the base currency. */
  discount_value: number;
  max_discount: number | null;
  min_subtotal: number;
  starts_at: string | null;
  ends_at: string | null;
  usage_limit: number | null;
  per_customer_limit: number | null;
  used_count: number;
  is_active: Bool;
  created_at: string;
  updated_at: string;
}

export interface CouponRedemptionsTable {
  id: string;
  coupon_id: string;
  sale_id: string;
  customer_id: string | null;
  amount: number;
  created_at: string;
}

export interface CouponTables {
  coupons: CouponsTable;
  coupon_redemptions: CouponRedemptionsTable;
}
