import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  addDays,
  dayWindow,
  daysBetween,
  isTimeZone,
  localDate,
  startOfLocalDay,
  startOfLocalDayMs,
  zoneOffsetMinutes,
} from './time';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;
const ZONES = ['Europe/London', 'America/New_York', 'America/Santiago', 'Australia/Lord_Howe'] as const;

/** The local dates in `year` on which the zone's offset changes (a daily step, then hourly inside the day). */
function transitionDays(timeZone: string, year: number): string[] {
  const days: string[] = [];
  for (let noon = Date.UTC(year, 0, 1, 12); noon < Date.UTC(year + 1, 0, 1, 12); noon += DAY) {
    if (zoneOffsetMinutes(timeZone, noon) === zoneOffsetMinutes(timeZone, noon + DAY)) continue;
    let t = noon;
    while (zoneOffsetMinutes(timeZone, t + HOUR) === zoneOffsetMinutes(timeZone, noon)) t += HOUR;
    days.push(localDate(timeZone, t + HOUR));
  }
  return days;
}

/** The first minute whose local date is `date`, by walking hour by hour, then minute by minute: obviously right. */
function firstMinuteOf(date: string, timeZone: string): number {
  let t = Date.parse(`${date}T00:00:00Z`) - 15 * HOUR;
  while (localDate(timeZone, t + HOUR) < date) t += HOUR;
  while (localDate(timeZone, t) < date) t += MINUTE;
  return t;
}

