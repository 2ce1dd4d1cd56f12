import { z } from 'zod';
import { DecimalString, Id, IsoDate } from './common';

export const DashboardQuery = z.object({
  branch_id: Id.optional().describe(
    'omitted: the whole organisation (branch-bound roles always get their branch)',
  ),
});

export const DashboardSummary = z.object({
  branch_id: z.string().nullable(),
  date: z.string().describe("today in the branch's (or organisation's) time zone"),
  timezone: z.string(),
  today_sales_count: z.number().int(),
  today_gross_revenue: DecimalString.describe("today's sales, VAT included"),
  today_returns: DecimalString.describe('credit notes refunded today, VAT included'),
  today_revenue: DecimalString.describe('today_gross_revenue - today_returns (net of returns, VAT included)'),
  today_vat: DecimalString.describe("VAT of today's sales minus VAT of today's credit notes"),
  yesterday_revenue: DecimalString.describe('net of returns'),
  revenue_trend: z
    .number()
    .describe('% change against yesterday, one decimal; 0 when yesterday had no revenue'),
  sparkline_30d: z
    .array(
      z.object({
        date: z.string(),
        revenue: DecimalString.describe('net of the returns refunded that day'),
        sales_count: z.number().int(),
      }),
    )
    .describe('the last 30 days, oldest first, today included'),
  low_stock_count: z
    .number()
    .int()
    .describe('active medicines with 0 < sellable stock <= low_stock_threshold'),
  out_of_stock_count: z.number().int().describe('active medicines without sellable stock'),
  total_medicines: z.number().int(),
  expiring_90_count: z
    .number()
    .int()
    .describe('active batches with stock expiring within 90 days (today included)'),
  expiring_30_count: z.number().int(),
  expired_count: z.number().int().describe('batches with stock past their expiry, whatever their status'),
});

export const BranchComparisonQuery = z.object({
  from_date: IsoDate.optional(),
  to_date: IsoDate.optional(),
});

export const BranchComparison = z.object({
  from_date: z.string(),
  to_date: z.string(),
  timezone: z.string(),
  total_revenue: DecimalString,
  items: z.array(
    z.object({
      rank: z.number().int(),
      branch_id: z.string(),
      branch_name: z.string(),
      branch_code: z.string(),
      revenue: DecimalString,
      sales_count: z.number().int(),
      share_pct: z.number().describe('share of total revenue, one decimal'),
    }),
  ),
});
