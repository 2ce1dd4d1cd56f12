import { z } from 'zod';
import { OptionalText } from './common';
import { SALE_PAYMENT_METHODS } from './sales';

/**
 * The field rules every pushed row shares (sync-payloads.ts): row ids, money in integer minor units, 0/1 flags,
 * whole quantities and counts, stamps, notes and payment methods.
 */

export const RowId = z.string().min(1).max(200);
export const Minor = z.number().int({ message: 'must be a whole number of minor units' });
export const MinorAmount = Minor.min(0, { message: 'must not be negative' }).max(1e15, {
  message: 'is too large',
});
export const Flag = z.union([z.literal(0), z.literal(1)], { message: 'must be 0 or 1' });
export const NullableId = RowId.nullable().optional();

export const Quantity = z
  .number()
  .int({ message: 'must be a whole number' })
  .min(1, { message: 'must be at least 1' });
export const Count = z
  .number()
  .int({ message: 'must be a whole number' })
  .min(0, { message: 'must not be negative' });
export const SignedQuantity = z.number().int({ message: 'must be a whole number' });
export const Stamp = z.string().min(1).max(40);
export const Notes = OptionalText(1000);
export const PaymentMethod = z.enum(SALE_PAYMENT_METHODS, { message: 'must be a known payment method' });
