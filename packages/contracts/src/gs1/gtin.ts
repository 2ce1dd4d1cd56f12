import { hasValidGs1CheckDigit } from './check-digit';

const GTIN_LENGTHS = new Set([8, 12, 13, 14]);

/** Pads a valid GTIN-8/12/13/14 to the 14-digit form used for product look-up; null when invalid. */
export function normaliseGtin(code: string): string | null {
  if (!/^\d+$/.test(code) || !GTIN_LENGTHS.has(code.length) || !hasValidGs1CheckDigit(code)) return null;
  return code.padStart(14, '0');
}

/** A GTIN-14 (or shorter GTIN) that fits into EAN-13, i.e. has a leading zero indicator; null otherwise. */
export function gtinToEan13(gtin: string): string | null {
  const normalised = normaliseGtin(gtin);
  if (normalised === null || !normalised.startsWith('0')) return null;
  return normalised.slice(1);
}
