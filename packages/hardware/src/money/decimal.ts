/**
 * Exact decimal arithmetic on money strings such as "12.50".
 * Amounts travel as strings from the server (integer minor units there); floats never touch them here.
 */

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
