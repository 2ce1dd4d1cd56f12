import { formatMinor } from '../../lib/money';

/** XML text and attribute escaping: every value put into a fiscal document goes through this. */
export function escapeXml(value: string | number): string {
  return String(value)
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&apos;');
}

export interface FiscalDocLine {
  id: string | number;
  name: string;
  quantity: number;
  unitPrice: number;
  net: number;
  vat: number;
  gross: number;
  rate: string;
  category: string;
}

export interface FiscalDoc {
  kind: 'invoice' | 'credit_note';
  number: string;
  uuid: string;
  icv: number;
  issuedAt: string;
  currency: string;
  exponent: number;
  sellerName: string;
  sellerVat: string;
  sellerAddress: string;
  buyerName: string | null;
  previousHash: string;
  /** Credit notes: the invoice they correct. */
  billingReference?: string;
  lines: FiscalDocLine[];
  subtotal: number;
  vat: number;
  total: number;
  allowance: number;
  vatBreakdown: Array<{ rate: string; taxable: number; vat: number }>;
}

const categoryCode = (category: string, rate: string): string =>
  category === 'exempt' ? 'E' : Number(rate) === 0 ? 'Z' : 'S';

/**
 * A simplified UBL 2.1 Invoice / CreditNote (type codes 388 / 381) as a tax authority receives it: ICV and the
 * previous invoice hash as additional document references (ZATCA's names), parties, VAT subtotals per rate and
 * the lines. Every text is escaped.
 */
