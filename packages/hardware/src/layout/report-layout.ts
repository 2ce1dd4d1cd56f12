import type { ShelfLabel, ZReport } from '../receipt/document-types';
import { paymentMethodLabel } from '../receipt/labels';
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
      money(`${paymentMethodLabel(labels, 'credit')}: ${row.label} (${row.count})`, row.amount),
    ),
    ...layoutVatBreakdown(report.vatBreakdown, labels, width),
    rule(),
    ...money(labels.openingFloat, report.openingFloat),
    ...layoutCashByCurrency(report, width),
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
