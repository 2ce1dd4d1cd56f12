import { Invalid } from '../http/errors';

/**
 * Money is integer minor units everywhere inside the server; requests carry numbers,
 * responses carry decimal strings. These are the only two crossings.
 */

const MAX_MINOR = Number.MAX_SAFE_INTEGER;

/** Converts a request number into minor units, refusing more decimals than the currency allows. */
export function toMinor(value: number, exponent: number, field = 'amount'): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new Invalid(`${field} must be a finite number`);
  const text = Math.abs(value).toFixed(exponent);
  if (Number(text) !== Math.abs(value)) {
    throw new Invalid(`${field} has more than ${exponent} decimal places`, [
      { path: field, message: `at most ${exponent} decimal places` },
    ]);
  }
  const [whole = '0', frac = ''] = text.split('.');
  const minor = Number(whole) * 10 ** exponent + (frac ? Number(frac) : 0);
  if (minor > MAX_MINOR) throw new Invalid(`${field} is too large`);
  return value < 0 ? -minor : minor;
}

/** Formats minor units as a decimal string: 1250, 2 -> "12.50". */
export function formatMinor(minor: number, exponent: number): string {
  if (!Number.isSafeInteger(minor)) throw new Error(`money amount ${minor} is not a safe integer`);
  const negative = minor < 0;
  const digits = Math.abs(minor)
    .toString()
    .padStart(exponent + 1, '0');
  const whole = exponent === 0 ? digits : digits.slice(0, -exponent);
  const frac = exponent === 0 ? '' : `.${digits.slice(-exponent)}`;
  return `${negative ? '-' : ''}${whole}${frac}`;
}

/** Parses a decimal string in the given exponent back into minor units ("12.5", 2 -> 1250). */
export function parseDecimalToMinor(text: string, exponent: number): number {
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new Error(`not a decimal amount: ${text}`);
  const frac = (match[3] ?? '').padEnd(exponent, '0');
  if (frac.length > exponent) throw new Error(`${text} has more than ${exponent} decimal places`);
  const minor = Number(match[2]) * 10 ** exponent + (frac ? Number(frac) : 0);
  return match[1] ? -minor : minor;
}

/**
 * Multiplies minor units by a ratio given as numerator/denominator (integers) and rounds half away from zero,
 * using BigInt so no precision is lost on large amounts.
 */
export function mulDivRound(minor: number, numerator: bigint, denominator: bigint): number {
  if (denominator === 0n) throw new Error('division by zero');
  const product = BigInt(minor) * numerator;
  const negative = product < 0n !== denominator < 0n;
  const absP = product < 0n ? -product : product;
  const absD = denominator < 0n ? -denominator : denominator;
  const q = absP / absD;
  const r = absP % absD;
  const rounded = r * 2n >= absD ? q + 1n : q;
  return Number(negative ? -rounded : rounded);
}
