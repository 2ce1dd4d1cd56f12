import { withinUtcDays } from '../../db/utc-days';
import type { Sale, SaleDetail } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { prepared } from '../../db/prepared';
import { assertBranchAccess, type AuthUser, isBranchBound } from '../../http/auth';
import { NotFound } from '../../lib/errors';
import { formatMinor } from '../../lib/money';
import { currencyExponent } from '../currency/service';
import { qrPayload } from '../fiscal/documents';
import { getSettings } from '../settings/service';
import type { SaleLinesTable, SalesTable } from '../../db/tables/sales';
import { paginate } from '../../db/paginate';

/**
 * The sale read model: the spec's Sale list item (receipt fields included) and, for one sale, its lines. Receipt
 * texts and organisation fields come from the current settings; the seller VAT number and name that the fiscal
 * document carries are the ones stored on the sale at the time of sale.
 */

function saleQuery(db: Db) {
  return db
    .selectFrom('sales as s')
    .innerJoin('users as u', 'u.id', 's.user_id')
    .innerJoin('branches as b', 'b.id', 's.branch_id')
    .leftJoin('customers as c', 'c.id', 's.customer_id')
    .selectAll('s')
    .select([
      'u.full_name as pharmacist_name',
      'b.name as branch_name',
      'b.address as branch_address',
      'b.vat_number as branch_vat_number',
      'c.name as customer_current_name',
    ]);
}

export type SaleRow = SalesTable & {
  pharmacist_name: string;
  branch_name: string;
  branch_address: string;
  branch_vat_number: string;
  customer_current_name: string | null;
};

export interface PaymentRow {
  sale_id: string;
  method: string;
  amount: number;
  line_no: number;
}

async function exponents(app: AppContext, codes: Iterable<string>): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  for (const c of codes) if (!out.has(c)) out.set(c, await currencyExponent(app, c));
  return out;
}

const majorNumber = (minor: number, exp: number): number => Number(formatMinor(minor, exp));

/** The sales as the API shows them; `known` gives payments already in hand (a sale just made). */
async function toSales(app: AppContext, rows: SaleRow[], known?: PaymentRow[]): Promise<Sale[]> {
  if (rows.length === 0) return [];
  const settings = await getSettings(app);
  const exps = await exponents(
    app,
    rows.flatMap((r) => [r.currency_code, r.base_currency_code]),
  );
  const payments = new Map<string, PaymentRow[]>();
  if (known) for (const r of rows) payments.set(r.id, known);
  const ids = known ? [] : rows.map((r) => r.id);
  for (let i = 0; i < ids.length; i += 500) {
    const chunk = await app.db
      .selectFrom('sale_payments')
      .select(['sale_id', 'method', 'amount', 'line_no'])
      .where('sale_id', 'in', ids.slice(i, i + 500))
      .orderBy('line_no')
      .execute();
    for (const p of chunk) {
      const list = payments.get(p.sale_id) ?? [];
      list.push(p);
      payments.set(p.sale_id, list);
    }
  }
  return rows.map((r) => {
    const exp = exps.get(r.currency_code)!;
    const bexp = exps.get(r.base_currency_code)!;
    const f = (n: number) => formatMinor(n, exp);
    const breakdown = JSON.parse(r.vat_breakdown) as Array<{ rate: string; taxable: number; vat: number }>;
    return {
      id: r.id,
      branch_id: r.branch_id,
      user_id: r.user_id,
      invoice_number: r.invoice_number,
      uuid: r.uuid,
      icv: r.icv,
      client_mutation_id: r.client_mutation_id,
      payload_hash: r.payload_hash,
      device_id: r.device_id,
      sync_status: r.sync_status,
      subtotal_amount: f(r.subtotal_amount),
      vat_amount: f(r.vat_amount),
      total_amount: f(r.total_amount),
      currency_code: r.currency_code,
      base_currency_code: r.base_currency_code,
      fx_rate_to_base: r.fx_rate_to_base,
      base_total_amount: formatMinor(r.base_total_amount, bexp),
      vat_breakdown: breakdown.map((b) => ({
        rate: Number(b.rate),
        taxable_amount: majorNumber(b.taxable, exp),
        vat_amount: majorNumber(b.vat, exp),
      })),
      payment_method: r.payment_method,
      payment_lines: (payments.get(r.id) ?? []).map((p) => ({
        method: p.method,
        amount: majorNumber(p.amount, exp),
      })),
      change_amount: f(r.change_amount),
      ...changeGiven(r, exp, bexp),
      notes: r.notes,
      session_id: r.session_id,
      customer_id: r.customer_id,
      customer_name: r.customer_name,
      coupon_id: r.coupon_id,
      global_discount: f(r.global_discount),
      coupon_discount: f(r.coupon_discount),
      line_discount_amount: f(r.line_discount_amount),
      prescription_id: r.prescription_id,
      approval_id: r.approval_id,
      fiscal_status: r.fiscal_status,
      fiscal_xml: r.fiscal_xml,
      fiscal_hash: r.fiscal_hash,
      is_deleted: r.is_deleted,
      sold_at: r.sold_at,
      pharmacist_name: r.pharmacist_name,
      customer_display_name: r.customer_name ?? r.customer_current_name ?? 'Walk-in customer',
      branch_name: r.branch_name,
      branch_address: r.branch_address,
      branch_vat_number: r.branch_vat_number,
      organization_name: settings.organization_name,
      organization_legal_name: settings.organization_legal_name,
      organization_phone: settings.phone,
      organization_email: settings.email,
      organization_address: settings.address,
      organization_tin: settings.tin,
      organization_vat_number: settings.vat_number,
      receipt_header: settings.receipt_header,
      receipt_footer: settings.receipt_footer,
      return_policy: settings.return_policy,
      has_return: r.has_return === 1,
    };
  });
}

