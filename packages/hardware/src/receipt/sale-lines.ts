import {
  formatDecimal,
  isZeroDecimal,
  normaliseDecimal,
  parseDecimal,
  subtractDecimals,
} from '@pharmacy/contracts/money';
import type { ReceiptLine, VatBreakdownRow } from './document-types';
import { present } from './organisation-input';

export interface SaleItemInput {
  name: string;
  quantity: string | number;
  unit_price: string;
  /**
   * The line's own discount. A sale line's `discount` also holds its share of the basket discounts; pass
   * `line_discount` then, so each discount prints once.
   */
  discount?: string | null;
  line_discount?: string | null;
  /** quantity x unit price before discounts; computed when absent (a credit note passes what it refunds). */
  amount?: string | null;
  line_total: string;
  /** Percent, e.g. "15". */
  vat_rate?: string | number | null;
}

export interface VatBreakdownInput {
  rate: string | number;
  taxable_amount: string;
  vat_amount: string;
}

/** "15.00" and 15 name the same rate; compare and print them as "15". */
export function canonicalRate(rate: string | number): string {
  const parsed = parseDecimal(String(rate));
  let { units, scale } = parsed;
  while (scale > 0 && units % 10n === 0n) {
    units /= 10n;
    scale--;
  }
  return formatDecimal({ units, scale });
}

/** quantity x unit price, exactly; null when the quantity is not a whole number. */
function extended(quantity: string | number, unitPrice: string, moneyScale: number): string | null {
  const text = String(quantity);
  if (!/^\d+$/.test(text)) return null;
  const price = parseDecimal(unitPrice);
  return normaliseDecimal(
    formatDecimal({ units: price.units * BigInt(text), scale: price.scale }),
    moneyScale,
  );
}

export function buildReceiptLines(items: readonly SaleItemInput[], moneyScale: number): ReceiptLine[] {
  return items.map((item) => {
    const discount = normaliseDecimal(
      present(item.line_discount) ?? present(item.discount) ?? '0',
      moneyScale,
    );
    const given = present(item.amount);
    const amount = given
      ? normaliseDecimal(given, moneyScale)
      : (extended(item.quantity, item.unit_price, moneyScale) ??
        normaliseDecimal(item.line_total, moneyScale));
    return {
      name: item.name,
      quantity: String(item.quantity),
      unitPrice: normaliseDecimal(item.unit_price, moneyScale),
      amount,
      discount,
      lineTotal: subtractDecimals(amount, discount, moneyScale),
      vatRate: item.vat_rate === undefined || item.vat_rate === null ? '' : canonicalRate(item.vat_rate),
    };
  });
}

/** One row per rate, highest rate first. */
export function buildVatBreakdown(
  breakdown: readonly VatBreakdownInput[],
  moneyScale: number,
): VatBreakdownRow[] {
  return breakdown
    .map((row) => ({
      rate: canonicalRate(row.rate),
      taxableAmount: normaliseDecimal(row.taxable_amount, moneyScale),
      vatAmount: normaliseDecimal(row.vat_amount, moneyScale),
    }))
    .sort((a, b) => Number(b.rate) - Number(a.rate));
}

export function nonZero(amount: string): boolean {
  return !isZeroDecimal(amount);
}
