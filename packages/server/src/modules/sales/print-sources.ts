import {
  buildCreditNote,
  buildSaleReceipt,
  buildZReport,
  type SaleItemInput,
  type VatBreakdownInput,
} from '@pharmacy/hardware';
import type { AppContext } from '../../app-context';
import type { AuthUser } from '../../http/auth';
import { NotFound } from '../../http/errors';
import { formatMinor, mulDivRound, parseDecimalToMinor, toMinor } from '../../lib/money';
import { currencyExponent } from '../currency/service';
import { type PrintJobForSource, registerDocumentSource } from '../printing/service';
import { getReturn } from '../returns/service';
import { getSettings } from '../settings/service';
import { zReport } from '../sessions/reports';
import { loadSaleForReceipt } from './read';

async function branchTimeZone(app: AppContext, branchId: string): Promise<string> {
  const row = await app.db
    .selectFrom('branches')
    .select('timezone')
    .where('id', '=', branchId)
    .executeTakeFirst();
  return row?.timezone ?? 'UTC';
}

/** A print job prints only documents of its own branch, whoever enqueued it. */
function assertSameBranch(job: PrintJobForSource, branchId: string, what: string): void {
  if (branchId !== job.branch_id) throw new NotFound(what, job.reference_id);
}

/** The spec fixes vat_breakdown and payment_lines as numbers; receipts want exact decimal strings. */
const decimal = (n: number, exponent: number) => formatMinor(toMinor(n, exponent), exponent);

async function saleDocument(app: AppContext, job: PrintJobForSource) {
  const sale = await loadSaleForReceipt(app, job.reference_id);
  assertSameBranch(job, sale.branch_id, 'Sale');
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

/** Sales, returns and sessions as printable documents for the print worker. */
export function registerSellingDocuments(): void {
  const receipt = async (app: AppContext, job: PrintJobForSource) => {
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
  registerDocumentSource('receipt', receipt);
  registerDocumentSource('invoice', receipt);

  registerDocumentSource('credit_note', async (app, job) => {
    const ret = await getReturn(app, job.reference_id);
    assertSameBranch(job, ret.branch_id, 'Return');
    const sale = await loadSaleForReceipt(app, ret.sale_id);
    const exp = await currencyExponent(app, ret.currency_code);
    const byRate = new Map<number, { taxable: number; vat: number }>();
    for (const line of ret.lines) {
      const entry = byRate.get(line.vat_rate) ?? { taxable: 0, vat: 0 };
      entry.taxable += parseDecimalToMinor(line.net_amount, exp);
      entry.vat += parseDecimalToMinor(line.vat_amount, exp);
      byRate.set(line.vat_rate, entry);
    }
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
        vat_breakdown: [...byRate].map(([rate, v]) => ({
          rate,
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
          line_total: l.refund_amount,
          vat_rate: l.vat_rate,
        })),
        refund_method: ret.refund_method,
        pharmacist_name: ret.user_name,
        fiscal_hash: ret.fiscal_hash,
      },
      { timeZone: await branchTimeZone(app, ret.branch_id) },
    );
  });

  registerDocumentSource('report', async (app, job) => {
    // The worker reads as the system; the branch check above keeps a job to its own branch's sessions.
    const reader: AuthUser = {
      id: job.created_by,
      role: 'admin',
      branchId: job.branch_id,
      email: '',
      fullName: '',
    };
    const z = await zReport(app, reader, job.reference_id);
    assertSameBranch(job, z.branch_id, 'Session');
    const { organization_name } = await getSettings(app);
    return buildZReport(
      {
        organization_name,
        branch_name: z.branch_name,
        z_number: z.z_number ?? 'X',
        cashier_name: z.user_name,
        opened_at: z.opened_at,
        closed_at: z.closed_at ?? z.generated_at,
        currency_code: z.currency_code,
        sale_count: z.sales_count,
        return_count: z.returns.count,
        payment_totals: z.by_payment.map((p) => ({ method: p.method, count: p.count, amount: p.amount })),
        vat_breakdown: z.vat_by_rate,
        gross_sales: z.gross_sales,
        discount_total: z.discounts.total,
        returns_total: z.returns.total,
        net_sales: z.net_sales,
        opening_float: z.opening_float,
        expected_cash: z.expected_cash,
        cash_refunds: z.cash_refunds,
        counted_cash: z.counted_cash ?? '0',
        variance: z.variance,
      },
      { timeZone: await branchTimeZone(app, z.branch_id) },
    );
  });
}
