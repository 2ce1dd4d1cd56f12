export interface FiscalQrFields {
  sellerName: string;
  vatNumber: string;
  /** ISO 8601 timestamp of the invoice. */
  timestamp: string;
  /** Invoice total including VAT. */
  total: string;
  vatTotal: string;
  /** Base64 hash of the signed invoice (ZATCA phase 2), when the server has one. */
  invoiceHash?: string;
}

export type FiscalQrFormat = 'zatca-tlv' | 'simple';

const ZATCA_TAGS: ReadonlyArray<[number, keyof FiscalQrFields]> = [
  [1, 'sellerName'],
  [2, 'vatNumber'],
  [3, 'timestamp'],
  [4, 'total'],
  [5, 'vatTotal'],
  [6, 'invoiceHash'],
];

/** ZATCA (Saudi e-invoicing) QR: tag/length/value records with one-byte lengths, base64 encoded. */
export function encodeZatcaQr(fields: FiscalQrFields): string {
  const records: Buffer[] = [];
  for (const [tag, key] of ZATCA_TAGS) {
    const value = fields[key];
    if (value === undefined || value === '') continue;
    const bytes = Buffer.from(value, 'utf8');
    if (bytes.length > 255) throw new RangeError(`QR field ${key} is longer than 255 bytes`);
    records.push(Buffer.from([tag, bytes.length]), bytes);
  }
  return Buffer.concat(records).toString('base64');
}

export function decodeZatcaQr(base64: string): Map<number, string> {
  const bytes = Buffer.from(base64, 'base64');
  const fields = new Map<number, string>();
  let pos = 0;
  while (pos < bytes.length) {
    const tag = bytes[pos];
    const length = bytes[pos + 1];
    if (tag === undefined || length === undefined || pos + 2 + length > bytes.length) {
      throw new RangeError('Truncated TLV record in QR payload');
    }
    fields.set(tag, bytes.subarray(pos + 2, pos + 2 + length).toString('utf8'));
    pos += 2 + length;
  }
  return fields;
}

const SIMPLE_KEYS: ReadonlyArray<[string, keyof FiscalQrFields]> = [
  ['seller', 'sellerName'],
  ['vat_no', 'vatNumber'],
  ['ts', 'timestamp'],
  ['total', 'total'],
  ['vat', 'vatTotal'],
  ['hash', 'invoiceHash'],
];

/**
 * For jurisdictions without a mandated QR layout: "FQR1;seller=...;vat_no=...;ts=...;total=...;vat=...;hash=..."
 * with each value percent-encoded (so ";" and "=" inside values stay unambiguous).
 */
export function encodeSimpleFiscalQr(fields: FiscalQrFields): string {
  const parts = ['FQR1'];
  for (const [name, key] of SIMPLE_KEYS) {
    const value = fields[key];
    if (value !== undefined && value !== '') parts.push(`${name}=${encodeURIComponent(value)}`);
  }
  return parts.join(';');
}

export function encodeFiscalQr(fields: FiscalQrFields, format: FiscalQrFormat = 'zatca-tlv'): string {
  return format === 'zatca-tlv' ? encodeZatcaQr(fields) : encodeSimpleFiscalQr(fields);
}
