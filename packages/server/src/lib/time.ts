/** ISO-8601 UTC with milliseconds, the one time format of the API and the database. */
export const nowIso = (): string => isoAt(Date.now());

let second = Number.NaN;
let prefix = '';

/**
 * `new Date(ms).toISOString()`, with the date and time up to the second formatted once per second: a sale
 * stamps some twenty rows, and building and formatting a Date each time cost more than its JSON.
 */
export function isoAt(ms: number): string {
  const s = Math.floor(ms / 1000);
  if (s !== second) {
    prefix = new Date(s * 1000).toISOString().slice(0, 19);
    second = s;
  }
  const frac = ms - s * 1000;
  return `${prefix}.${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}Z`;
}
