/** How close a batch is to its expiry: drives its colour on the Stock and Alerts screens. */
export type ExpiryLevel = 'expired' | 'within-30' | 'within-90' | 'ok';

const DAY_MS = 86_400_000;

/** Whole days from `today` to `expiry` (both YYYY-MM-DD); negative once past. */
export function daysUntil(expiry: string, today: string): number {
  return Math.round((Date.parse(`${expiry}T00:00:00Z`) - Date.parse(`${today}T00:00:00Z`)) / DAY_MS);
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

/** Today's date (YYYY-MM-DD) in a time zone (the branch's), as the server counts expiry. */
export function todayIn(timeZone: string | undefined, now = new Date()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}
