/** Exact decimal arithmetic for rates and percentages: the one implementation is in contracts' money module. */
export { formatScaled, invertScaled, parseScaled, RATE_SCALE } from '@pharmacy/contracts/money';
