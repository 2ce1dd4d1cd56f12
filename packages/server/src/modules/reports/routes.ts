import { OVERSEERS } from '@pharmacy/contracts/roles';
import {
  InventoryReport,
  InventoryReportQuery,
  PharmacistReport,
  PurchasesReport,
  PurchasesReportQuery,
  ReportWindowQuery,
  SalesReport,
  SalesReportQuery,
  VatReport,
} from '@pharmacy/contracts';
import type { z } from 'zod';
import { scopeBranch } from '../../http/auth';
import type { ApiRouter } from '../../http/route';
import { sendCsv } from './csv';
import { pharmacistReport, salesReport } from './sales';
import { inventoryReport, purchasesReport } from './stock';
import { vatReport } from './vat';
import { type ReportWindow, resolveWindow } from './window';

const TAG = 'Reports';
const ROLES = OVERSEERS;
const COMMON =
  "Roles: admin, branch_manager, auditor. branch_id is optional (omitted: the whole organisation); a branch_manager always gets their own branch, whatever they ask. Amounts are decimal strings in the base currency (sales in another currency converted at each sale's rate); deleted sales are left out.";
const WINDOW =
  "from_date and to_date (YYYY-MM-DD, inclusive) are local days in the branch's time zone (the organisation's without branch_id); default: the last 30 days up to today. A malformed date or from_date after to_date gives 400.";
const CSV = (sections: string) =>
  `format=csv answers text/csv (a header row, then one row per item) of one section: ${sections}.`;

/** Fields of a section that repeat another for the spec's sake (by_day's revenue is its net_revenue): not in CSV. */
const ALIASES: Record<string, readonly string[]> = { by_day: ['revenue'] };
const columns = (schema: z.ZodObject, key: string): string[] =>
  Object.keys(((schema.shape[key] as z.ZodArray).element as z.ZodObject).shape).filter(
    (f) => !ALIASES[key]?.includes(f),
  );

const windowInfo = (w: ReportWindow) => ({
  from_date: w.from,
  to_date: w.to,
  timezone: w.timezone,
  branch_id: w.branchId ?? null,
});

