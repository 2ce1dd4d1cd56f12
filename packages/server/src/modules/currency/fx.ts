import { parseScaled } from '@pharmacy/contracts/money';

/**
 * Conversions between a sale's currency and the base currency with the sale's rate: the one implementation is
 * in contracts' money module (the till's payment dialog converts with it too).
 */
export { fromBase, toBase } from '@pharmacy/contracts/money';

export const rateOf = (text: string): bigint => parseScaled(text);
