import { z } from 'zod';
import { DecimalString, Id, IsoDate, Timestamp } from './common';

const Format = z.enum(['json', 'csv'], { message: 'must be json or csv' }).default('json');

/** Windowed reports: from_date..to_date inclusive, local days of the branch (or the organisation). */
export const ReportWindowQuery = z.object({
  from_date: IsoDate.optional().describe('first day, YYYY-MM-DD; default 29 days before to_date'),
  to_date: IsoDate.optional().describe("last day, YYYY-MM-DD; default today in the report's time zone"),
  branch_id: Id.optional(),
  format: Format,
});

const csvSection = <const T extends readonly [string, ...string[]]>(sections: T) =>
  z.enum(sections, { message: `must be one of ${sections.join(', ')}` }).optional();

export const SalesReportQuery = ReportWindowQuery.extend({
  section: csvSection(['by_day', 'by_payment', 'top_selling', 'recent'] as const).describe(
    'CSV only; default by_day',
  ),
});
export const PurchasesReportQuery = ReportWindowQuery.extend({
  section: csvSection(['by_supplier', 'by_medicine'] as const).describe('CSV only; default by_supplier'),
});
export const InventoryReportQuery = z.object({
  branch_id: Id.optional(),
  format: Format,
  section: csvSection(['by_category', 'low_stock_list'] as const).describe('CSV only; default by_category'),
});

const ReportWindow = z.object({
  from_date: z.string(),
  to_date: z.string(),
  timezone: z.string(),
  branch_id: z.string().nullable(),
});

export const SalesReport = ReportWindow.extend({
  totals: z.object({
    sales_count: z.number().int(),
    gross_revenue: DecimalString.describe('the sales, VAT included, after discounts, in the base currency'),
    returns_count: z.number().int().describe('credit notes refunded in the window'),
    returns_total: DecimalString.describe('what they refunded, VAT included'),
    net_revenue: DecimalString.describe('gross_revenue - returns_total (VAT included; VAT apart in vat)'),
    revenue: DecimalString.describe(
      "the spec's revenue: net_revenue (every revenue figure is net of the returns refunded in the window)",
    ),
    gross_vat: DecimalString.describe('VAT of the sales'),
    returns_vat: DecimalString.describe('VAT of the credit notes'),
    vat: DecimalString.describe('gross_vat - returns_vat: the VAT the window collected'),
    average_sale: DecimalString.describe('gross_revenue / sales_count'),
  }),
  by_day: z.array(
    z.object({
      date: z.string(),
      sales_count: z.number().int(),
      gross_revenue: DecimalString,
      returns: DecimalString.describe('credit notes refunded that day'),
      net_revenue: DecimalString.describe('gross_revenue - returns'),
      revenue: DecimalString.describe("the spec's daily total: net_revenue"),
      vat: DecimalString.describe('net of the returns'),
    }),
  ),
  by_payment: z.array(
    z.object({
      method: z.string(),
      sales_count: z.number().int(),
      refunds: DecimalString.describe('credit notes refunded in this tender'),
      total: DecimalString.describe('kept: tendered (cash net of change) minus refunds'),
    }),
  ),
  top_selling: z.array(
    z.object({
      medicine_id: z.string(),
      medicine_name: z.string(),
      quantity: z.number().int(),
      revenue: DecimalString.describe('VAT included, net of returns (a fully refunded medicine has 0)'),
      net_revenue: DecimalString.describe('without VAT, net of returns'),
      cost: DecimalString.describe('FEFO cost of the units sold, minus that of the units returned'),
      gross_profit: DecimalString.describe('net_revenue - cost'),
      margin_pct: z.number().describe('gross_profit / net_revenue x 100, one decimal; 0 for zero revenue'),
    }),
  ),
  recent: z.array(
    z.object({
      id: z.string(),
      invoice_number: z.string(),
      branch_id: z.string(),
      user_id: z.string(),
      pharmacist_name: z.string().nullable(),
      total_amount: DecimalString,
      payment_method: z.string(),
      sold_at: Timestamp,
    }),
  ),
});

export const PharmacistReport = ReportWindow.extend({
  items: z.array(
    z.object({
      user_id: z.string(),
      pharmacist_name: z.string().nullable(),
      branch_id: z.string(),
      branch_name: z.string(),
      sales_count: z.number().int(),
      revenue: DecimalString,
      vat: DecimalString,
      average_sale: DecimalString,
    }),
  ),
});

export const InventoryReport = z.object({
  branch_id: z.string().nullable(),
  total_medicines: z.number().int(),
  low_stock_count: z.number().int(),
  out_of_stock_count: z.number().int(),
  total_units: z.number().int(),
  total_value: DecimalString.describe('sellable units x selling price'),
  total_cost_value: DecimalString.describe('sellable units x batch unit cost'),
  by_category: z.array(
    z.object({
      category: z.string().nullable(),
      medicine_count: z.number().int(),
      units: z.number().int(),
      value: DecimalString,
    }),
  ),
  low_stock_list: z.array(
    z.object({
      medicine_id: z.string(),
      medicine_name: z.string(),
      category: z.string().nullable(),
      stock_quantity: z.number().int(),
      low_stock_threshold: z.number().int(),
    }),
  ),
});

export const PurchasesReport = ReportWindow.extend({
  total_spend: DecimalString,
  batch_count: z.number().int(),
  units: z.number().int(),
  by_supplier: z.array(
    z.object({
      supplier_id: z.string().nullable(),
      supplier_name: z.string().nullable(),
      batch_count: z.number().int(),
      units: z.number().int(),
      spend: DecimalString,
    }),
  ),
  by_medicine: z.array(
    z.object({
      medicine_id: z.string(),
      medicine_name: z.string(),
      batch_count: z.number().int(),
      units: z.number().int(),
      spend: DecimalString,
    }),
  ),
});

export const VatReport = ReportWindow.extend({
  items: z.array(
    z.object({
      month: z.string().describe('YYYY-MM'),
      sales_count: z.number().int(),
      taxable_0: DecimalString.describe('net amount of zero-rated lines (VAT rate 0 %, not exempt)'),
      exempt: DecimalString.describe('net amount of exempt lines'),
      taxable_18: DecimalString.describe('net amount of lines charged VAT at exactly 18 %'),
      taxable_15: DecimalString.describe("the spec's alias of taxable_18"),
      by_rate: z
        .array(
          z.object({
            rate: z.number().describe('VAT rate in percent'),
            taxable: DecimalString,
            vat: DecimalString,
          }),
        )
        .describe('one bucket per VAT rate charged in the month (zero-rated under 0), highest rate first'),
      returns_count: z.number().int().describe('credit notes refunded in the month'),
      returns_total: DecimalString.describe('what they refunded, VAT included'),
      returns_vat: DecimalString.describe('their VAT (already taken off vat_collected)'),
      vat_collected: DecimalString.describe('VAT of the sales minus VAT of the credit notes'),
      grand_total: DecimalString.describe('sales minus credit notes, VAT included'),
    }),
  ),
});
