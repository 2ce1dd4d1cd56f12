/**
 * Calendar days in a time zone, one home for the server and the till (zod-free, so the UI bundle stays small).
 * Dates are YYYY-MM-DD strings; instants are ISO-8601 UTC strings or epoch milliseconds.
 *
 * Fallback: a missing or unknown zone counts as UTC. Zones are validated when a branch or the settings are
 * saved (TimeZone in branches.ts), so this only guards the till before its settings load.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

const formatters = new Map<string, Intl.DateTimeFormat>();

/** Answers kept per zone name; bounded, since the names come from requests. */
const zoneAnswers = new Map<string, boolean>();
const ZONE_ANSWERS_KEPT = 1000;

/**
 * Whether Intl knows the zone (an IANA name such as Africa/Dar_es_Salaam). Remembered per name: every branch
 * a response carries is checked, and building a formatter to ask cost about 50 ms of a server's start.
 */
export function isTimeZone(name: string): boolean {
  let known = zoneAnswers.get(name);
  if (known === undefined) {
    try {
      new Intl.DateTimeFormat('en', { timeZone: name });
      known = true;
    } catch {
      known = false;
    }
    if (zoneAnswers.size < ZONE_ANSWERS_KEPT) zoneAnswers.set(name, known);
  }
  return known;
}

function dayFormatter(timeZone: string | undefined): Intl.DateTimeFormat {
  const key = timeZone ?? 'UTC';
  let f = formatters.get(key);
  if (!f) {
    const style = { year: 'numeric', month: '2-digit', day: '2-digit' } as const;
    try {
      f = new Intl.DateTimeFormat('en-CA', { ...style, timeZone: key });
    } catch {
      f = new Intl.DateTimeFormat('en-CA', { ...style, timeZone: 'UTC' });
    }
    formatters.set(key, f);
  }
  return f;
}

/** The calendar date (YYYY-MM-DD) at an instant in a zone, without the minute cache. */
function dateAt(timeZone: string | undefined, ms: number): string {
  return dayFormatter(timeZone).format(ms);
}

/**
 * The last answer per zone, for the UTC minute it was asked in: every sale asks, and Intl formatting costs
 * more than the rest of the date logic. Zones today are whole minutes off UTC, so a local date only changes
 * on a UTC minute boundary.
 */
const lastDates = new Map<string, { date: string; from: number }>();

/** Today's date (YYYY-MM-DD) in a time zone (the branch's): the day that decides expiry, due dates, reports. */
export function localDate(timeZone: string | undefined, at: Date | number = Date.now()): string {
  const ms = typeof at === 'number' ? at : at.getTime();
  const key = timeZone ?? 'UTC';
  const hit = lastDates.get(key);
  if (hit && ms >= hit.from && ms < hit.from + MINUTE) return hit.date;
  const date = dateAt(timeZone, ms);
  lastDates.set(key, { date, from: Math.floor(ms / MINUTE) * MINUTE });
  return date;
}

/** The date `days` calendar days after `date` (before, when negative). */
export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY).toISOString().slice(0, 10);
}

/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY);
}

/**
 * The first instant of a local calendar day, in epoch milliseconds. DST-safe by construction: it is the
 * earliest second whose local date is `date`, found by bisection between 15 hours either side of UTC midnight
 * (every zone's offset lies within that). When clocks jump over midnight (Santiago, Havana) the day starts at
 * the jump, 01:00 local; an offset-guessing formula lands an hour early there, in the previous day.
 */
export function startOfLocalDayMs(date: string, timeZone: string | undefined): number {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  if (Number.isNaN(utcMidnight)) throw new RangeError(`Not a calendar date: ${date}`);
  let before = utcMidnight - 15 * HOUR; // local date still the day before
  let from = utcMidnight + 15 * HOUR; // local date already `date` (or later)
  while (from - before > 1000) {
    const mid = before + Math.floor((from - before) / 2000) * 1000;
    if (dateAt(timeZone, mid) >= date) from = mid;
    else before = mid;
  }
  return from;
}

/** The first instant of a local calendar day as ISO-8601 UTC: ("2026-12-01", "Africa/Dar_es_Salaam") → "2026-11-30T21:00:00.000Z". */
export function startOfLocalDay(date: string, timeZone: string | undefined): string {
  return new Date(startOfLocalDayMs(date, timeZone)).toISOString();
}

/** Whole local days `from`..`to` (inclusive) as a half-open UTC interval [startIso, endIso). */
export function dayWindow(
  from: string,
  to: string,
  timeZone: string | undefined,
): { startIso: string; endIso: string } {
  return { startIso: startOfLocalDay(from, timeZone), endIso: startOfLocalDay(addDays(to, 1), timeZone) };
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** Minutes a zone is ahead of UTC at an instant (Dar es Salaam: 180; Kathmandu: 345; New York in winter: -300). */
export function zoneOffsetMinutes(timeZone: string, ms: number): number {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    offsetFormatters.set(timeZone, f);
  }
  const p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, Number(x.value)]));
  const wall = Date.UTC(
    p.year ?? 0,
    (p.month ?? 1) - 1,
    p.day ?? 1,
    (p.hour ?? 0) % 24,
    p.minute ?? 0,
    p.second ?? 0,
  );
  return Math.round((wall - Math.floor(ms / 1000) * 1000) / MINUTE);
}
