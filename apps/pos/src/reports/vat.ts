import { addDecimals } from '@pharmacy/contracts/money';
import { mergeVatByRate } from '@pharmacy/contracts/pricing';

interface VatMonth {
  month: string;
  exempt: string;
  vat_collected: string;
  grand_total: string;
  sales_count: number;
  by_rate: Array<{ rate: number; taxable: string; vat: string }>;
}

/**
 * One row per VAT rate charged in the window, highest rate first: the months' by_rate rows merged by the
 * contracts' VAT-by-rate rule (mergeVatByRate: exact decimal sums).
 */
export function vatRatesOfWindow(
  months: readonly VatMonth[],
): Array<{ rate: number; taxable: string; vat: string }> {
  return mergeVatByRate(months.flatMap((m) => m.by_rate)).sort((a, b) => b.rate - a.rate);
}

/** The window's totals, added exactly from the months. */
export function vatTotals(months: readonly VatMonth[]) {
  return {
    sales_count: months.reduce((n, m) => n + m.sales_count, 0),
    exempt: addDecimals(months.map((m) => m.exempt)),
    vat_collected: addDecimals(months.map((m) => m.vat_collected)),
    grand_total: addDecimals(months.map((m) => m.grand_total)),
  };
}
