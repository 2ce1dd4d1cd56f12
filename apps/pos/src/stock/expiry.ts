import { daysBetween } from '@pharmacy/contracts/time';

/** How close a batch is to its expiry: drives its colour on the Stock and Alerts screens. */
export type ExpiryLevel = 'expired' | 'within-30' | 'within-90' | 'ok';

/** Whole days from `today` to `expiry` (both YYYY-MM-DD); negative once past. */
export function daysUntil(expiry: string, today: string): number {
  return daysBetween(today, expiry);
}

/**
 * A batch is expired from the day after its expiry date (the server's rule); within 30 days and within 90
 * days are the two warning bands.
 */
export function expiryLevel(expiry: string, today: string): ExpiryLevel {
  const days = daysUntil(expiry, today);
  if (days < 0) return 'expired';
  if (days <= 30) return 'within-30';
  if (days <= 90) return 'within-90';
  return 'ok';
}

export const EXPIRY_LABELS: Record<ExpiryLevel, string> = {
  expired: 'Expired',
  'within-30': 'Expires within 30 days',
  'within-90': 'Expires within 90 days',
  ok: 'More than 90 days',
};
