/**
 * Money, once, for server, hardware and UI. Inside the server an amount is integer minor units
 * in its currency's exponent (1250 with exponent 2 is 12.50); on the wire responses carry decimal
 * strings ("12.50") and requests numbers (12.5). Floats never do arithmetic on money: display
 * parses the server's string exactly, and sums of strings are done in bigint.
 *
 * Zod-free on purpose, so the till's bundle can import it alone (`@pharmacy/contracts/money`).
 */

/** Thrown for an amount a request may not carry; the server turns it into a 400 naming `field`. */
export class MoneyInputError extends Error {
  constructor(
    message: string,
    readonly field: string,
    readonly fieldMessage?: string,
  ) {
    super(message);
  }
}

const MAX_MINOR = Number.MAX_SAFE_INTEGER;

/** Converts a request number into minor units, refusing more decimals than the currency allows. */
export function toMinor(value: number, exponent: number, field = 'amount'): number {
  if (typeof value !== 'number' || !Number.isFinite(value))
    throw new MoneyInputError(`${field} must be a finite number`, field);
  const text = Math.abs(value).toFixed(exponent);
  if (Number(text) !== Math.abs(value)) {
    throw new MoneyInputError(
      `${field} has more than ${exponent} decimal places`,
      field,
      `at most ${exponent} decimal places`,
    );
  }
  const [whole = '0', frac = ''] = text.split('.');
  const minor = Number(whole) * 10 ** exponent + (frac ? Number(frac) : 0);
  if (minor > MAX_MINOR) throw new MoneyInputError(`${field} is too large`, field);
  return value < 0 ? -minor : minor;
}

/** Formats minor units as a decimal string: 1250, 2 -> "12.50". */
export function formatMinor(minor: number, exponent: number): string {
  if (!Number.isSafeInteger(minor)) throw new Error(`money amount ${minor} is not a safe integer`);
  return formatDecimal({ units: BigInt(minor), scale: exponent });
}

/** Parses a decimal string in the given exponent back into minor units ("12.5", 2 -> 1250). */
export function parseDecimalToMinor(text: string, exponent: number): number {
  const parsed = parseDecimal(text);
  if (parsed.scale > exponent) throw new Error(`${text} has more than ${exponent} decimal places`);
  return Number(rescale(parsed, exponent).units);
}

/**
 * Multiplies minor units by numerator/denominator (integers) and rounds half away from zero,
 * in bigint so nothing is lost on large amounts.
 */
export function mulDivRound(minor: number, numerator: bigint, denominator: bigint): number {
  if (denominator === 0n) throw new Error('division by zero');
  const product = BigInt(minor) * numerator;
  return Number(divRoundHalfAway(product, denominator));
}

function divRoundHalfAway(n: bigint, d: bigint): bigint {
  const negative = n < 0n !== d < 0n;
  const absN = n < 0n ? -n : n;
  const absD = d < 0n ? -d : d;
  const q = absN / absD;
  const rounded = (absN % absD) * 2n >= absD ? q + 1n : q;
  return negative ? -rounded : rounded;
}

// ISO 4217 exponents that differ from the usual 2 (the registry's `exponent` is the authority
// once a currency is stored; this table seeds it and serves documents printed without one).
const EXPONENT_EXCEPTIONS: Readonly<Record<string, number>> = {
  BHD: 3,
  IQD: 3,
  JOD: 3,
  KWD: 3,
  LYD: 3,
  OMR: 3,
  TND: 3,
  BIF: 0,
  CLP: 0,
  DJF: 0,
  GNF: 0,
  ISK: 0,
  JPY: 0,
  KMF: 0,
  KRW: 0,
  PYG: 0,
  RWF: 0,
  UGX: 0,
  VND: 0,
  VUV: 0,
  XAF: 0,
  XOF: 0,
  XPF: 0,
};

export function currencyExponent(currencyCode: string): number {
  const code = currencyCode.toUpperCase();
  return Object.hasOwn(EXPONENT_EXCEPTIONS, code) ? (EXPONENT_EXCEPTIONS[code] as number) : 2;
}

// Exact decimals on strings such as "12.50": for documents and screens that add up what the
// server sent without knowing (or needing) the exponent.

export interface Decimal {
  /** Value scaled by 10^scale, e.g. "12.50" -> 1250n with scale 2. */
  units: bigint;
  scale: number;
}

const DECIMAL_PATTERN = /^([+-])?(\d+)(?:\.(\d+))?$/;

export function parseDecimal(value: string): Decimal {
  const match = DECIMAL_PATTERN.exec(value.trim());
  if (!match) throw new TypeError(`Invalid decimal amount: ${JSON.stringify(value)}`);
  const [, sign, whole = '0', fraction = ''] = match;
  const units = BigInt(whole + fraction);
  return { units: sign === '-' ? -units : units, scale: fraction.length };
}

