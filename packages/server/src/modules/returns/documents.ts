import { vatByRate } from '@pharmacy/contracts/pricing';
import { buildCreditNote } from '@pharmacy/hardware';
import { formatMinor, mulDivRound, parseDecimalToMinor } from '../../lib/money';
import { currencyExponent } from '../currency/service';
import { branchTimeZone } from '../branches/time-zone';
import { assertJobBranch, type DocumentSource } from '../printing/sources';
import { loadSaleForReceipt } from '../sales/read';
import { getReturn } from './service';

/** A return as its credit note. */
export const creditNoteSource: DocumentSource = async (app, job) => {
  const ret = await getReturn(app, job.reference_id);
  assertJobBranch(job, ret.branch_id, 'Return');
  const sale = await loadSaleForReceipt(app, ret.sale_id);
  const exp = await currencyExponent(app, ret.currency_code);
  const byRate = vatByRate(
    ret.lines.map((l) => ({
      rate: l.vat_rate,
      net: parseDecimalToMinor(l.net_amount, exp),
      vat: parseDecimalToMinor(l.vat_amount, exp),
    })),
  );
  return buildCreditNote(
    {
      ...sale,
      credit_note_number: ret.credit_note_number,
      original_invoice_number: ret.invoice_number,
      returned_at: ret.created_at,
      uuid: ret.uuid,
      reason: ret.reason,
      currency_code: ret.currency_code,
      subtotal_amount: ret.subtotal_amount,
      vat_amount: ret.vat_amount,
      total_amount: ret.total_amount,
      vat_breakdown: byRate.map((v) => ({
        rate: v.rate,
        taxable_amount: formatMinor(v.taxable, exp),
        vat_amount: formatMinor(v.vat, exp),
      })),
      items: ret.lines.map((l) => ({
        name: l.medicine_name,
        quantity: l.quantity,
        unit_price: formatMinor(
          mulDivRound(parseDecimalToMinor(l.refund_amount, exp), 1n, BigInt(l.quantity)),
          exp,
        ),
        amount: l.refund_amount,
        line_total: l.refund_amount,
        vat_rate: l.vat_rate,
      })),
      refund_method: ret.refund_method,
      pharmacist_name: ret.user_name,
      fiscal_hash: ret.fiscal_hash,
    },
    { timeZone: await branchTimeZone(app.db, ret.branch_id), currencyExponent: exp },
  );
};
