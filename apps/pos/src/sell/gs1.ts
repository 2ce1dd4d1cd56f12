import { classifyScan } from '@pharmacy/contracts/gs1';

/** The pack fields of a GS1 scan (GTIN-14, and batch, expiry, serial when the code carries them). */
export interface Gs1Scan {
  gtin: string;
  expiry?: string;
  batch?: string;
  serial?: string;
}

/**
 * What a keyboard-wedge scan says about the pack, read by the one GS1 parser the server and the serial
 * scanners use (@pharmacy/contracts/gs1: check digits, the AI table, GS separators, symbology prefixes);
 * null for a retail barcode, free text or a malformed code.
 */
export function parseGs1(raw: string): Gs1Scan | null {
  const scan = classifyScan(raw);
  if (scan.kind !== 'gs1' || !scan.gtin) return null;
  return {
    gtin: scan.gtin,
    ...(scan.expiry && { expiry: scan.expiry }),
    ...(scan.batch && { batch: scan.batch }),
    ...(scan.serial && { serial: scan.serial }),
  };
}