export function formatDecimal(value: Decimal): string {
  const negative = value.units < 0n;
  const digits = (negative ? -value.units : value.units).toString().padStart(value.scale + 1, '0');
  const whole = value.scale === 0 ? digits : digits.slice(0, -value.scale);
  const fraction = value.scale === 0 ? '' : `.${digits.slice(-value.scale)}`;
  return `${negative ? '-' : ''}${whole}${fraction}`;
}

function rescale(value: Decimal, scale: number): Decimal {
  if (scale < value.scale) throw new RangeError('Refusing to drop decimal places from a money amount');
  return { units: value.units * 10n ** BigInt(scale - value.scale), scale };
}

/** Rounds half away from zero to `scale` places (the server's rounding of minor units). */
export function roundDecimal(value: Decimal, scale: number): Decimal {
  if (scale >= value.scale) return rescale(value, scale);
  return { units: divRoundHalfAway(value.units, 10n ** BigInt(value.scale - scale)), scale };
}

/** Pads to at least `minScale` decimals; never rounds away digits the server sent. */
export function normaliseDecimal(value: string, minScale: number): string {
  const parsed = parseDecimal(value);
  return formatDecimal(rescale(parsed, Math.max(minScale, parsed.scale)));
}

export function addDecimals(values: readonly string[], minScale = 0): string {
  const parsed = values.map(parseDecimal);
  const scale = Math.max(minScale, ...parsed.map((d) => d.scale));
  let units = 0n;
  for (const d of parsed) units += rescale(d, scale).units;
  return formatDecimal({ units, scale });
}

export function subtractDecimals(a: string, b: string, minScale = 0): string {
  return addDecimals([a, negateDecimal(b)], minScale);
}

export function negateDecimal(value: string): string {
  const parsed = parseDecimal(value);
  return formatDecimal({ units: -parsed.units, scale: parsed.scale });
}

export function compareDecimals(a: string, b: string): -1 | 0 | 1 {
  const pa = parseDecimal(a);
  const pb = parseDecimal(b);
  const scale = Math.max(pa.scale, pb.scale);
  const ua = rescale(pa, scale).units;
  const ub = rescale(pb, scale).units;
  return ua < ub ? -1 : ua > ub ? 1 : 0;
}

export function isZeroDecimal(value: string): boolean {
  return parseDecimal(value).units === 0n;
}

/**
 * An amount for display in its currency's exponent: "12.5" -> "12.50", 3 -> "3.000",
 * "7.50" with exponent 0 -> "8". Exact (string arithmetic), whatever the server sent; a
 * number is read through its shortest decimal text. Empty, null or unreadable shows "—".
 */
export function formatMoney(value: string | number | null | undefined, exponent = 2): string {
  if (value === null || value === undefined || value === '') return '—';
  const text = typeof value === 'number' ? numberText(value) : value;
  if (text === null || !DECIMAL_PATTERN.test(text.trim())) return '—';
  return formatDecimal(roundDecimal(parseDecimal(text), exponent));
}

function numberText(value: number): string | null {
  if (!Number.isFinite(value)) return null;
  // toString gives the shortest round-tripping text; exponent forms only for |x| >= 1e21 or < 1e-6.
  const text = value.toString();
  return text.includes('e') ? value.toFixed(20).replace(/\.?0+$/, '') : text;
}

/**
 * Reads what a user typed into minor units: "12", "12.5", "12,50" (comma as the decimal mark),
 * "-3". Null when it is not an amount or has more decimals than the currency allows.
 */
export function parseMoneyInput(text: string, exponent: number): number | null {
  const cleaned = text.trim().replace(/\s/g, '').replace(',', '.');
  if (!/^-?\d+(\.\d*)?$/.test(cleaned)) return null;
  const parsed = parseDecimal(cleaned.endsWith('.') ? cleaned.slice(0, -1) : cleaned);
  if (parsed.scale > exponent) return null;
  const minor = rescale(parsed, exponent).units;
  return minor > BigInt(MAX_MINOR) || minor < -BigInt(MAX_MINOR) ? null : Number(minor);
}

/** Minor units as a request number (what the API's money fields take): 1250, 2 -> 12.5. */
export function minorToNumber(minor: number, exponent: number): number {
  return Number(formatMinor(minor, exponent));
}

// Rates and percentages (VAT rates, exchange rates) as bigint scaled by 10^scale: exact, never floats.
export const RATE_SCALE = 10;

