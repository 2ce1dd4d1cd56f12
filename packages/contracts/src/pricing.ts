import {
  type Decimal,
  formatDecimal,
  formatScaled,
  mulDivRound,
  parseDecimal,
  parseDecimalToMinor,
  parseScaled,
  RATE_SCALE,
  roundDecimal,
} from './money';

/**
 * Sale arithmetic, once for the server's sale and the till's estimate (zod-free: `@pharmacy/contracts/pricing`),
 * pure and integer-only (minor units; VAT rates as BigInt percent scaled by 10^RATE_SCALE).
 *
 * Per line: amount = unit_price x quantity - line discount - its share of the basket discount (global + coupon).
 *  - VAT-inclusive prices: the amount is the gross; vat = round_half_up(gross x rate / (100 + rate)); net = gross - vat.
 *  - VAT-exclusive prices: the amount is the net; vat = round_half_up(net x rate / 100); gross = net + vat.
 * Totals are sums of the lines (subtotal = sum of nets, vat = sum of VAT, total = sum of grosses), so they always
 * add up; vat_breakdown groups the lines by rate.
 *
 * The basket discount is allocated across lines in proportion to their amounts after line discounts, by the
 * largest-remainder method: each line gets the floor of its exact share and the leftover minor units go one by one
 * to the lines with the largest fractional parts (ties: the larger line, then the earlier). This keeps every share
 * within one minor unit of the exact proportion and never above the line's own amount, so VAT stays per line.
 */

const HUNDRED = 100n * 10n ** BigInt(RATE_SCALE);

export const scaledRate = (percent: number): bigint => parseScaled(String(percent));
export const rateText = (scaled: bigint): string => formatScaled(scaled, RATE_SCALE, RATE_SCALE, true);

export interface LineInput {
  unitPrice: number;
  quantity: number;
  lineDiscount: number;
  rate: bigint;
}

export interface PricedLine {
  gross: number;
  net: number;
  vat: number;
  /** unit price x quantity before any discount */
  extended: number;
  lineDiscount: number;
  allocatedDiscount: number;
}

export interface PricedSale {
  lines: PricedLine[];
  subtotal: number;
  vat: number;
  total: number;
  lineDiscount: number;
  breakdown: Array<{ rate: string; taxable: number; vat: number }>;
}

/** Splits `total` across `weights` proportionally (largest remainder); the parts sum to `total`. */
export function allocate(total: number, weights: number[]): number[] {
  const sum = weights.reduce((a, b) => a + b, 0);
  if (total === 0 || sum === 0) return weights.map(() => 0);
  if (total > sum) throw new Error('cannot allocate more than the weights');
  const T = BigInt(total);
  const S = BigInt(sum);
  const parts = weights.map((w) => {
    const exact = T * BigInt(w);
    return { floor: Number(exact / S), rem: exact % S };
  });
  let left = total - parts.reduce((a, p) => a + p.floor, 0);
  const order = weights
    .map((_w, i) => i)
    .sort((a, b) => {
      const ra = parts[a]!.rem;
      const rb = parts[b]!.rem;
      if (ra !== rb) return ra > rb ? -1 : 1;
      return weights[b]! - weights[a]! || a - b;
    });
  const out = parts.map((p) => p.floor);
  for (const i of order) {
    if (left === 0) break;
    out[i]! += 1;
    left--;
  }
  return out;
}

/** VAT of one line amount. */
export function lineVat(
  amount: number,
  rate: bigint,
  pricesIncludeVat: boolean,
): { net: number; vat: number; gross: number } {
  if (pricesIncludeVat) {
    const vat = mulDivRound(amount, rate, HUNDRED + rate);
    return { net: amount - vat, vat, gross: amount };
  }
  const vat = mulDivRound(amount, rate, HUNDRED);
  return { net: amount, vat, gross: amount + vat };
}

/** Sum of the line amounts after line discounts: what global discounts and coupons apply to. */
export const basketAfterLineDiscounts = (lines: LineInput[]): number =>
  lines.reduce((a, l) => a + l.unitPrice * l.quantity - l.lineDiscount, 0);

/** Prices lines with a basket discount already known (global discount + coupon amount), in minor units. */
export function priceSale(lines: LineInput[], basketDiscount: number, pricesIncludeVat: boolean): PricedSale {
  const afterLine = lines.map((l) => l.unitPrice * l.quantity - l.lineDiscount);
  if (afterLine.some((a) => a < 0)) throw new Error('a line discount exceeds the line amount');
  const shares = allocate(basketDiscount, afterLine);
  const priced: PricedLine[] = lines.map((l, i) => {
    const amount = afterLine[i]! - shares[i]!;
    const v = lineVat(amount, l.rate, pricesIncludeVat);
    return {
      ...v,
      extended: l.unitPrice * l.quantity,
      lineDiscount: l.lineDiscount,
      allocatedDiscount: shares[i]!,
    };
  });
  const byRate = vatByRate(
    priced.map((p, i) => ({ rate: rateText(lines[i]!.rate), net: p.net, vat: p.vat })),
  );
  return {
    lines: priced,
    subtotal: priced.reduce((a, p) => a + p.net, 0),
    vat: priced.reduce((a, p) => a + p.vat, 0),
    total: priced.reduce((a, p) => a + p.gross, 0),
    lineDiscount: lines.reduce((a, l) => a + l.lineDiscount, 0),
    breakdown: byRate.sort((a, b) => Number(b.rate) - Number(a.rate)),
  };
}

