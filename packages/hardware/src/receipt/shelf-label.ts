import { currencyExponent, normaliseDecimal } from '@pharmacy/contracts/money';
import { gtinToEan13 } from '@pharmacy/contracts/gs1';
import type { LabelBarcodeSymbology, ShelfLabel } from './document-types';
import { present } from './organisation-input';

export interface ShelfLabelInput {
  name: string;
  strength?: string | null;
  /** Dosage form: tablets, syrup, ... */
  form?: string | null;
  pack_size?: string | null;
  price: string;
  currency_code: string;
  /** EAN-13 / UPC-A / GTIN-14, or any internal code (printed as CODE128). */
  barcode: string;
  unit_price_text?: string | null;
}

export function buildShelfLabel(input: ShelfLabelInput): ShelfLabel {
  return {
    kind: 'shelf-label',
    name: input.name,
    strengthAndForm: [present(input.strength), present(input.form)].filter(Boolean).join(' '),
    packSize: present(input.pack_size),
    price: normaliseDecimal(input.price, currencyExponent(input.currency_code)),
    currency: input.currency_code,
    unitPriceText: present(input.unit_price_text),
    barcode: chooseLabelBarcode(input.barcode),
  };
}

/** EAN-13 when the code is a GTIN that fits one, CODE128 for anything else printable. */
export function chooseLabelBarcode(code: string): { symbology: LabelBarcodeSymbology; data: string } {
  const trimmed = code.trim();
  const ean13 = /^\d+$/.test(trimmed) ? gtinToEan13(trimmed) : null;
  if (ean13 && trimmed.length !== 8) return { symbology: 'ean13', data: ean13 };
  if (!/^[\x20-\x7e]+$/.test(trimmed)) throw new RangeError(`Barcode "${code}" cannot be printed as CODE128`);
  return { symbology: 'code128', data: trimmed };
}
