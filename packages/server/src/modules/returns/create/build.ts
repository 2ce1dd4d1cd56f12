import { randomUUID } from 'node:crypto';
import { vatByRate } from '@pharmacy/contracts/pricing';
import type { ReturnLinesTable, ReturnsTable } from '../../../db/tables/returns';
import type { SaleLinesTable } from '../../../db/tables/sales';
import { newId } from '../../../lib/ids';
import { mulDivRound } from '../../../lib/money';
import { fiscalXml } from '../../fiscal/documents';
import type { ReturnLineInput, ReturnPlan } from './validate';

/**
 * The build phase of POST /returns: the rows a return writes. Amounts are the sale line's own figures pro rata,
 * computed cumulatively (the refunds of all returns of a line add up exactly to the line); the credit note's
 * fiscal fields, XML and row.
 */

/** A batch a sale line took (sale_lines.batches). */
export type BatchTaken = {
  batch_id: string;
  batch_number: string;
  expiry_date: string;
  quantity: number;
  movement_id: string;
};
/** A batch a return line gave units back to (return_lines.batches). */
export type BatchBack = { batch_id: string; quantity: number; restocked: boolean; movement_ids: string[] };

export const share = (amount: number, part: number, whole: number) =>
  mulDivRound(amount, BigInt(part), BigInt(whole));

/** A line's share of `amount` for `quantity` more units, cumulative: all returns of a line add up to it. */
export const returnedShare = (amount: number, line: SaleLinesTable, quantity: number) =>
  share(amount, line.returned_quantity + quantity, line.quantity) -
  share(amount, line.returned_quantity, line.quantity);

/** The return line of `input` units of a sale line, with the batches they went back to. */
export function returnLineRow(
  returnId: string,
  line: SaleLinesTable,
  input: ReturnLineInput,
  back: readonly BatchBack[],
): ReturnLinesTable {
  const cumulative = (amount: number) => returnedShare(amount, line, input.quantity);
  return {
    id: newId(),
    return_id: returnId,
    sale_line_id: line.id,
    medicine_id: line.medicine_id,
    medicine_name: line.medicine_name,
    quantity: input.quantity,
    condition: input.condition,
    net_amount: cumulative(line.net_amount),
    vat_amount: cumulative(line.vat_amount),
    refund_amount: cumulative(line.line_total),
    vat_rate: line.vat_rate,
    batches: JSON.stringify(back),
  };
}

/** The fields the credit note's hash covers: its place in the device's chain, its sale and its amounts. */
export function creditNoteFields(
  plan: ReturnPlan,
  rows: readonly ReturnLinesTable[],
  chain: { icv: number; previousHash: string; number: string },
) {
  const { sale } = plan;
  return {
    credit_note_number: chain.number,
    uuid: randomUUID(),
    icv: chain.icv,
    device_id: plan.deviceId,
    sale_id: sale.id,
    original_invoice_number: sale.invoice_number,
    seller_vat_number: sale.seller_vat_number,
    created_at: plan.at,
    currency_code: sale.currency_code,
    refund_method: plan.refundMethod,
    subtotal_amount: rows.reduce((a, r) => a + r.net_amount, 0),
    vat_amount: rows.reduce((a, r) => a + r.vat_amount, 0),
    total_amount: rows.reduce((a, r) => a + r.refund_amount, 0),
    previous_hash: chain.previousHash,
  };
}

type CreditNoteFields = ReturnType<typeof creditNoteFields>;

/** The credit note's fiscal document (the e-invoice XML), referring to the sale's invoice. */
function creditNoteXml(
  plan: ReturnPlan,
  doc: CreditNoteFields,
  rows: readonly ReturnLinesTable[],
  saleLines: ReadonlyMap<string, SaleLinesTable>,
): string {
  const { sale } = plan;
  const byRate = vatByRate(rows.map((r) => ({ rate: r.vat_rate, net: r.net_amount, vat: r.vat_amount })));
  return fiscalXml({
    kind: 'credit_note',
    number: doc.credit_note_number,
    uuid: doc.uuid,
    icv: doc.icv,
    issuedAt: plan.at,
    currency: sale.currency_code,
    exponent: plan.exp,
    sellerName: sale.seller_name,
    sellerVat: sale.seller_vat_number,
    sellerAddress: plan.branch.address || plan.settings.address,
    buyerName: sale.customer_name,
    previousHash: doc.previous_hash,
    billingReference: sale.invoice_number,
    lines: rows.map((r, i) => ({
      id: i + 1,
      name: r.medicine_name,
      quantity: r.quantity,
      unitPrice: share(r.refund_amount, 1, r.quantity),
      net: r.net_amount,
      vat: r.vat_amount,
      gross: r.refund_amount,
      rate: r.vat_rate,
      category: saleLines.get(r.sale_line_id)!.vat_category,
    })),
    subtotal: doc.subtotal_amount,
    vat: doc.vat_amount,
    total: doc.total_amount,
    allowance: 0,
    vatBreakdown: byRate,
  });
}

/** The return row: the credit note's fields, hash and XML, who refunded it in which session. */
export function returnRow(
  plan: ReturnPlan,
  w: {
    doc: CreditNoteFields;
    fiscalHash: string;
    rows: readonly ReturnLinesTable[];
    saleLines: ReadonlyMap<string, SaleLinesTable>;
    userId: string;
    sessionId: string | null;
    clientMutationId: string;
    hash: string;
  },
): ReturnsTable {
  const { sale, body } = plan;
  const { doc } = w;
  return {
    id: plan.returnId,
    sale_id: sale.id,
    branch_id: sale.branch_id,
    user_id: w.userId,
    session_id: w.sessionId,
    device_id: plan.deviceId,
    credit_note_number: doc.credit_note_number,
    uuid: doc.uuid,
    icv: doc.icv,
    client_mutation_id: w.clientMutationId,
    payload_hash: w.hash,
    refund_method: plan.refundMethod,
    reason: body.reason,
    subtotal_amount: doc.subtotal_amount,
    vat_amount: doc.vat_amount,
    total_amount: doc.total_amount,
    currency_code: sale.currency_code,
    base_total_amount: plan.inBase(doc.total_amount),
    customer_id: sale.customer_id,
    fiscal_status: 'pending',
    fiscal_xml: creditNoteXml(plan, doc, w.rows, w.saleLines),
    fiscal_hash: w.fiscalHash,
    previous_hash: doc.previous_hash,
    sync_status: 'pending',
    created_at: plan.at,
  };
}