/**
 * Lines' net and VAT summed per rate, in the order the rates first appear: the VAT breakdown a sale, a credit
 * note and their documents carry (one rule for the till's estimate, the sale, the return and the credit note).
 */
export function vatByRate<R extends string | number>(
  lines: Iterable<{ rate: R; net: number; vat: number }>,
): Array<{ rate: R; taxable: number; vat: number }> {
  const byRate = new Map<R, { rate: R; taxable: number; vat: number }>();
  for (const l of lines) {
    const row = byRate.get(l.rate) ?? { rate: l.rate, taxable: 0, vat: 0 };
    row.taxable += l.net;
    row.vat += l.vat;
    byRate.set(l.rate, row);
  }
  return [...byRate.values()];
}

/**
 * Rows already summed per rate whose amounts are decimal strings (a report's months, each with its by_rate),
 * merged by vatByRate's rule: one row per rate, in the order the rates first appear, amounts added exactly at
 * the finest scale among them. Each amount is read as integer units of that scale, as the server wrote it from
 * minor units, so the sums stay exact.
 */
export function mergeVatByRate<R extends string | number>(
  rows: Iterable<{ rate: R; taxable: string; vat: string }>,
): Array<{ rate: R; taxable: string; vat: string }> {
  const parsed = [...rows].map((r) => ({
    rate: r.rate,
    taxable: parseDecimal(r.taxable),
    vat: parseDecimal(r.vat),
  }));
  const scale = Math.max(0, ...parsed.flatMap((r) => [r.taxable.scale, r.vat.scale]));
  const units = (d: Decimal) => Number(roundDecimal(d, scale).units);
  const text = (n: number) => formatDecimal({ units: BigInt(n), scale });
  return vatByRate(parsed.map((r) => ({ rate: r.rate, net: units(r.taxable), vat: units(r.vat) }))).map(
    (r) => ({
      rate: r.rate,
      taxable: text(r.taxable),
      vat: text(r.vat),
    }),
  );
}

/** A coupon's terms as stored: percent in basis points (1050 = 10.50 %), fixed value and cap in base minor units. */
export interface CouponTerms {
  discount_type: 'percent' | 'fixed';
  discount_value: number;
  max_discount: number | null;
}

/**
 * A coupon's discount on a basket (sale currency, after line and global discounts); `fromBase` converts a
 * base-currency amount (fixed value, cap) into the sale currency. Never more than the basket, never negative.
 */
export function couponDiscount(
  c: CouponTerms,
  basket: number,
  fromBase: (baseMinor: number) => number = (x) => x,
): number {
  let d =
    c.discount_type === 'percent'
      ? mulDivRound(basket, BigInt(c.discount_value), 10_000n)
      : fromBase(c.discount_value);
  if (c.discount_type === 'percent' && c.max_discount !== null) d = Math.min(d, fromBase(c.max_discount));
  return Math.max(0, Math.min(d, basket));
}

export interface CartInput {
  lines: LineInput[];
  /** The cashier's discount on the whole basket, minor units; at most the basket after line discounts. */
  globalDiscount: number;
  /** The applied coupon's terms, or null. */
  coupon: CouponTerms | null;
  pricesIncludeVat: boolean;
  fromBase?: (baseMinor: number) => number;
}

export interface PricedCart extends PricedSale {
  globalDiscount: number;
  /** What the coupon takes off the basket left after the global discount (0: the coupon does not apply). */
  couponDiscount: number;
}

/**
 * The price of a cart, as the server's sale computes it and the till estimates it: line discounts, then the
 * global discount, then the coupon on what is left, spread over the lines (largest remainder), VAT per line.
 */
export function priceCart(cart: CartInput): PricedCart {
  const basket = basketAfterLineDiscounts(cart.lines);
  const globalDiscount = Math.min(cart.globalDiscount, Math.max(0, basket));
  const coupon = cart.coupon ? couponDiscount(cart.coupon, basket - globalDiscount, cart.fromBase) : 0;
  return {
    ...priceSale(cart.lines, globalDiscount + coupon, cart.pricesIncludeVat),
    globalDiscount,
    couponDiscount: coupon,
  };
}

/** A coupon as the API shows it (decimal strings) into its terms: percent in basis points, money in minor units. */
export function couponTermsOf(
  c: { discount_type: 'percent' | 'fixed'; discount_value: string; max_discount: string | null },
  exponent: number,
): CouponTerms {
  return {
    discount_type: c.discount_type,
    discount_value: parseDecimalToMinor(c.discount_value, c.discount_type === 'percent' ? 2 : exponent),
    max_discount: c.max_discount === null ? null : parseDecimalToMinor(c.max_discount, exponent),
  };
}
