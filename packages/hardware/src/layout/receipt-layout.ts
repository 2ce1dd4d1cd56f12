import { isZeroDecimal } from '@pharmacy/contracts/money';
import type { CreditNote, ReceiptLine, SaleReceipt } from '../receipt/document-types';
import type { Block } from './blocks';
import { layoutFields, layoutOrganisationHeader, layoutVatBreakdown, minus } from './header-layout';
import { BLANK, leftRight, rule, textBlocks } from './text-layout';

function layoutLines(lines: readonly ReceiptLine[], discountLabel: string, width: number): Block[] {
  return lines.flatMap((line) => {
    const blocks = textBlocks(line.name, width);
    const total = line.vatCategory ? `${line.lineTotal} ${line.vatCategory}` : line.lineTotal;
    blocks.push(...leftRight(`  ${line.quantity} x ${line.unitPrice}`, total, width));
    if (!isZeroDecimal(line.discount))
      blocks.push(...leftRight(`  ${discountLabel}`, minus(line.discount), width));
    return blocks;
  });
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

export function layoutSaleReceipt(receipt: SaleReceipt, width: number): Block[] {
  const { labels } = receipt;
  const blocks: Block[] = [
    ...layoutOrganisationHeader(receipt.header, labels, width),
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
    ...layoutLines(receipt.lines, labels.lineDiscount, width),
    rule(),
    ...leftRight(labels.subtotal, receipt.subtotal, width),
    ...receipt.discounts.flatMap((row) => leftRight(row.label, minus(row.amount), width)),
    ...leftRight(labels.vat, receipt.vatTotal, width),
    ...leftRight(`${labels.total} ${receipt.currency}`, receipt.total, width, { bold: true, tall: true }),
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
    if (!isZeroDecimal(receipt.change))
      blocks.push(...leftRight(labels.change, receipt.change, width, { bold: true }));
  }
  blocks.push(...layoutVatBreakdown(receipt.vatBreakdown, labels, width));
  blocks.push(...layoutClosing(receipt.footer, receipt.returnPolicy, receipt.qrPayload, width));
  return blocks;
}

export function layoutCreditNote(note: CreditNote, width: number): Block[] {
  const { labels } = note;
  return [
    ...layoutOrganisationHeader(note.header, labels, width),
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
    ...layoutLines(note.lines, labels.lineDiscount, width),
    rule(),
    ...leftRight(labels.subtotal, minus(note.subtotal), width),
    ...leftRight(labels.vat, minus(note.vatTotal), width),
    ...leftRight(`${labels.total} ${note.currency}`, minus(note.total), width, { bold: true, tall: true }),
    rule(),
    ...leftRight(`${labels.refund} (${note.refund.label})`, note.refund.amount, width, { bold: true }),
    ...layoutVatBreakdown(note.vatBreakdown, labels, width),
    ...layoutClosing(note.footer, undefined, note.qrPayload, width),
  ];
}
