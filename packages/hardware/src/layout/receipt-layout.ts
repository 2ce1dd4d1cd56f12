import { isZeroDecimal } from '@pharmacy/contracts/money';
import type { CreditNote, DocumentLabels, ReceiptLine, SaleReceipt } from '../receipt/document-types';
import type { Block } from './blocks';
import { layoutFields, layoutOrganisationHeader, layoutVatBreakdown, minus } from './header-layout';
import { BLANK, leftRight, rule, textBlocks } from './text-layout';

function layoutLines(lines: readonly ReceiptLine[], labels: DocumentLabels, width: number): Block[] {
  return lines.flatMap((line) => {
    const blocks = textBlocks(line.name, width);
    const rate = line.vatRate ? `  ${labels.vat} ${line.vatRate}%` : '';
    blocks.push(...leftRight(`  ${line.quantity} x ${line.unitPrice}${rate}`, line.amount, width));
    if (!isZeroDecimal(line.discount))
      blocks.push(...leftRight(`  ${labels.lineDiscount}`, minus(line.discount), width));
    return blocks;
  });
}

/** "COPY" in large type: at the top and the bottom of a reprint, so neither half passes as the original. */
function copyMark(copy: boolean | undefined, labels: DocumentLabels, width: number): Block[] {
  return copy ? textBlocks(`*** ${labels.copy} ***`, width, { align: 'center', bold: true, tall: true }) : [];
}

/**
 * Subtotal (the lines after their own discounts), each basket discount once, then VAT: added before the total
 * when prices exclude it, "of which" after the total when they include it. The printed figures add up.
 */
function layoutTotals(receipt: SaleReceipt, width: number): Block[] {
  const { labels } = receipt;
  const blocks: Block[] = [
    ...leftRight(labels.subtotal, receipt.subtotal, width),
    ...receipt.discounts.flatMap((row) => leftRight(row.label, minus(row.amount), width)),
  ];
  if (!receipt.vatIncluded) blocks.push(...leftRight(labels.vat, receipt.vatTotal, width));
  blocks.push(
    ...leftRight(`${labels.total} ${receipt.currency}`, receipt.total, width, { bold: true, tall: true }),
  );
  if (receipt.vatIncluded) blocks.push(...leftRight(labels.vatIncluded, receipt.vatTotal, width));
  return blocks;
}

function layoutClosing(
  footer: string | undefined,
  extra: string | undefined,
  qr: string | undefined,
  width: number,
) {
  const blocks: Block[] = [];
  if (footer || extra) blocks.push(rule());
  if (footer) blocks.push(...textBlocks(footer, width, { align: 'center' }));
  if (extra) blocks.push(...textBlocks(extra, width, { align: 'center' }));
  if (qr) blocks.push(BLANK, { type: 'qr', data: qr });
  return blocks;
}

/**
 * The change as handed over: named with its currency, in that currency's decimals; with the rate when a
 * currency other than the base one is involved, and the sale-currency amount when it was given in another.
 */
function layoutChange(receipt: SaleReceipt, width: number): Block[] {
  if (isZeroDecimal(receipt.change)) return [];
  const { labels } = receipt;
  const blocks = leftRight(`${labels.change} ${receipt.changeCurrency}`, receipt.change, width, {
    bold: true,
  });
  if (receipt.changeRate) {
    const left = receipt.changeInSaleCurrency
      ? `  = ${receipt.currency} ${receipt.changeInSaleCurrency}`
      : `  ${labels.fxRate}`;
    blocks.push(...leftRight(left, receipt.changeRate, width));
  }
  return blocks;
}

export function layoutSaleReceipt(receipt: SaleReceipt, width: number): Block[] {
  const { labels } = receipt;
  const blocks: Block[] = [
    ...layoutOrganisationHeader(receipt.header, labels, width),
    ...copyMark(receipt.copy, labels, width),
    rule(),
    ...layoutFields(
      [
        [labels.invoice, receipt.invoiceNumber],
        [labels.date, receipt.issuedAtLocal],
        [labels.cashier, receipt.cashierName],
        [labels.customer, receipt.customerName],
      ],
      width,
    ),
    rule(),
    ...layoutLines(receipt.lines, labels, width),
    rule(),
    ...layoutTotals(receipt, width),
  ];
  if (receipt.baseCurrency) {
    const base = receipt.baseCurrency;
    blocks.push(...leftRight(`${labels.totalInBase} ${base.currency}`, base.total, width));
    if (base.fxRate) {
      blocks.push(
        ...leftRight(labels.fxRate, `1 ${receipt.currency} = ${base.fxRate} ${base.currency}`, width),
      );
    }
  }
  if (receipt.payments.length > 0) {
    blocks.push(rule(), ...receipt.payments.flatMap((p) => leftRight(p.label, p.amount, width)));
    blocks.push(...layoutChange(receipt, width));
  }
  blocks.push(...layoutVatBreakdown(receipt.vatBreakdown, labels, width));
  blocks.push(...layoutClosing(receipt.footer, receipt.returnPolicy, receipt.qrPayload, width));
  blocks.push(...copyMark(receipt.copy, labels, width));
  return blocks;
}

export function layoutCreditNote(note: CreditNote, width: number): Block[] {
  const { labels } = note;
  return [
    ...layoutOrganisationHeader(note.header, labels, width),
    ...copyMark(note.copy, labels, width),
    rule(),
    ...textBlocks(labels.creditNote.toUpperCase(), width, { align: 'center', bold: true, tall: true }),
    ...layoutFields(
      [
        [labels.creditNote, note.creditNoteNumber],
        [labels.originalInvoice, note.originalInvoiceNumber],
        [labels.date, note.issuedAtLocal],
        [labels.cashier, note.cashierName],
        [labels.customer, note.customerName],
        [labels.reason, note.reason],
      ],
      width,
    ),
    rule(),
    ...layoutLines(note.lines, labels, width),
    rule(),
    ...(note.vatIncluded ? [] : leftRight(labels.vat, minus(note.vatTotal), width)),
    ...leftRight(`${labels.total} ${note.currency}`, minus(note.total), width, { bold: true, tall: true }),
    ...(note.vatIncluded ? leftRight(labels.vatIncluded, minus(note.vatTotal), width) : []),
    rule(),
    ...leftRight(`${labels.refund} (${note.refund.label})`, note.refund.amount, width, { bold: true }),
    ...layoutVatBreakdown(note.vatBreakdown, labels, width),
    ...layoutClosing(note.footer, undefined, note.qrPayload, width),
    ...copyMark(note.copy, labels, width),
  ];
}
