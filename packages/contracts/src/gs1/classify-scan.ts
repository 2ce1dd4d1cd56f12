import { hasValidGs1CheckDigit } from './check-digit';
import { GS, type Gs1Data, parseGs1 } from './gs1-parser';
import { normaliseGtin } from './gtin';

export type ScanClassification =
  | ({ kind: 'gs1'; raw: string } & Gs1Data)
  | { kind: 'ean13' | 'upca' | 'ean8'; code: string; gtin: string; raw: string }
  | { kind: 'unknown'; raw: string; reason: string };

const RETAIL_SYMBOLOGY_IDS = [']E0', ']E4', ']E3'];

/** Decides what a scanner delivered; never throws. */
export function classifyScan(raw: string, now?: Date): ScanClassification {
  const text = raw.replace(/[\r\n]+$/, '');
  if (text.length === 0) return { kind: 'unknown', raw, reason: 'empty scan' };

  const retailId = RETAIL_SYMBOLOGY_IDS.find((id) => text.startsWith(id));
  const body = retailId ? text.slice(3) : text;

  if (!retailId && looksLikeGs1(body)) {
    try {
      return { kind: 'gs1', raw, ...parseGs1(body, { now }) };
    } catch (error) {
      return { kind: 'unknown', raw, reason: error instanceof Error ? error.message : String(error) };
    }
  }

  if (/^\d+$/.test(body)) {
    if (!hasValidGs1CheckDigit(body)) return { kind: 'unknown', raw, reason: 'check digit mismatch' };
    const gtin = normaliseGtin(body);
    if (gtin !== null) {
      if (body.length === 13) return { kind: 'ean13', code: body, gtin, raw };
      if (body.length === 12) return { kind: 'upca', code: body, gtin, raw };
      if (body.length === 8) return { kind: 'ean8', code: body, gtin, raw };
      // A bare GTIN-14 with indicator 0 is the same trade item as its EAN-13.
      if (body.length === 14 && body.startsWith('0'))
        return { kind: 'ean13', code: body.slice(1), gtin, raw };
    }
  }
  return { kind: 'unknown', raw, reason: 'not a recognised retail or GS1 code' };
}

function looksLikeGs1(text: string): boolean {
  if (text.startsWith(']')) return true;
  if (text.includes(GS)) return true;
  if (/^\(\d{2,4}\)/.test(text)) return true;
  // Scanners configured without symbology identifiers send "01<gtin14>..." with nothing else to go on.
  return /^01\d{14}/.test(text);
}
