import { parseScaled, RATE_SCALE } from '../../lib/decimal';
import { mulDivRound } from '../../lib/money';

/**
 * Conversions between a sale's currency and the base currency with the sale's rate (1 unit of the sale currency
 * = rate units of the base currency, scaled by 10^RATE_SCALE), in minor units, rounded half up.
 */
const SCALE = 10n ** BigInt(RATE_SCALE);

export function toBase(minor: number, rate: bigint, saleExp: number, baseExp: number): number {
  return mulDivRound(minor, rate * 10n ** BigInt(baseExp), SCALE * 10n ** BigInt(saleExp));
}

export function fromBase(baseMinor: number, rate: bigint, saleExp: number, baseExp: number): number {
  return mulDivRound(baseMinor, SCALE * 10n ** BigInt(saleExp), rate * 10n ** BigInt(baseExp));
}

export const rateOf = (text: string): bigint => parseScaled(text);
