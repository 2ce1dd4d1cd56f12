/** Exact decimal arithmetic for rates and percentages, as BigInt scaled by 10^scale. */
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
