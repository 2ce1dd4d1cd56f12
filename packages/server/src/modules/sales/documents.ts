import {
  buildSaleReceipt,
  markCopy,
  renderText,
  type SaleItemInput,
  type VatBreakdownInput,
} from '@pharmacy/hardware';
import type { SaleReceipt } from '@pharmacy/hardware';
import type { AppContext } from '../../app-context';
import { assertBranchAccess, type AuthUser } from '../../http/auth';
import { formatMinor, toMinor } from '../../lib/money';
import { currencyExponent } from '../currency/service';
import { branchTimeZone } from '../branches/time-zone';
import { assertJobBranch, type DocumentSource } from '../printing/sources';
import { loadSaleForReceipt } from './read';

/** The spec fixes vat_breakdown and payment_lines as numbers; receipts want exact decimal strings. */
const decimal = (n: number, exponent: number) => formatMinor(toMinor(n, exponent), exponent);

/**
 * A sale as its receipt: the one model the printer prints and the till shows (`GET /sales/{id}/receipt`), built
 * from the sale record's own figures. Each line carries its own discount only (the coupon and the cashier's
 * discount print once, under the subtotal), the coupon its code, and every amount the currency's decimals
 * from the currency table.
 */
export async function saleReceiptDocument(
  app: AppContext,
  saleId: string,
): Promise<SaleReceipt & { branchId: string }> {
  const sale = await loadSaleForReceipt(app, saleId);
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
    line_discount: l.line_discount,
    line_total: l.line_total,
    vat_rate: l.vat_rate,
  }));
  const coupon = sale.coupon_id
    ? await app.db.selectFrom('coupons').select('code').where('id', '=', sale.coupon_id).executeTakeFirst()
    : undefined;
  const receipt = buildSaleReceipt(
    {
      ...sale,
      coupon_code: coupon?.code ?? null,
      vat_breakdown: vat,
      items,
      payment_lines: sale.payment_lines.map((p) => ({ method: p.method, amount: decimal(p.amount, exp) })),
    },
    {
      timeZone: await branchTimeZone(app.db, sale.branch_id),
      currencyExponent: exp,
      baseCurrencyExponent: await currencyExponent(app, sale.base_currency_code),
      // The change prints as the sale record gives it (change_given in change_currency_code), in its decimals.
      changeCurrencyExponent: await currencyExponent(app, sale.change_currency_code),
    },
  );
  return { ...receipt, branchId: sale.branch_id };
}

/** The print source of a receipt (and an invoice): the same document. */
export const saleReceiptSource: DocumentSource = async (app, job) => {
  const { branchId, ...receipt } = await saleReceiptDocument(app, job.reference_id);
  assertJobBranch(job, branchId, 'Sale');
  return receipt;
};

/** GET /sales/{id}/receipt: the receipt as text, laid out for the paper width the till shows. */
export async function saleReceiptText(
  app: AppContext,
  user: AuthUser,
  saleId: string,
  paper: '58mm' | '80mm',
  copy = false,
) {
  const { branchId, ...receipt } = await saleReceiptDocument(app, saleId);
  assertBranchAccess(user, branchId, 'sale');
  return { sale_id: saleId, text: renderText(copy ? markCopy(receipt) : receipt, { paper }) };
}
