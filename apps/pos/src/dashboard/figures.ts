import { formatMinor, mulDivRound, parseDecimalToMinor } from '@pharmacy/contracts/money';
import { addDays } from '@pharmacy/contracts/time';

/** The average basket, exact: total / count rounded half away from zero in the currency's minor units. */
export function averageOf(total: string, count: number, exponent: number): string {
  if (count <= 0) return formatMinor(0, exponent);
  return formatMinor(mulDivRound(parseDecimalToMinor(total, exponent), 1n, BigInt(count)), exponent);
}

/** The first day of the month of a local date: "2026-11-25" → "2026-11-01". */
export function monthStart(date: string): string {
  return `${date.slice(0, 8)}01`;
}

/** The last `days` local days ending with `to` (inclusive): ["2026-10-27", "2026-11-25"] for 30. */
export function lastDays(to: string, days: number): { from_date: string; to_date: string } {
  return { from_date: addDays(to, -(days - 1)), to_date: to };
}
