import type { Coupon } from '@pharmacy/contracts';

/** What the coupon form holds: text as typed (amounts, limits, dates as YYYY-MM-DD). */
export interface CouponForm {
  code: string;
  description: string;
  discount_type: 'percent' | 'fixed';
  discount_value: string;
  max_discount: string;
  min_subtotal: string;
  starts_on: string;
  ends_on: string;
  usage_limit: string;
  per_customer_limit: string;
  is_active: boolean;
}

export function formOf(c: Coupon | undefined): CouponForm {
  return {
    code: c?.code ?? '',
    description: c?.description ?? '',
    discount_type: c?.discount_type ?? 'percent',
    discount_value: c?.discount_value ?? '',
    max_discount: c?.max_discount ?? '',
    min_subtotal: c?.min_subtotal ?? '0',
    starts_on: c?.starts_at?.slice(0, 10) ?? '',
    ends_on: c?.ends_at?.slice(0, 10) ?? '',
    usage_limit: c?.usage_limit == null ? '' : String(c.usage_limit),
    per_customer_limit: c?.per_customer_limit == null ? '' : String(c.per_customer_limit),
    is_active: c?.is_active ?? true,
  };
}

/** A typed number, or NaN for text that is not one (the server then names the field). */
const num = (text: string): number =>
  text.trim() === '' ? Number.NaN : Number(text.trim().replace(',', '.'));
const optionalNum = (text: string): number | null => (text.trim() === '' ? null : num(text));

/**
 * The request body of a coupon form. Validity days are whole days: from the start of the first day
 * to the end of the last, in UTC (the server stores timestamps).
 */
export function couponBody(f: CouponForm) {
  return {
    code: f.code.trim(),
    description: f.description,
    discount_type: f.discount_type,
    discount_value: num(f.discount_value),
    max_discount: f.discount_type === 'percent' ? optionalNum(f.max_discount) : null,
    min_subtotal: f.min_subtotal.trim() === '' ? 0 : num(f.min_subtotal),
    starts_at: f.starts_on ? `${f.starts_on}T00:00:00.000Z` : null,
    ends_at: f.ends_on ? `${f.ends_on}T23:59:59.999Z` : null,
    usage_limit: optionalNum(f.usage_limit),
    per_customer_limit: optionalNum(f.per_customer_limit),
    is_active: f.is_active,
  };
}

/** "12 / 100", "3 / unlimited". */
export function usageText(c: Pick<Coupon, 'used_count' | 'usage_limit'>): string {
  return `${c.used_count} / ${c.usage_limit ?? 'unlimited'}`;
}
