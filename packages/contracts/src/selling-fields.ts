import { z } from 'zod';
import { MoneyInput } from './common';

/** Fields the selling areas share (quantities, money, mutation ids, currency and coupon codes). */

export const Qty = z
  .number({ message: 'must be a number' })
  .int({ message: 'must be a whole number' })
  .min(1, { message: 'must be at least 1' })
  .max(1_000_000, { message: 'is too large' });

export const PositiveMoney = MoneyInput.refine((n) => n > 0, { message: 'must be above zero' });
export const MutationId = z
  .string()
  .trim()
  .min(8, { message: 'must be at least 8 characters' })
  .max(100, { message: 'must be at most 100 characters' })
  .regex(/^[A-Za-z0-9._:-]+$/, { message: 'must be letters, digits, dots, dashes, colons or underscores' });
export const CurrencyCodeInput = z
  .string()
  .regex(/^[A-Z]{3}$/, { message: 'must be a three-letter ISO 4217 code' });
export const CouponCode = z
  .string()
  .trim()
  .min(2, { message: 'must be at least 2 characters' })
  .max(40, { message: 'must be at most 40 characters' })
  .regex(/^[A-Za-z0-9_-]+$/, { message: 'must be letters, digits, dashes or underscores' });