export function fiscalXml(doc: FiscalDoc): string {
  const m = (minor: number) => formatMinor(minor, doc.exponent);
  const cur = escapeXml(doc.currency);
  const root = doc.kind === 'invoice' ? 'Invoice' : 'CreditNote';
  const ns =
    doc.kind === 'invoice'
      ? 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2'
      : 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';
  const date = doc.issuedAt.slice(0, 10);
  const time = doc.issuedAt.slice(11, 19);
  const lineTag = doc.kind === 'invoice' ? 'InvoiceLine' : 'CreditNoteLine';
  const qtyTag = doc.kind === 'invoice' ? 'InvoicedQuantity' : 'CreditedQuantity';
  const lines = doc.lines
    .map(
      (l) => `  <cac:${lineTag}>
    <cbc:ID>${escapeXml(l.id)}</cbc:ID>
    <cbc:${qtyTag} unitCode="PCE">${l.quantity}</cbc:${qtyTag}>
    <cbc:LineExtensionAmount currencyID="${cur}">${m(l.net)}</cbc:LineExtensionAmount>
    <cac:TaxTotal>
      <cbc:TaxAmount currencyID="${cur}">${m(l.vat)}</cbc:TaxAmount>
      <cbc:RoundingAmount currencyID="${cur}">${m(l.gross)}</cbc:RoundingAmount>
    </cac:TaxTotal>
    <cac:Item>
      <cbc:Name>${escapeXml(l.name)}</cbc:Name>
      <cac:ClassifiedTaxCategory>
        <cbc:ID>${categoryCode(l.category, l.rate)}</cbc:ID>
        <cbc:Percent>${escapeXml(l.rate)}</cbc:Percent>
        <cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme>
      </cac:ClassifiedTaxCategory>
    </cac:Item>
    <cac:Price>
      <cbc:PriceAmount currencyID="${cur}">${m(l.unitPrice)}</cbc:PriceAmount>
    </cac:Price>
  </cac:${lineTag}>`,
    )
    .join('\n');
  const subtotals = doc.vatBreakdown
    .map(
      (b) => `    <cac:TaxSubtotal>
      <cbc:TaxableAmount currencyID="${cur}">${m(b.taxable)}</cbc:TaxableAmount>
      <cbc:TaxAmount currencyID="${cur}">${m(b.vat)}</cbc:TaxAmount>
      <cac:TaxCategory>
        <cbc:ID>${Number(b.rate) === 0 ? 'Z' : 'S'}</cbc:ID>
        <cbc:Percent>${escapeXml(b.rate)}</cbc:Percent>
        <cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme>
      </cac:TaxCategory>
    </cac:TaxSubtotal>`,
    )
    .join('\n');
  const billing = doc.billingReference
    ? `  <cac:BillingReference>
    <cac:InvoiceDocumentReference><cbc:ID>${escapeXml(doc.billingReference)}</cbc:ID></cac:InvoiceDocumentReference>
  </cac:BillingReference>
`
    : '';
  const buyer = doc.buyerName
    ? `  <cac:AccountingCustomerParty>
    <cac:Party><cac:PartyLegalEntity><cbc:RegistrationName>${escapeXml(doc.buyerName)}</cbc:RegistrationName></cac:PartyLegalEntity></cac:Party>
  </cac:AccountingCustomerParty>
`
    : '';
  return `<?xml version="1.0" encoding="UTF-8"?>
<${root} xmlns="${ns}" xmlns:cac="urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2" xmlns:cbc="urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2">
  <cbc:ProfileID>reporting:1.0</cbc:ProfileID>
  <cbc:ID>${escapeXml(doc.number)}</cbc:ID>
  <cbc:UUID>${escapeXml(doc.uuid)}</cbc:UUID>
  <cbc:IssueDate>${escapeXml(date)}</cbc:IssueDate>
  <cbc:IssueTime>${escapeXml(time)}</cbc:IssueTime>
  <cbc:${doc.kind === 'invoice' ? 'InvoiceTypeCode' : 'CreditNoteTypeCode'} name="0200000">${doc.kind === 'invoice' ? 388 : 381}</cbc:${doc.kind === 'invoice' ? 'InvoiceTypeCode' : 'CreditNoteTypeCode'}>
  <cbc:DocumentCurrencyCode>${cur}</cbc:DocumentCurrencyCode>
  <cbc:TaxCurrencyCode>${cur}</cbc:TaxCurrencyCode>
${billing}  <cac:AdditionalDocumentReference>
    <cbc:ID>ICV</cbc:ID>
    <cbc:UUID>${doc.icv}</cbc:UUID>
  </cac:AdditionalDocumentReference>
  <cac:AdditionalDocumentReference>
    <cbc:ID>PIH</cbc:ID>
    <cac:Attachment><cbc:EmbeddedDocumentBinaryObject mimeCode="text/plain">${escapeXml(doc.previousHash)}</cbc:EmbeddedDocumentBinaryObject></cac:Attachment>
  </cac:AdditionalDocumentReference>
  <cac:AccountingSupplierParty>
    <cac:Party>
      <cac:PostalAddress><cbc:StreetName>${escapeXml(doc.sellerAddress)}</cbc:StreetName></cac:PostalAddress>
      <cac:PartyTaxScheme><cbc:CompanyID>${escapeXml(doc.sellerVat)}</cbc:CompanyID><cac:TaxScheme><cbc:ID>VAT</cbc:ID></cac:TaxScheme></cac:PartyTaxScheme>
      <cac:PartyLegalEntity><cbc:RegistrationName>${escapeXml(doc.sellerName)}</cbc:RegistrationName></cac:PartyLegalEntity>
    </cac:Party>
  </cac:AccountingSupplierParty>
${buyer}  <cac:AllowanceCharge>
    <cbc:ChargeIndicator>false</cbc:ChargeIndicator>
    <cbc:Amount currencyID="${cur}">${m(doc.allowance)}</cbc:Amount>
  </cac:AllowanceCharge>
  <cac:TaxTotal>
    <cbc:TaxAmount currencyID="${cur}">${m(doc.vat)}</cbc:TaxAmount>
${subtotals}
  </cac:TaxTotal>
  <cac:LegalMonetaryTotal>
    <cbc:TaxExclusiveAmount currencyID="${cur}">${m(doc.subtotal)}</cbc:TaxExclusiveAmount>
    <cbc:TaxInclusiveAmount currencyID="${cur}">${m(doc.total)}</cbc:TaxInclusiveAmount>
    <cbc:AllowanceTotalAmount currencyID="${cur}">${m(doc.allowance)}</cbc:AllowanceTotalAmount>
    <cbc:PayableAmount currencyID="${cur}">${m(doc.total)}</cbc:PayableAmount>
  </cac:LegalMonetaryTotal>
${lines}
</${root}>
`;
}

/** One TLV field: tag byte, length byte, UTF-8 value (cut at 255 bytes on a character boundary). */
function tlv(tag: number, value: string): Buffer {
  let bytes = Buffer.from(value, 'utf8');
  if (bytes.length > 255) {
    let cut = 255;
    while (cut > 0 && (bytes[cut]! & 0xc0) === 0x80) cut--;
    bytes = bytes.subarray(0, cut);
  }
  return Buffer.concat([Buffer.from([tag, bytes.length]), bytes]);
}

/** The receipt QR payload, ZATCA phase-1 style: base64 of TLV 1 seller, 2 VAT number, 3 timestamp, 4 total, 5 VAT. */
export function qrPayload(f: {
  sellerName: string;
  vatNumber: string;
  timestamp: string;
  total: string;
  vat: string;
}) {
  return Buffer.concat([
    tlv(1, f.sellerName),
    tlv(2, f.vatNumber),
    tlv(3, f.timestamp),
    tlv(4, f.total),
    tlv(5, f.vat),
  ]).toString('base64');
}
