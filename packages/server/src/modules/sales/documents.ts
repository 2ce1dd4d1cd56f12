import { buildSaleReceipt, type SaleItemInput, type VatBreakdownInput } from '@pharmacy/hardware';
import type { AppContext } from '../../app-context';
import { formatMinor, toMinor } from '../../lib/money';
import { currencyExponent } from '../currency/service';
import {
  assertJobBranch,
  branchTimeZone,
  type DocumentSource,
  type PrintJobForSource,
} from '../printing/sources';
import { loadSaleForReceipt } from './read';

/** The spec fixes vat_breakdown and payment_lines as numbers; receipts want exact decimal strings. */
const decimal = (n: number, exponent: number) => formatMinor(toMinor(n, exponent), exponent);

async function saleDocument(app: AppContext, job: PrintJobForSource) {
  const sale = await loadSaleForReceipt(app, job.reference_id);
  assertJobBranch(job, sale.branch_id, 'Sale');
  const exp = await currencyExponent(app, sale.currency_code);
  const vat: VatBreakdownInput[] = sale.vat_breakdown.map((r) => ({
    rate: r.rate,
    taxable_amount: decimal(r.taxable_amount, exp),
    vat_amount: decimal(r.vat_amount, exp),
  }));
  const items: SaleItemInput[] = sale.items.map((l) => ({
    name: l.medicine_name,
    quantity: l.quantity,
    unit_price: l.unit_price,
    discount: l.discount,
    line_total: l.line_total,
    vat_category: l.vat_category,
    vat_rate: l.vat_rate,
  }));
  return { sale, exp, vat, items, timeZone: await branchTimeZone(app, sale.branch_id) };
}

/** A sale as its receipt; the same document serves an invoice. */
export const saleReceiptSource: DocumentSource = async (app, job) => {
  const { sale, exp, vat, items, timeZone } = await saleDocument(app, job);
  return buildSaleReceipt(
    {
      ...sale,
      vat_breakdown: vat,
      items,
      payment_lines: sale.payment_lines.map((p) => ({ method: p.method, amount: decimal(p.amount, exp) })),
    },
    { timeZone },
  );
};