describe('contracts/time: local days across daylight-saving changes', () => {
  it('finds two transition days a year in each zone (the sweep below covers real changes)', () => {
    for (const zone of ZONES) {
      for (const year of [2026, 2027]) expect(transitionDays(zone, year), `${zone} ${year}`).toHaveLength(2);
    }
  });

  it('starts each transition day (and the days either side) at its first local minute, every 15 minutes of it inside', () => {
    let checked = 0;
    for (const zone of ZONES) {
      for (const year of [2026, 2027]) {
        for (const day of transitionDays(zone, year).flatMap((d) => [addDays(d, -1), d, addDays(d, 1)])) {
          const start = startOfLocalDayMs(day, zone);
          const end = startOfLocalDayMs(addDays(day, 1), zone);
          expect(start, `${zone} ${day}`).toBe(firstMinuteOf(day, zone));
          expect(localDate(zone, start - 1000), `${zone} ${day} a second before`).toBe(addDays(day, -1));
          expect([23, 23.5, 24, 24.5, 25], `${zone} ${day} length`).toContain((end - start) / HOUR);
          for (let t = start; t < end; t += 15 * MINUTE) {
            expect(localDate(zone, t), `${zone} ${new Date(t).toISOString()}`).toBe(day);
            checked++;
          }
          expect(localDate(zone, end)).toBe(addDays(day, 1));
        }
      }
    }
    expect(checked).toBeGreaterThan(4 * 2 * 2 * 3 * 90);
  });

  it('puts every hour of the transition days inside exactly one day window', () => {
    for (const zone of ZONES) {
      const windows = new Map<string, { startIso: string; endIso: string }>();
      for (const day of transitionDays(zone, 2026)) {
        const sweepStart = Date.parse(`${addDays(day, -1)}T00:00:00Z`);
        for (let t = sweepStart; t < sweepStart + 72 * HOUR; t += HOUR) {
          const local = localDate(zone, t);
          const w = windows.get(local) ?? dayWindow(local, local, zone);
          windows.set(local, w);
          expect(
            Date.parse(w.startIso) <= t && t < Date.parse(w.endIso),
            `${zone} ${new Date(t).toISOString()}`,
          ).toBe(true);
        }
      }
    }
  });

  it('property: any instant near a change (or anywhere in 2026-2027) lies in the window of its own local day', () => {
    const changes = ZONES.flatMap((zone) =>
      [2026, 2027].flatMap((year) => transitionDays(zone, year).map((day) => ({ zone, day }))),
    );
    const nearChange = fc
      .record({ change: fc.constantFrom(...changes), minutes: fc.integer({ min: -36 * 60, max: 60 * 60 }) })
      .map(({ change, minutes }) => ({
        zone: change.zone,
        t: Date.parse(`${change.day}T00:00:00Z`) + minutes * MINUTE,
      }));
    const anywhere = fc.record({
      zone: fc.constantFrom(
        ...ZONES,
        'Asia/Kathmandu',
        'America/St_Johns',
        'Pacific/Kiritimati',
        'Etc/GMT+12',
      ),
      t: fc.integer({ min: Date.UTC(2026, 0, 1), max: Date.UTC(2028, 0, 1) }),
    });
    fc.assert(
      fc.property(fc.oneof(nearChange, anywhere), ({ zone, t }) => {
        const day = localDate(zone, t);
        const start = startOfLocalDayMs(day, zone);
        const end = startOfLocalDayMs(addDays(day, 1), zone);
        expect(start <= t && t < end).toBe(true);
        expect(localDate(zone, start)).toBe(day);
        expect(localDate(zone, start - 1000)).toBe(addDays(day, -1));
        expect([23, 23.5, 24, 24.5, 25]).toContain((end - start) / HOUR);
      }),
      { numRuns: 2000 },
    );
  });

  it('starts the day when clocks jump over midnight at 01:00 local, not an hour early in the day before', () => {
    // Santiago, 2026-09-06: Saturday 24:00 (-04) becomes Sunday 01:00 (-03); there is no Sunday 00:00.
    expect(startOfLocalDay('2026-09-06', 'America/Santiago')).toBe('2026-09-06T04:00:00.000Z');
    // Santiago, 2026-04-05: Saturday 24:00 (-03) goes back to Saturday 23:00 (-04): Sunday starts once, at -04.
    expect(startOfLocalDay('2026-04-05', 'America/Santiago')).toBe('2026-04-05T04:00:00.000Z');
    expect(startOfLocalDay('2026-03-29', 'Europe/London')).toBe('2026-03-29T00:00:00.000Z');
    expect(startOfLocalDay('2026-03-30', 'Europe/London')).toBe('2026-03-29T23:00:00.000Z');
    expect(startOfLocalDay('2026-06-01', 'Asia/Kathmandu')).toBe('2026-05-31T18:15:00.000Z');
    expect(startOfLocalDay('2026-06-01', 'America/St_Johns')).toBe('2026-06-01T02:30:00.000Z');
  });

  it('turns the date at local midnight, also when asked again within the same minute, and reads a missing or unknown zone as UTC', () => {
    const at = (iso: string) => new Date(iso);
    expect(localDate('Africa/Dar_es_Salaam', at('2026-11-22T20:59:59.999Z'))).toBe('2026-11-22');
    expect(localDate('Africa/Dar_es_Salaam', at('2026-11-22T21:00:00.000Z'))).toBe('2026-11-23');
    expect(localDate('Africa/Dar_es_Salaam', at('2026-11-22T20:59:30.000Z'))).toBe('2026-11-22');
    expect(localDate(undefined, at('2026-03-01T23:30:00Z'))).toBe('2026-03-01');
    expect(localDate('Not/AZone', at('2026-03-01T23:30:00Z'))).toBe('2026-03-01');
    expect(startOfLocalDay('2026-03-01', 'Not/AZone')).toBe('2026-03-01T00:00:00.000Z');
    expect(daysBetween('2026-02-27', addDays('2026-02-27', 3))).toBe(3);
  });
});

describe('contracts/time: isTimeZone', () => {
  it('knows IANA zones and refuses other names, the same answer when asked again', () => {
    for (let round = 0; round < 2; round++) {
      expect(['Africa/Dar_es_Salaam', 'Europe/London', 'America/New_York', 'UTC'].map(isTimeZone)).toEqual([
        true,
        true,
        true,
        true,
      ]);
      expect(
        ['Mars/Olympus_Mons', 'constructor', '__proto__', '', 'Africa/Dar es Salaam'].map(isTimeZone),
      ).toEqual([false, false, false, false, false]);
    }
  });
});
