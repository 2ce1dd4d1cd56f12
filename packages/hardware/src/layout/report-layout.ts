import type { ShelfLabel, ZCountedCurrency, ZReport } from '../receipt/document-types';
import type { Block } from './blocks';
import { layoutFields, layoutOrganisationHeader, layoutVatBreakdown, minus } from './header-layout';
import { leftRight, rule, textBlocks } from './text-layout';

export function layoutZReport(report: ZReport, width: number): Block[] {
  const { labels } = report;
  const money = (label: string, amount: string, bold = false) => leftRight(label, amount, width, { bold });
  return [
    ...layoutOrganisationHeader(report.header, labels, width),
    rule(),
    ...textBlocks(`${labels.zReport} #${report.zNumber}`, width, { align: 'center', bold: true, tall: true }),
    ...(report.copy
      ? textBlocks(`*** ${labels.copy} ***`, width, { align: 'center', bold: true, tall: true })
      : []),
    ...layoutFields(
      [
        [labels.branch, report.branchName],
        [labels.cashier, report.cashierName],
        [labels.opened, report.openedAtLocal],
        [labels.closed, report.closedAtLocal],
      ],
      width,
    ),
    rule(),
    ...leftRight(labels.sales, String(report.saleCount), width),
    ...leftRight(labels.returns, String(report.returnCount), width),
    ...money(`${labels.grossSales} ${report.currency}`, report.grossSales),
    ...money(labels.discounts, minus(report.discountTotal)),
    ...money(`${labels.returns} ${report.currency}`, minus(report.returnsTotal)),
    ...money(`${labels.netSales} ${report.currency}`, report.netSales, true),
    rule(),
    ...report.byPaymentMethod.flatMap((row) => money(`${row.label} (${row.count})`, row.amount)),
    ...report.accountPayments.flatMap((row) =>
      money(`${labels.accountPayments}: ${row.label} (${row.count})`, row.amount),
    ),
    ...layoutTendersByCurrency(report, width),
    ...layoutVatBreakdown(report.vatBreakdown, labels, width),
    rule(),
    ...money(labels.openingFloat, report.openingFloat),
    ...(report.countedByCurrency
      ? layoutCountedByCurrency(report, report.countedByCurrency, width)
      : layoutCashByCurrency(report, width)),
    ...money(labels.expectedCash, report.expectedCash),
    ...money(labels.countedCash, report.countedCash),
    ...money(labels.variance, report.variance, true),
  ];
}

/**
 * Expected cash per currency when the drawer holds several: the amount in the currency, then its base
 * equivalent at the rate used ("Expected cash EUR @1.25  13.44", "  = USD  16.80").
 */
function layoutCashByCurrency(report: ZReport, width: number): Block[] {
  if (!report.cashByCurrency.some((c) => c.currency !== report.currency)) return [];
  return report.cashByCurrency.flatMap((c) =>
    c.currency === report.currency
      ? leftRight(`${report.labels.expectedCash} ${c.currency}`, c.expected, width)
      : [
          ...leftRight(`${report.labels.expectedCash} ${c.currency} @${c.rate}`, c.expected, width),
          ...leftRight(`  = ${report.currency}`, c.expectedBase, width),
        ],
  );
}

/** Several currencies in the session: foreign ones are named with their rate, and shown again in the base currency. */
const foreign = (report: ZReport, currencies: ReadonlyArray<{ currency: string }>) =>
  currencies.some((c) => c.currency !== report.currency);

/** An amount in a currency, then (for a foreign one) its base equivalent: "  = USD  12.50". */
function inBase(
  report: ZReport,
  label: string,
  c: { currency: string },
  amount: string,
  base: string,
  width: number,
) {
  const blocks = leftRight(label, amount, width);
  if (c.currency !== report.currency) blocks.push(...leftRight(`  = ${report.currency}`, base, width));
  return blocks;
}

/**
 * Each tender per currency and rate, as the session's tenders_by_currency gives it: "Cash EUR @1.25 (1)  9.44",
 * "  = USD  11.80". Printed when the session took more than the base currency.
 */
function layoutTendersByCurrency(report: ZReport, width: number): Block[] {
  if (!foreign(report, report.tendersByCurrency)) return [];
  return [
    rule(),
    ...textBlocks(report.labels.tendersByCurrency, width, { bold: true }),
    ...report.tendersByCurrency.flatMap((t) => {
      const rate = t.currency === report.currency ? '' : ` @${t.rate}`;
      return inBase(report, `${t.label} ${t.currency}${rate} (${t.count})`, t, t.amount, t.amountBase, width);
    }),
  ];
}

/**
 * The close's count per currency: expected, counted and variance in the currency, each with its base equivalent
 * at the rate used. Printed when the drawer was counted in more than the base currency.
 */
function layoutCountedByCurrency(
  report: ZReport,
  counted: readonly ZCountedCurrency[],
  width: number,
): Block[] {
  if (!foreign(report, counted)) return [];
  const { labels } = report;
  return counted.flatMap((c) => {
    const rate = c.currency === report.currency ? '' : ` @${c.rate}`;
    return [
      ...inBase(report, `${labels.expectedCash} ${c.currency}${rate}`, c, c.expected, c.expectedBase, width),
      ...inBase(report, `${labels.countedCash} ${c.currency}`, c, c.counted, c.countedBase, width),
      ...inBase(report, `${labels.variance} ${c.currency}`, c, c.variance, c.varianceBase, width),
    ];
  });
}

export function layoutShelfLabel(label: ShelfLabel, width: number): Block[] {
  const blocks = textBlocks(label.name, width, { bold: true, tall: true });
  if (label.strengthAndForm) blocks.push(...textBlocks(label.strengthAndForm, width));
  if (label.packSize) blocks.push(...textBlocks(label.packSize, width));
  blocks.push(
    ...textBlocks(`${label.currency} ${label.price}`, width, { align: 'right', bold: true, tall: true }),
  );
  if (label.unitPriceText) blocks.push(...textBlocks(label.unitPriceText, width, { align: 'right' }));
  blocks.push({ type: 'barcode', symbology: label.barcode.symbology, data: label.barcode.data });
  return blocks;
}
