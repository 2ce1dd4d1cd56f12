import { createHash } from 'node:crypto';
import type { Db } from '../../db/connection';
import { prepared, preparedInsert } from '../../db/prepared';
import { canonicalJson } from '../../lib/canonical-json';
import { nowIso } from '../../lib/time';

/**
 * The fiscal chain. One chain per device over every fiscal document it issues, invoices and credit notes alike
 * (as ZATCA's ICV/PIH do): the ICV counts from 1 without gaps across both, and each document's hash covers its
 * canonical payload, which includes the previous document's hash. Hashes are SHA-256 in lowercase hex; the first
 * document's previous hash is GENESIS_HASH = SHA-256("0").
 *
 * The canonical payload is rebuilt from the stored columns (never stored itself), so changing any fiscal field
 * of a stored sale or credit note breaks the chain at that document: verifyFiscalChain finds it.
 */
export const GENESIS_HASH = createHash('sha256').update('0').digest('hex');

export { canonicalJson };

export const sha256Hex = (text: string): string => createHash('sha256').update(text).digest('hex');

export interface FiscalPosition {
  icv: number;
  previousHash: string;
}

const lastPosition = prepared((db, p: { deviceId: string }) =>
  db
    .selectFrom('fiscal_chain')
    .select(['icv', 'fiscal_hash'])
    .where('device_id', '=', p.deviceId)
    .orderBy('icv', 'desc')
    .limit(1),
);
const insertEntry = preparedInsert('fiscal_chain');

/** The next ICV and previous hash of a device; call inside the document's transaction (one connection: serial). */
export async function nextFiscalPosition(trx: Db, deviceId: string): Promise<FiscalPosition> {
  const last = await lastPosition.first(trx, { deviceId });
  return last
    ? { icv: last.icv + 1, previousHash: last.fiscal_hash }
    : { icv: 1, previousHash: GENESIS_HASH };
}

export async function appendFiscalEntry(
  trx: Db,
  entry: {
    deviceId: string;
    icv: number;
    docType: 'invoice' | 'credit_note';
    docId: string;
    hash: string;
    previousHash: string;
  },
): Promise<void> {
  await insertEntry.run(trx, {
    device_id: entry.deviceId,
    icv: entry.icv,
    doc_type: entry.docType,
    doc_id: entry.docId,
    fiscal_hash: entry.hash,
    previous_hash: entry.previousHash,
    created_at: nowIso(),
  });
}

// ------------------------------------------------------------------ canonical payloads

export interface InvoiceFiscalFields {
  invoice_number: string;
  uuid: string;
  icv: number;
  device_id: string;
  seller_name: string;
  seller_vat_number: string;
  sold_at: string;
  currency_code: string;
  customer_id: string | null;
  subtotal_amount: number;
  vat_amount: number;
  total_amount: number;
  line_discount_amount: number;
  global_discount: number;
  coupon_discount: number;
  vat_breakdown: string;
  previous_hash: string;
}

export interface InvoiceLineFiscalFields {
  line_no: number;
  medicine_id: string;
  medicine_name: string;
  quantity: number;
  unit_price: number;
  line_discount: number;
  allocated_discount: number;
  net_amount: number;
  vat_rate: string;
  vat_amount: number;
  line_total: number;
}

/** The canonical payload of an invoice (amounts in minor units of its currency). */
export function invoicePayload(sale: InvoiceFiscalFields, lines: InvoiceLineFiscalFields[]) {
  return {
    type: 'invoice',
    invoice_number: sale.invoice_number,
    uuid: sale.uuid,
    icv: sale.icv,
    device_id: sale.device_id,
    seller_name: sale.seller_name,
    seller_vat_number: sale.seller_vat_number,
    issued_at: sale.sold_at,
    currency_code: sale.currency_code,
    customer_id: sale.customer_id,
    lines: [...lines]
      .sort((a, b) => a.line_no - b.line_no)
      .map((l) => ({
        line_no: l.line_no,
        medicine_id: l.medicine_id,
        name: l.medicine_name,
        quantity: l.quantity,
        unit_price: l.unit_price,
        line_discount: l.line_discount,
        allocated_discount: l.allocated_discount,
        net_amount: l.net_amount,
        vat_rate: l.vat_rate,
        vat_amount: l.vat_amount,
        line_total: l.line_total,
      })),
    totals: {
      subtotal: sale.subtotal_amount,
      vat: sale.vat_amount,
      total: sale.total_amount,
      line_discount: sale.line_discount_amount,
      global_discount: sale.global_discount,
      coupon_discount: sale.coupon_discount,
    },
    vat_breakdown: JSON.parse(sale.vat_breakdown) as unknown,
    previous_hash: sale.previous_hash,
  };
}

export const invoiceHash = (sale: InvoiceFiscalFields, lines: InvoiceLineFiscalFields[]) =>
  sha256Hex(canonicalJson(invoicePayload(sale, lines)));

export interface CreditNoteFiscalFields {
  credit_note_number: string;
  uuid: string;
  icv: number;
  device_id: string;
  sale_id: string;
  original_invoice_number: string;
  seller_vat_number: string;
  created_at: string;
  currency_code: string;
  refund_method: string;
  subtotal_amount: number;
  vat_amount: number;
  total_amount: number;
  previous_hash: string;
}

export interface CreditNoteLineFiscalFields {
  sale_line_id: string;
  medicine_id: string;
  quantity: number;
  condition: string;
  net_amount: number;
  vat_amount: number;
  refund_amount: number;
  vat_rate: string;
}

