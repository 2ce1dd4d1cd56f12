/** Calendar dates (YYYY-MM-DD) for expiry: a batch is sellable through its expiry date, expired from the next day. */

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Today's date in a time zone (the branch's), as YYYY-MM-DD. */
export function localDate(timeZone: string, at: Date = new Date()): string {
  const ms = at.getTime();
  const hit = lastDates.get(timeZone);
  if (hit && ms >= hit.from && ms < hit.from + 60_000) return hit.date;
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    formatters.set(timeZone, f);
  }
  const date = f.format(at);
  lastDates.set(timeZone, { date, from: Math.floor(ms / 60_000) * 60_000 });
  return date;
}

/**
 * The last answer per zone, for the UTC minute it was asked in: every sale asks, and Intl formatting cost more
 * than the rest of the date logic. Time zones today are whole minutes off UTC, so a local date only changes on
 * a UTC minute boundary.
 */
const lastDates = new Map<string, { date: string; from: number }>();

export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}