export function toSaleLine(l: SaleLinesTable, exp: number) {
  const f = (n: number) => formatMinor(n, exp);
  return {
    id: l.id,
    line_no: l.line_no,
    medicine_id: l.medicine_id,
    medicine_name: l.medicine_name,
    quantity: l.quantity,
    unit_price: f(l.unit_price),
    discount: f(l.line_discount + l.allocated_discount),
    line_discount: f(l.line_discount),
    allocated_discount: f(l.allocated_discount),
    net_amount: f(l.net_amount),
    vat_amount: f(l.vat_amount),
    line_total: f(l.line_total),
    vat_rate: Number(l.vat_rate),
    vat_category: l.vat_category,
    returned_quantity: l.returned_quantity,
    batches: JSON.parse(l.batches) as SaleDetail['items'][number]['batches'],
  };
}

export async function getSaleRow(db: Db, id: string): Promise<SalesTable> {
  const row = await db.selectFrom('sales').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Sale', id);
  return row;
}

const saleById = prepared((db, p: { id: string }) => saleQuery(db).where('s.id', '=', p.id));
const linesOfSale = prepared((db, p: { saleId: string }) =>
  db.selectFrom('sale_lines').selectAll().where('sale_id', '=', p.saleId).orderBy('line_no'),
);

/**
 * One sale with its lines, as a receipt, the sale endpoints and the fiscal preview show it. Read for every
 * printed receipt and sale read: both queries are compiled once.
 */
export async function loadSaleForReceipt(app: AppContext, saleId: string): Promise<SaleDetail> {
  const row = (await saleById.first(app.db, { id: saleId })) as SaleRow | undefined;
  if (!row) throw new NotFound('Sale', saleId);
  return withLines(app, (await toSales(app, [row]))[0]!, await linesOfSale.all(app.db, { saleId }));
}

/**
 * A sale just written, answered from the rows its transaction inserted (lines and payments in line order) and
 * the joined names it already had: reading them back cost three queries per sale. The sale tests check that
 * this answer equals GET /sales/{id}.
 */
/** The change as given: in the sale's currency, or in the base currency when the drawer holds no other. */
function changeGiven(
  r: Pick<SalesTable, 'change_currency_code' | 'currency_code' | 'change_amount' | 'base_change_amount'>,
  exp: number,
  bexp: number,
) {
  const inSaleCurrency = (r.change_currency_code ?? r.currency_code) === r.currency_code;
  return {
    change_currency_code: r.change_currency_code ?? r.currency_code,
    change_given: inSaleCurrency
      ? formatMinor(r.change_amount, exp)
      : formatMinor(r.base_change_amount, bexp),
  };
}

export async function saleAnswer(
  app: AppContext,
  row: SaleRow,
  payments: PaymentRow[],
  lines: SaleLinesTable[],
): Promise<SaleDetail> {
  return withLines(app, (await toSales(app, [row], payments))[0]!, lines);
}

async function withLines(app: AppContext, sale: Sale, lines: SaleLinesTable[]): Promise<SaleDetail> {
  const exp = await currencyExponent(app, sale.currency_code);
  return { ...sale, items: lines.map((l) => toSaleLine(l, exp)) };
}

export async function readSale(app: AppContext, user: AuthUser, saleId: string): Promise<SaleDetail> {
  const sale = await loadSaleForReceipt(app, saleId);
  assertBranchAccess(user, sale.branch_id, 'sale');
  return sale;
}

export interface SaleFilter {
  page: number;
  page_size: number;
  branch_id?: string;
  session_id?: string;
  customer_id?: string;
  user_id?: string;
  invoice_number?: string;
  from?: string;
  to?: string;
}

/** GET /sales: newest first; pharmacists see their own sales, other branch-bound roles their branch. */
export async function listSales(app: AppContext, user: AuthUser, f: SaleFilter) {
  let q = saleQuery(app.db);
  const branch = isBranchBound(user) ? user.branchId : f.branch_id;
  if (branch) q = q.where('s.branch_id', '=', branch);
  if (user.role === 'pharmacist') q = q.where('s.user_id', '=', user.id);
  else if (f.user_id) q = q.where('s.user_id', '=', f.user_id);
  if (f.session_id) q = q.where('s.session_id', '=', f.session_id);
  if (f.customer_id) q = q.where('s.customer_id', '=', f.customer_id);
  if (f.invoice_number) q = q.where('s.invoice_number', '=', f.invoice_number);
  q = withinUtcDays(q, 's.sold_at', f);
  const found = await paginate(q, f, (q) => q.orderBy('s.sold_at', 'desc').orderBy('s.id', 'desc'));
  return { ...found, items: await toSales(app, found.items as SaleRow[]) };
}

export async function saleInvoice(app: AppContext, user: AuthUser, saleId: string) {
  const s = await getSaleRow(app.db, saleId);
  assertBranchAccess(user, s.branch_id, 'sale');
  const exp = await currencyExponent(app, s.currency_code);
  const total = formatMinor(s.total_amount, exp);
  const vat = formatMinor(s.vat_amount, exp);
  return {
    sale_id: s.id,
    invoice_number: s.invoice_number,
    uuid: s.uuid,
    icv: s.icv,
    device_id: s.device_id,
    fiscal_hash: s.fiscal_hash,
    previous_hash: s.previous_hash,
    fiscal_status: s.fiscal_status,
    sold_at: s.sold_at,
    total_amount: total,
    vat_amount: vat,
    currency_code: s.currency_code,
    qr_payload: qrPayload({
      sellerName: s.seller_name,
      vatNumber: s.seller_vat_number,
      timestamp: s.sold_at,
      total,
      vat,
    }),
  };
}
