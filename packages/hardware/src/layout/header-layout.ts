import type { OrganisationHeader, VatBreakdownRow } from '../receipt/document-types';
import type { DocumentLabels } from '../receipt/document-types';
import type { Block } from './blocks';
import { columns, leftRight, rule, textBlocks } from './text-layout';

export function layoutOrganisationHeader(
  header: OrganisationHeader,
  labels: DocumentLabels,
  width: number,
): Block[] {
  const center = { align: 'center' as const };
  const blocks = textBlocks(header.name, width, { align: 'center', bold: true, tall: true });
  if (header.legalName && header.legalName !== header.name)
    blocks.push(...textBlocks(header.legalName, width, center));
  if (header.branchName) blocks.push(...textBlocks(header.branchName, width, center));
  const address = header.branchAddress ?? header.address;
  if (address) blocks.push(...textBlocks(address, width, center));
  if (header.phone) blocks.push(...textBlocks(`${labels.phone}: ${header.phone}`, width, center));
  if (header.tin) blocks.push(...textBlocks(`${labels.tin}: ${header.tin}`, width, center));
  const vatNumber = header.branchVatNumber ?? header.vatNumber;
  if (vatNumber) blocks.push(...textBlocks(`${labels.vatNumber}: ${vatNumber}`, width, center));
  if (header.headerText) blocks.push(...textBlocks(header.headerText, width, center));
  return blocks;
}

export function layoutFields(fields: ReadonlyArray<[string, string | undefined]>, width: number): Block[] {
  return fields.flatMap(([label, value]) => (value ? leftRight(label, value, width) : []));
}

export function vatTableWidths(width: number): number[] {
  const amountWidth = Math.floor((width - 8) / 2);
  return [width - 2 * amountWidth, amountWidth, amountWidth];
}

export function layoutVatBreakdown(
  rows: readonly VatBreakdownRow[],
  labels: DocumentLabels,
  width: number,
): Block[] {
  if (rows.length === 0) return [];
  const widths = vatTableWidths(width);
  return [
    rule(),
    columns([labels.vat, labels.taxable, labels.vat], widths, { bold: true }),
    ...rows.map((row) =>
      columns(
        [`${row.category ? `${row.category} ` : ''}${row.rate}%`, row.taxableAmount, row.vatAmount],
        widths,
      ),
    ),
  ];
}

export function minus(amount: string): string {
  return amount.startsWith('-') ? amount : `-${amount}`;
}