export function creditNotePayload(doc: CreditNoteFiscalFields, lines: CreditNoteLineFiscalFields[]) {
  return {
    type: 'credit_note',
    credit_note_number: doc.credit_note_number,
    uuid: doc.uuid,
    icv: doc.icv,
    device_id: doc.device_id,
    original_invoice_number: doc.original_invoice_number,
    sale_id: doc.sale_id,
    seller_vat_number: doc.seller_vat_number,
    issued_at: doc.created_at,
    currency_code: doc.currency_code,
    refund_method: doc.refund_method,
    lines: [...lines]
      .sort((a, b) => (a.sale_line_id < b.sale_line_id ? -1 : a.sale_line_id > b.sale_line_id ? 1 : 0))
      .map((l) => ({
        sale_line_id: l.sale_line_id,
        medicine_id: l.medicine_id,
        quantity: l.quantity,
        condition: l.condition,
        net_amount: l.net_amount,
        vat_amount: l.vat_amount,
        refund_amount: l.refund_amount,
        vat_rate: l.vat_rate,
      })),
    totals: { subtotal: doc.subtotal_amount, vat: doc.vat_amount, total: doc.total_amount },
    previous_hash: doc.previous_hash,
  };
}

export const creditNoteHash = (doc: CreditNoteFiscalFields, lines: CreditNoteLineFiscalFields[]) =>
  sha256Hex(canonicalJson(creditNotePayload(doc, lines)));

// ------------------------------------------------------------------ verification

export interface FiscalChainReport {
  device_id: string;
  checked: number;
  ok: boolean;
  /** The first document whose hash or link does not hold, or null when the whole chain verifies. */
  first_broken: {
    icv: number;
    doc_type: 'invoice' | 'credit_note';
    doc_id: string;
    number: string | null;
    reason: string;
  } | null;
}

/**
 * Re-walks a device's chain from ICV 1: each entry must follow the previous without a gap, link to the previous
 * hash, and its document, rebuilt from the stored rows, must hash to the recorded value. Returns the first
 * broken document (tampering, a deleted document, an edited line) or ok.
 */
export async function verifyFiscalChain(db: Db, deviceId: string): Promise<FiscalChainReport> {
  const entries = await db
    .selectFrom('fiscal_chain')
    .selectAll()
    .where('device_id', '=', deviceId)
    .orderBy('icv')
    .execute();
  const sales = new Map(
    (await db.selectFrom('sales').selectAll().where('device_id', '=', deviceId).execute()).map((s) => [
      s.id,
      s,
    ]),
  );
  const saleLines = new Map<string, InvoiceLineFiscalFields[]>();
  for (const l of await db
    .selectFrom('sale_lines')
    .innerJoin('sales', 'sales.id', 'sale_lines.sale_id')
    .selectAll('sale_lines')
    .where('sales.device_id', '=', deviceId)
    .execute()) {
    const list = saleLines.get(l.sale_id) ?? [];
    list.push(l);
    saleLines.set(l.sale_id, list);
  }
  const returns = new Map(
    (
      await db
        .selectFrom('returns')
        .innerJoin('sales', 'sales.id', 'returns.sale_id')
        .selectAll('returns')
        .select(['sales.invoice_number as original_invoice_number', 'sales.seller_vat_number'])
        .where('returns.device_id', '=', deviceId)
        .execute()
    ).map((r) => [r.id, r]),
  );
  const returnLines = new Map<string, CreditNoteLineFiscalFields[]>();
  for (const l of await db
    .selectFrom('return_lines')
    .innerJoin('returns', 'returns.id', 'return_lines.return_id')
    .selectAll('return_lines')
    .where('returns.device_id', '=', deviceId)
    .execute()) {
    const list = returnLines.get(l.return_id) ?? [];
    list.push(l);
    returnLines.set(l.return_id, list);
  }

  let previous = GENESIS_HASH;
  let checked = 0;
  for (const [i, e] of entries.entries()) {
    const broken = (reason: string, number: string | null = null): FiscalChainReport => ({
      device_id: deviceId,
      checked,
      ok: false,
      first_broken: { icv: e.icv, doc_type: e.doc_type, doc_id: e.doc_id, number, reason },
    });
    if (e.icv !== i + 1) return broken(`ICV ${i + 1} is missing (found ${e.icv})`);
    if (e.previous_hash !== previous) return broken('the chain link to the previous document does not match');
    if (e.doc_type === 'invoice') {
      const sale = sales.get(e.doc_id);
      if (!sale) return broken('the invoice is missing');
      if (sale.icv !== e.icv || sale.previous_hash !== previous || sale.fiscal_hash !== e.fiscal_hash)
        return broken('the invoice fiscal fields differ from the chain', sale.invoice_number);
      if (invoiceHash(sale, saleLines.get(sale.id) ?? []) !== e.fiscal_hash)
        return broken('the invoice content does not match its hash', sale.invoice_number);
    } else {
      const doc = returns.get(e.doc_id);
      if (!doc) return broken('the credit note is missing');
      if (doc.icv !== e.icv || doc.previous_hash !== previous || doc.fiscal_hash !== e.fiscal_hash)
        return broken('the credit note fiscal fields differ from the chain', doc.credit_note_number);
      if (creditNoteHash(doc, returnLines.get(doc.id) ?? []) !== e.fiscal_hash)
        return broken('the credit note content does not match its hash', doc.credit_note_number);
    }
    previous = e.fiscal_hash;
    checked++;
  }
  return { device_id: deviceId, checked, ok: true, first_broken: null };
}
