import {
  addDecimals,
  formatDecimal,
  isZeroDecimal,
  normaliseDecimal,
  parseDecimal,
} from '@pharmacy/contracts/money';
import type { ReceiptLine, VatBreakdownRow } from './document-types';
import { present } from './organisation-input';

export interface SaleItemInput {
  name: string;
  quantity: string | number;
  unit_price: string;
  discount?: string | null;
  line_total: string;
  vat_category?: string | null;
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

const CATEGORY_LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';

/**
 * Gives every VAT rate one letter: the item's own category when the server sent one, otherwise
 * A, B, C... in breakdown order, so lines and breakdown rows always match up on paper.
 */
export function assignVatCategories(
  items: readonly SaleItemInput[],
  breakdown: readonly VatBreakdownInput[],
): Map<string, string> {
  const byRate = new Map<string, string>();
  for (const item of items) {
    const category = present(item.vat_category);
    if (category && item.vat_rate !== undefined && item.vat_rate !== null) {
      const rate = canonicalRate(item.vat_rate);
      if (!byRate.has(rate)) byRate.set(rate, category);
    }
  }
  const used = new Set(byRate.values());
  const rates = [
    ...breakdown.map((row) => canonicalRate(row.rate)),
    ...items.flatMap((item) =>
      item.vat_rate === undefined || item.vat_rate === null ? [] : [canonicalRate(item.vat_rate)],
    ),
  ];
  for (const rate of rates) {
    if (byRate.has(rate)) continue;
    const letter = [...CATEGORY_LETTERS].find((l) => !used.has(l)) ?? '?';
    byRate.set(rate, letter);
    used.add(letter);
  }
  return byRate;
}

export function buildReceiptLines(
  items: readonly SaleItemInput[],
  categories: Map<string, string>,
  moneyScale: number,
): ReceiptLine[] {
  return items.map((item) => {
    const rate =
      item.vat_rate === undefined || item.vat_rate === null ? undefined : canonicalRate(item.vat_rate);
    return {
      name: item.name,
      quantity: String(item.quantity),
      unitPrice: normaliseDecimal(item.unit_price, moneyScale),
      discount: normaliseDecimal(present(item.discount) ?? '0', moneyScale),
      lineTotal: normaliseDecimal(item.line_total, moneyScale),
      vatCategory: present(item.vat_category) ?? (rate === undefined ? '' : (categories.get(rate) ?? '')),
    };
  });
}

export function buildVatBreakdown(
  breakdown: readonly VatBreakdownInput[],
  categories: Map<string, string>,
  moneyScale: number,
): VatBreakdownRow[] {
  return breakdown.map((row) => {
    const rate = canonicalRate(row.rate);
    return {
      category: categories.get(rate),
      rate,
      taxableAmount: normaliseDecimal(row.taxable_amount, moneyScale),
      vatAmount: normaliseDecimal(row.vat_amount, moneyScale),
    };
  });
}

export function sumLineDiscounts(lines: readonly ReceiptLine[], moneyScale: number): string {
  return addDecimals(
    lines.map((line) => line.discount),
    moneyScale,
  );
}

export function nonZero(amount: string): boolean {
  return !isZeroDecimal(amount);
}