export function reportRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/reports/sales',
    tag: TAG,
    summary: 'Sales report: totals, by day, by payment method, top sellers, recent sales',
    description: `${WINDOW} ${COMMON} Every revenue and VAT figure is net of the credit notes refunded in the window (dated when refunded). totals: sales_count, gross_revenue (the sales, VAT included, after discounts), returns_count and returns_total, net_revenue = gross_revenue - returns_total (VAT included), gross_vat, returns_vat and vat (net), average_sale (gross per sale). by_day has every day of the window with gross_revenue, returns, net_revenue and vat. by_payment: sales using the method, refunds in it and the amount kept (cash net of change, minus refunds). top_selling: top 10 by revenue net of returns (a fully refunded medicine has 0) with quantity, net_revenue (without VAT), cost (FEFO batch costs of the units kept), gross_profit = net_revenue - cost and margin_pct (of net revenue, 0 when it is 0). recent: the 8 latest sales with the seller's name. ${CSV('section = by_day (default), by_payment, top_selling or recent')}`,
    roles: ROLES,
    reads: 'replica',
    query: SalesReportQuery,
    responses: {
      200: { description: 'The report (or CSV)', schema: SalesReport },
      404: { description: 'Unknown branch' },
    },
    handler: async ({ app, user, query, res }) => {
      const w = await resolveWindow(app, query, scopeBranch(user, query.branch_id));
      const report = { ...windowInfo(w), ...(await salesReport(app, w)) };
      if (query.format !== 'csv') return report;
      const section = query.section ?? 'by_day';
      return sendCsv(res, `sales-${section}`, report[section], columns(SalesReport, section));
    },
  });

  r.route({
    method: 'get',
    path: '/reports/sales/by-pharmacist',
    tag: TAG,
    summary: 'Sales per seller and branch',
    description: `${WINDOW} ${COMMON} One row per user and branch: sales_count, revenue, vat, average_sale; highest revenue first. ${CSV('the rows')}`,
    roles: ROLES,
    reads: 'replica',
    query: ReportWindowQuery,
    responses: {
      200: { description: 'The report (or CSV)', schema: PharmacistReport },
      404: { description: 'Unknown branch' },
    },
    handler: async ({ app, user, query, res }) => {
      const w = await resolveWindow(app, query, scopeBranch(user, query.branch_id));
      const report = { ...windowInfo(w), ...(await pharmacistReport(app, w)) };
      if (query.format !== 'csv') return report;
      return sendCsv(res, 'sales-by-pharmacist', report.items, columns(PharmacistReport, 'items'));
    },
  });

  r.route({
    method: 'get',
    path: '/reports/inventory',
    tag: TAG,
    summary: 'Inventory report: stock value by category and the low-stock list',
    description: `No date window. ${COMMON} Stock is sellable stock (active, unexpired batches, what the stock ledger holds for sale): the branch's with branch_id, else summed over all branches. total_medicines counts active medicines; low_stock_count those at or below low_stock_threshold (out of stock included, as in /alerts/low-stock), out_of_stock_count those without stock; total_value is units x selling price (total_cost_value at batch cost); by_category sorted by value; low_stock_list: 20, emptiest first. ${CSV('section = by_category (default) or low_stock_list')}`,
    roles: ROLES,
    reads: 'replica',
    query: InventoryReportQuery,
    responses: {
      200: { description: 'The report (or CSV)', schema: InventoryReport },
      404: { description: 'Unknown branch' },
    },
    handler: async ({ app, user, query, res }) => {
      const report = await inventoryReport(app, scopeBranch(user, query.branch_id));
      if (query.format !== 'csv') return report;
      const section = query.section ?? 'by_category';
      return sendCsv(res, `inventory-${section}`, report[section], columns(InventoryReport, section));
    },
  });

  r.route({
    method: 'get',
    path: '/reports/purchases',
    tag: TAG,
    summary: 'Purchases report: spend by supplier and by medicine',
    description: `${WINDOW} ${COMMON} Spend is every purchase receipt in the window (direct receipts and purchase-order deliveries; transfers between branches are not purchases) x its batch's unit cost. by_supplier: batch count, units and spend, highest spend first; by_medicine: top 20 by spend with units and batch counts. ${CSV('section = by_supplier (default) or by_medicine')}`,
    roles: ROLES,
    reads: 'replica',
    query: PurchasesReportQuery,
    responses: {
      200: { description: 'The report (or CSV)', schema: PurchasesReport },
      404: { description: 'Unknown branch' },
    },
    handler: async ({ app, user, query, res }) => {
      const w = await resolveWindow(app, query, scopeBranch(user, query.branch_id));
      const report = { ...windowInfo(w), ...(await purchasesReport(app, w)) };
      if (query.format !== 'csv') return report;
      const section = query.section ?? 'by_supplier';
      return sendCsv(res, `purchases-${section}`, report[section], columns(PurchasesReport, section));
    },
  });

  r.route({
    method: 'get',
    path: '/reports/vat',
    tag: TAG,
    summary: 'VAT by month',
    description: `${WINDOW} ${COMMON} One row per local month of the window (YYYY-MM, newest first, months without sales included): by_rate has one bucket per VAT rate actually charged (rate in percent, taxable net amount, vat; zero-rated lines under rate 0, highest rate first); taxable_0 and taxable_18 are the spec's named buckets, the net of lines at exactly 0 % and 18 %; taxable_15 is the spec's alias of taxable_18 (a line at 5 %, 10 % or 15 % is only in by_rate); exempt (net of exempt lines), vat_collected and grand_total (VAT included). Every figure is net of the credit notes refunded in the month (their lines come off their rate's bucket), with returns_count, returns_total and returns_vat shown. ${CSV('the months without taxable_15 (the alias), by_rate as a vat_<rate>pct column per rate and a taxable_<rate>pct column for the rates other than 0 and 18')}`,
    roles: ROLES,
    reads: 'replica',
    query: ReportWindowQuery,
    responses: {
      200: { description: 'The report (or CSV)', schema: VatReport },
      404: { description: 'Unknown branch' },
    },
    handler: async ({ app, user, query, res }) => {
      const w = await resolveWindow(app, query, scopeBranch(user, query.branch_id));
      const report = { ...windowInfo(w), ...(await vatReport(app, w)) };
      if (query.format !== 'csv') return report;
      const { rows, columns: rateColumns } = vatCsvRows(report.items);
      // taxable_15 is the spec's alias of taxable_18: one column, no duplicate
      const base = columns(VatReport, 'items').filter((c) => c !== 'by_rate' && c !== 'taxable_15');
      return sendCsv(res, 'vat', rows, [...base, ...rateColumns]);
    },
  });
}

/**
 * The VAT months as flat CSV rows: per rate charged in any month (highest first) a vat column, and a taxable
 * column for the rates the named columns do not already hold (taxable_0, taxable_18): no column twice.
 */
function vatCsvRows(
  items: ReadonlyArray<{ by_rate: Array<{ rate: number; taxable: string; vat: string }> }>,
) {
  const rates = [...new Set(items.flatMap((m) => m.by_rate.map((r) => r.rate)))].sort((a, b) => b - a);
  const named = (rate: number) => rate === 0 || rate === 18;
  const columns = rates.flatMap((rate) =>
    named(rate) ? [`vat_${rate}pct`] : [`taxable_${rate}pct`, `vat_${rate}pct`],
  );
  const rows = items.map(({ by_rate, ...month }) => {
    const cells: Record<string, unknown> = { ...month };
    for (const r of by_rate) {
      if (!named(r.rate)) cells[`taxable_${r.rate}pct`] = r.taxable;
      cells[`vat_${r.rate}pct`] = r.vat;
    }
    return cells;
  });
  return { rows, columns };
}
