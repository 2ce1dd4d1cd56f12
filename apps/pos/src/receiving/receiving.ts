import type { Medicine, ScanClassification } from '@pharmacy/contracts';
import { minorToNumber, parseMoneyInput } from '@pharmacy/contracts/money';

/** One line of a delivery as typed: text until it is sent. */
export interface ReceiptLine {
  key: string;
  medicine: Pick<Medicine, 'id' | 'name' | 'strength'>;
  batch_number: string;
  expiry_date: string;
  quantity: string;
  unit_cost: string;
  /** Set once the server received the line (it is not sent again). */
  received?: { batchId: string; onHand: number };
}

let next = 0;

/** A new line for a medicine, with what a GS1 scan said about the batch. */
export function lineFor(medicine: ReceiptLine['medicine'], scan?: ScanClassification): ReceiptLine {
  next += 1;
  return {
    key: `line-${next}`,
    medicine,
    batch_number: scan?.batch ?? '',
    expiry_date: scan?.expiry ?? '',
    quantity: '',
    unit_cost: '',
  };
}

/** The barcode to look a scan up by: a GS1 code's GTIN, a retail code's own; null when it is no barcode. */
export function lookupCode(scan: ScanClassification): string | null {
  if (scan.kind === 'gs1') return scan.gtin ?? null;
  if (scan.kind === 'unknown') return null;
  return scan.code ?? scan.gtin ?? null;
}

/** The request numbers of a line, or what is wrong with it before asking the server. */
export function lineRequest(
  line: ReceiptLine,
  exponent: number,
): { qty_received: number; unit_cost: number } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  if (!/^\d+$/.test(line.quantity.trim()) || Number(line.quantity) <= 0)
    errors.qty_received = 'must be a whole number above 0';
  const minor = parseMoneyInput(line.unit_cost, exponent);
  if (line.unit_cost.trim() === '' || minor === null || minor < 0)
    errors.unit_cost = `must be an amount with at most ${exponent} decimals`;
  if (Object.keys(errors).length) return { errors };
  return { qty_received: Number(line.quantity), unit_cost: minorToNumber(minor!, exponent) };
}