export function parseScaled(text: string, scale = RATE_SCALE): bigint {
  const match = /^(-)?(\d+)(?:\.(\d+))?$/.exec(text.trim());
  if (!match) throw new Error(`not a decimal: ${text}`);
  const frac = (match[3] ?? '').slice(0, scale).padEnd(scale, '0');
  const value = BigInt(match[2] ?? '0') * 10n ** BigInt(scale) + BigInt(frac || '0');
  return match[1] ? -value : value;
}

/** Formats a scaled value with `dp` decimals, rounding half away from zero; trims trailing zeros when asked. */
export function formatScaled(value: bigint, scale = RATE_SCALE, dp = scale, trim = false): string {
  const negative = value < 0n;
  let abs = negative ? -value : value;
  if (dp < scale) {
    const div = 10n ** BigInt(scale - dp);
    const r = abs % div;
    abs = abs / div + (r * 2n >= div ? 1n : 0n);
  }
  const digits = abs.toString().padStart(dp + 1, '0');
  let text = dp === 0 ? digits : `${digits.slice(0, -dp)}.${digits.slice(-dp)}`;
  if (trim && dp > 0) text = text.replace(/\.?0+$/, '');
  return `${negative && abs !== 0n ? '-' : ''}${text}`;
}

/** 1 / x for a scaled value, at the same scale, rounded half up. */
export function invertScaled(value: bigint, scale = RATE_SCALE): bigint {
  const one = 10n ** BigInt(scale * 2);
  return (one * 2n + value) / (value * 2n);
}

// Exchange: a rate says what 1 unit of a currency is worth in the base currency (scaled by 10^RATE_SCALE).
const RATE_ONE = 10n ** BigInt(RATE_SCALE);

/** An amount of a (sale or tender) currency in the base currency, minor units, rounded half away from zero. */
export function toBase(minor: number, rate: bigint, exp: number, baseExp: number): number {
  return mulDivRound(minor, rate * 10n ** BigInt(baseExp), RATE_ONE * 10n ** BigInt(exp));
}

/** A base-currency amount in another currency at `rate`, minor units, rounded half away from zero. */
export function fromBase(baseMinor: number, rate: bigint, exp: number, baseExp: number): number {
  return mulDivRound(baseMinor, RATE_ONE * 10n ** BigInt(exp), rate * 10n ** BigInt(baseExp));
}

// ---------------------------------------------------------------------------------------------------------
// Cash tender sanity (issue 27 finding 9): one rule for the payment dialog and the sale route.
// ---------------------------------------------------------------------------------------------------------

/**
 * A cash tender above this many times the amount due needs the cashier's confirmation (the payment dialog asks;
 * the sale route refuses it without `confirm_large_cash`). A scanned barcode typed into the cash field is
 * thousands of times the total; a customer's largest note for a small sale is not, so the threshold never
 * falls below one largest note and never rises above a hundred of them — except that the amount due plus one
 * largest note is always plausible (a large sale paid exactly, or rounded up to the next note).
 */
export const CASH_TENDER_CONFIRM_MULTIPLE = 20;

/** The largest banknote in common use, in major units, for the currencies a till is likely to hold. */
const LARGEST_NOTE: ReadonlyMap<string, number> = new Map([
  ['USD', 100],
  ['EUR', 500],
  ['GBP', 50],
  ['CHF', 1000],
  ['CAD', 100],
  ['AUD', 100],
  ['JPY', 10000],
  ['KES', 1000],
  ['TZS', 10000],
  ['UGX', 50000],
  ['RWF', 5000],
  ['ETB', 200],
  ['NGN', 1000],
  ['GHS', 200],
  ['ZAR', 200],
  ['XOF', 10000],
  ['XAF', 10000],
  ['MAD', 200],
  ['EGP', 200],
  ['SAR', 500],
  ['AED', 1000],
  ['INR', 500],
  ['PKR', 5000],
  ['BDT', 1000],
]);
/** For a currency not in the table: 100 major units as its "largest note". */
const DEFAULT_LARGEST_NOTE = 100;

/** Minor units above which a cash tender needs confirmation, for an amount due in `currency`. */
export function cashConfirmThreshold(dueMinor: number, currency: string, exponent: number): number {
  const note = (LARGEST_NOTE.get(currency.toUpperCase()) ?? DEFAULT_LARGEST_NOTE) * 10 ** exponent;
  const ceiling = Math.max(note * 100, dueMinor + note);
  return Math.min(Math.max(dueMinor * CASH_TENDER_CONFIRM_MULTIPLE, note), ceiling);
}

/** True when `cashMinor` is more cash than a customer plausibly hands over for `dueMinor`. */
export function cashNeedsConfirmation(
  cashMinor: number,
  dueMinor: number,
  currency: string,
  exponent: number,
): boolean {
  return cashMinor > cashConfirmThreshold(dueMinor, currency, exponent);
}
