/** Minutes a time zone is ahead of UTC at an instant (Dar es Salaam: 180). */
export function zoneOffsetMinutes(at: Date, timeZone: string): number {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const asUtc = Date.UTC(
    get('year'),
    get('month') - 1,
    get('day'),
    get('hour'),
    get('minute'),
    get('second'),
  );
  return Math.round((asUtc - Math.floor(at.getTime() / 1000) * 1000) / 60_000);
}

/** The instant a local day starts in a time zone, as ISO-8601 UTC: ("2026-12-01", "Africa/Dar_es_Salaam") → "2026-11-30T21:00:00.000Z". */
export function startOfDayIso(date: string, timeZone: string | undefined): string {
  const utcMidnight = Date.parse(`${date}T00:00:00Z`);
  if (!timeZone || Number.isNaN(utcMidnight)) return new Date(utcMidnight).toISOString();
  let offset: number;
  try {
    offset = zoneOffsetMinutes(new Date(utcMidnight), timeZone);
  } catch {
    offset = 0;
  }
  return new Date(utcMidnight - offset * 60_000).toISOString();
}
