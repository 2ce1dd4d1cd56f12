import { addDecimals } from '@pharmacy/contracts/money';

interface VatMonth {
  month: string;
  exempt: string;
  vat_collected: string;
  grand_total: string;
  sales_count: number;
  by_rate: Array<{ rate: number; taxable: string; vat: string }>;
}

/** One row per VAT rate charged in the window (the months' by_rate buckets added exactly), highest rate first. */
export function vatByRate(
  months: readonly VatMonth[],
): Array<{ rate: number; taxable: string; vat: string }> {
  const rates = new Map<number, { taxable: string[]; vat: string[] }>();
  for (const m of months) {
    for (const r of m.by_rate) {
      const bucket = rates.get(r.rate) ?? { taxable: [], vat: [] };
      bucket.taxable.push(r.taxable);
      bucket.vat.push(r.vat);
      rates.set(r.rate, bucket);
    }
  }
  return [...rates.entries()]
    .sort(([a], [b]) => b - a)
    .map(([rate, b]) => ({ rate, taxable: addDecimals(b.taxable), vat: addDecimals(b.vat) }));
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
