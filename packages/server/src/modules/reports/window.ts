import { dayWindow, zoneOffsetMinutes } from '@pharmacy/contracts/time';
import type { AppContext } from '../../app-context';
import { Invalid } from '../../lib/errors';
import { parseScaled, RATE_SCALE } from '../../lib/decimal';
import { mulDivRound } from '../../lib/money';
import { baseExponent, currencyExponent } from '../currency/service';
import { branchTimeZone } from '../branches/time-zone';
import { getSettings } from '../settings/service';
import { type ReportStore, reportStore } from './store';
import { addDays, daysBetween, localDate } from '@pharmacy/contracts/time';

/**
 * Report windows: whole local days of the branch (or, for the whole organisation, the settings' time zone),
 * turned into a half-open UTC interval [startIso, endIso) that the sales indexes can range over.
 */
export interface ReportWindow {
  from: string;
  to: string;
  timezone: string;
  branchId: string | undefined;
  startIso: string;
  endIso: string;
  /** Sub-hour part of the zone's offset in minutes (0 for most zones; 30 or 45 for India, Nepal…). */
  shiftMinutes: number;
  /** The report SQL of the engine the report runs on (store.ts). */
  store: ReportStore;
}

export const DEFAULT_WINDOW_DAYS = 30;

/** The time zone of a branch, or the organisation's when no branch is given (404 for an unknown branch). */
export async function reportTimeZone(app: AppContext, branchId: string | undefined): Promise<string> {
  if (!branchId) return (await getSettings(app)).timezone;
  return branchTimeZone(app.db, branchId);
}

export async function resolveWindow(
  app: AppContext,
  q: { from_date?: string; to_date?: string },
  branchId: string | undefined,
): Promise<ReportWindow> {
  const timezone = await reportTimeZone(app, branchId);
  const to = q.to_date ?? localDate(timezone);
  const from = q.from_date ?? addDays(to, -(DEFAULT_WINDOW_DAYS - 1));
  for (const [field, day] of [
    ['from_date', from],
    ['to_date', to],
  ] as const)
    if (day < '1970-01-01' || day > '2999-12-31')
      throw new Invalid(`${field} ${day} is outside 1970-01-01..2999-12-31.`, [
        { path: field, message: 'out of range' },
      ]);
  if (from > to)
    throw new Invalid(`from_date ${from} is after to_date ${to}.`, [
      { path: 'from_date', message: 'must not be after to_date' },
    ]);
  if (daysBetween(from, to) > 3660)
    throw new Invalid('The window is longer than ten years; narrow it.', [
      { path: 'from_date', message: 'window too long' },
    ]);
  const { startIso, endIso } = dayWindow(from, to, timezone);
  const shift = ((zoneOffsetMinutes(timezone, Date.parse(startIso)) % 60) + 60) % 60;
  return {
    from,
    to,
    timezone,
    branchId,
    startIso,
    endIso,
    shiftMinutes: shift,
    store: reportStore(app.db),
  };
}

/**
 * SQL expression of the hour bucket of a UTC timestamp column, shifted by the zone's sub-hour offset, so that
 * every bucket lies inside one local hour (hence one local day and month). Map it back with bucketLocalDate.
 */
export function hourBucketSql(column: string, w: ReportWindow): string {
  return w.store.hourBucket(column, w.shiftMinutes);
}

/** The local day (YYYY-MM-DD) of an hour bucket. */
export function bucketLocalDate(bucket: string, w: ReportWindow): string {
  return localDate(w.timezone, new Date(Date.parse(`${bucket}:00:00Z`) - w.shiftMinutes * 60_000));
}

/** Every day of the window, oldest first. */
export function windowDays(w: Pick<ReportWindow, 'from' | 'to'>): string[] {
  const days: string[] = [];
  for (let d = w.from; d <= w.to; d = addDays(d, 1)) days.push(d);
  return days;
}

/**
 * Converts sums held in a sale's currency into base-currency minor units with the sale's rate: line amounts
 * are grouped by (currency, rate) in SQL and converted once per group, rounded half up.
 */
export async function baseConverter(app: AppContext) {
  const baseExp = await baseExponent(app);
  const baseCode = (await getSettings(app)).base_currency_code;
  const exps = new Map<string, number>();
  return {
    baseExp,
    async toBase(minor: number, currency: string, rate: string): Promise<number> {
      if (currency === baseCode || minor === 0) return minor;
      let exp = exps.get(currency);
      if (exp === undefined) {
        exp = await currencyExponent(app, currency);
        exps.set(currency, exp);
      }
      const scaled = parseScaled(rate);
      return mulDivRound(
        minor,
        scaled * 10n ** BigInt(baseExp),
        10n ** BigInt(RATE_SCALE) * 10n ** BigInt(exp),
      );
    },
  };
}

/** A percentage with one decimal, from integers, without floating-point drift on money. */
export function pct1(part: number, whole: number): number {
  if (whole === 0) return 0;
  return mulDivRound(part, 1000n, BigInt(whole)) / 10;
}
