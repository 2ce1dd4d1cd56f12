import { randomUUID } from 'node:crypto';
import type { CreateSaleRequest, Settings } from '@pharmacy/contracts';
import { basketAfterLineDiscounts, type PricedCart, priceCart, rateText } from '@pharmacy/contracts/pricing';
import type { AppContext } from '../../../app-context';
import { preparedShapes, prepared } from '../../../db/prepared';
import type { SaleLinesTable, SalePaymentsTable, SalesTable } from '../../../db/tables/sales';
import type { AuthUser } from '../../../http/auth';
import { Conflict, Invalid, NotFound } from '../../../lib/errors';
import { formatScaled, parseScaled, RATE_SCALE } from '../../../lib/decimal';
import { newId } from '../../../lib/ids';
import { formatMinor, toMinor } from '../../../lib/money';
import { nowIso } from '../../../lib/time';
import { drawerCurrencies } from '../../branches/service';
import { couponForSale } from '../../coupons/service';
import { fromBase, toBase } from '../../currency/fx';
import { currencyExponent, resolveRate } from '../../currency/service';
import { getCustomerRow } from '../../customers/service';
import { getLocalDeviceId } from '../../fiscal/device';
import { fiscalXml } from '../../fiscal/documents';
import {
  checkWillCallSale,
  loadWillCallForSale,
  type WillCallForSale,
} from '../../prescriptions/will-call-sale';
import { localDate } from '@pharmacy/contracts/time';
import type { TakenBatch } from '../../stock/ledger';
import { noApprovalNeeds, saleApproval } from '../approval';
import { checkSaleLines, pct } from './lines';
import { checkTenders } from './tenders';

/**
 * The build phase of POST /sales: everything a sale needs before its transaction, read and checked (reads only,
 * the 4xx a request deserves thrown here), and the rows the transaction writes, made from that plan and what the
 * transaction found (the batches FEFO took, the session, the fiscal position).
 */

const branchOfSale = prepared((db, p: { id: string }) =>
  db
    .selectFrom('branches')
    .select([
      'id',
      'code',
      'name',
      'address',
      'vat_number',
      'currency_code',
      'timezone',
      'is_active',
      'drawer_currencies',
    ])
    .where('id', '=', p.id),
);
const currencyOfSale = prepared((db, p: { code: string }) =>
  db.selectFrom('currencies').select(['code', 'exponent', 'is_active']).where('code', '=', p.code),
);
/** One shape per number of distinct medicines; the parameters are m0, m1... */
const medicinesOfSale = preparedShapes(
  (p: Record<string, string>) => String(Object.keys(p).length),
  (db, p, given) =>
    db
      .selectFrom('medicines')
      .select([
        'id',
        'name',
        'selling_price',
        'max_public_price',
        'requires_prescription',
        'is_controlled',
        'is_active',
        'vat_category',
      ])
      .where(
        'id',
        'in',
        Object.keys(given).map((k) => p[k]!),
      ),
);

type SaleBranch = NonNullable<Awaited<ReturnType<typeof branchOfSale.first>>>;

/** The sale's currency, its rate to the base currency at the time of sale, and conversions both ways. */
export interface SaleMoney {
  currency: string;
  baseCode: string;
  exp: number;
  baseExp: number;
  soldAt: string;
  rate: ReturnType<typeof parseScaled>;
  /** A base-currency amount in the sale's currency. */
  inSale: (baseMinor: number) => number;
  /** A sale-currency amount in the base currency. */
  inBase: (minor: number) => number;
  fmt: (minor: number) => string;
}

async function saleMoney(
  app: AppContext,
  body: CreateSaleRequest,
  settings: Settings,
  branch: SaleBranch,
): Promise<SaleMoney> {
  const baseCode = settings.base_currency_code;
  const currency = body.currency_code ?? branch.currency_code ?? baseCode;
  const cur = await currencyOfSale.first(app.db, { code: currency });
  if (!cur?.is_active)
    throw new Invalid(`currency_code ${currency} is not an active currency.`, [
      { path: 'currency_code', message: 'unknown or inactive currency' },
    ]);
  const exp = cur.exponent;
  const baseExp = await currencyExponent(app, baseCode);
  const soldAt = nowIso();
  let rate = parseScaled('1');
  if (currency !== baseCode) {
    try {
      rate = (await resolveRate(app.db, currency, baseCode, soldAt)).scaled;
    } catch (e) {
      if (e instanceof NotFound)
        throw new Conflict(
          `No exchange rate from ${currency} to ${baseCode} is in force; file one first.`,
          'NO_EXCHANGE_RATE',
        );
      throw e;
    }
  }
  const inSale = (baseMinor: number) =>
    currency === baseCode ? baseMinor : fromBase(baseMinor, rate, exp, baseExp);
  const inBase = (minor: number) => (currency === baseCode ? minor : toBase(minor, rate, exp, baseExp));
  const fmt = (n: number) => formatMinor(n, exp);
  return { currency, baseCode, exp, baseExp, soldAt, rate, inSale, inBase, fmt };
}

/** The checked lines, the discounts (and the approval they need), the customer, the coupon and the priced cart. */
async function priceSale(
  app: AppContext,
  user: AuthUser,
  body: CreateSaleRequest,
  settings: Settings,
  money: SaleMoney,
  willCall: WillCallForSale | null,
) {
  const { currency, exp, inSale, inBase, fmt, soldAt } = money;
  // Medicines, prices, discounts, approvals, prescription rules.
  const ids = [...new Set(body.items.map((i) => i.medicine_id))];
  const meds = new Map(
    (await medicinesOfSale.all(app.db, Object.fromEntries(ids.map((id, i) => [`m${i}`, id])))).map((m) => [
      m.id,
      m,
    ]),
  );
  const approvalNeeds = noApprovalNeeds(currency, exp);
  const threshold = settings.discount_approval_threshold_pct;
  const { lineInputs, rxLines } = checkSaleLines({
    willCallMedicines: new Set(willCall?.items.keys()),
    body,
    user,
    meds,
    taxPolicy: settings.tax_policy,
    exp,
    threshold,
    inSale,
    fmt,
    approvalNeeds,
  });
  const basket = basketAfterLineDiscounts(lineInputs);
  const globalDiscount =
    body.global_discount === undefined ? 0 : toMinor(body.global_discount, exp, 'global_discount');
  if (globalDiscount > basket)
    throw new Invalid(
      `global_discount ${fmt(globalDiscount)} is more than the basket ${fmt(basket)}.`,
      [{ path: 'global_discount', message: 'more than the basket' }],
      'DISCOUNT_TOO_LARGE',
    );
  if (pct(globalDiscount, basket) > threshold) approvalNeeds.global_discount = globalDiscount;
  // Consumed once inside the sale's transaction (create/write.ts), which it must cover.
  const approval = saleApproval(user, body.approval_id, approvalNeeds, threshold);

  const customer = body.customer_id ? await getCustomerRow(app.db, body.customer_id) : null;
  const coupon = body.coupon_code
    ? await couponForSale(app.db, body.coupon_code, {
        baseBasket: inBase(basket),
        basket: basket - globalDiscount,
        customerId: customer?.id ?? null,
        at: soldAt,
        fromBase: inSale,
      })
    : null;
  // The one pricing rule the till's estimate also runs (@pharmacy/contracts/pricing).
  const priced: PricedCart = priceCart({
    lines: lineInputs,
    globalDiscount,
    coupon: coupon?.coupon ?? null,
    pricesIncludeVat: settings.tax_policy.prices_include_vat,
    fromBase: inSale,
  });
  return { lineInputs, rxLines, globalDiscount, approval, customer, coupon, priced };
}

/** A will-call pickup's entry and collector, checked against the sale's lines (issue 27.1). */
async function willCallOfSale(app: AppContext, body: CreateSaleRequest, branchId: string) {
  if (!body.will_call_id) return null;
  const willCall = await loadWillCallForSale(app.db, body.will_call_id, branchId);
  if (body.prescription_id && body.prescription_id !== willCall.prescriptionId)
    throw new Invalid('The will-call entry belongs to another prescription than the sale names.', [
      { path: 'prescription_id', message: 'not the will-call entry’s prescription' },
    ]);
  const collector = checkWillCallSale(willCall, body.items, body.collected_by);
  return { willCall, collector };
}

/** Everything the sale's transaction writes from, checked and priced. */
export type SalePlan = Awaited<ReturnType<typeof buildSale>>;

/**
 * Reads and checks everything before the transaction: the branch sells, the currency and its rate, each line
 * (create/lines.ts), the discounts and their approval, the customer and coupon, the price (the till's own
 * pricing rule) and the tenders (create/tenders.ts). Throws the request's 4xx; writes nothing.
 */
export async function buildSale(
  app: AppContext,
  user: AuthUser,
  body: CreateSaleRequest,
  settings: Settings,
) {
  const branch = await branchOfSale.first(app.db, { id: user.branchId });
  if (!branch) throw new NotFound('Branch', user.branchId);
  if (!branch.is_active)
    throw new Conflict(`Branch ${branch.name} is inactive; it cannot sell.`, 'BRANCH_INACTIVE');
  const money = await saleMoney(app, body, settings, branch);
  const pickup = await willCallOfSale(app, body, branch.id);
  const cart = await priceSale(app, user, body, settings, money, pickup?.willCall ?? null);
  const total = cart.priced.total;
  const tenders = checkTenders(body, total, money, cart.customer !== null);
  // Change comes out of a drawer that holds the sale's currency, else in the base currency (issue 27.4).
  const changeCurrency =
    money.currency === money.baseCode || drawerCurrencies(branch).includes(money.currency)
      ? money.currency
      : money.baseCode;
  // An emergency supply is recorded as a prescription of its own, made in the sale's transaction.
  const emergencySupply =
    !body.prescription_id && body.emergency_supply && cart.rxLines.length > 0
      ? { prescriptionId: newId(), ...body.emergency_supply }
      : null;
  return {
    prescriptionId:
      pickup?.willCall.prescriptionId ?? body.prescription_id ?? emergencySupply?.prescriptionId ?? null,
    emergencySupply,
    willCall: pickup?.willCall ?? null,
    changeCurrency,
    collector: pickup?.collector ?? null,
    body,
    settings,
    branch,
    money,
    ...cart,
    couponAmount: cart.priced.couponDiscount,
    total,
    tenders,
    deviceId: await getLocalDeviceId(app.db),
    asOf: localDate(branch.timezone),
    saleId: newId(),
    uuid: randomUUID(),
    rateStr: formatScaled(money.rate, RATE_SCALE, RATE_SCALE, true),
  };
}

/** Line `i` of the sale, priced by the plan, with the batches FEFO took for it. */
export function saleLineRow(plan: SalePlan, i: number, taken: readonly TakenBatch[]): SaleLinesTable {
  const li = plan.lineInputs[i]!;
  const p = plan.priced.lines[i]!;
  return {
    id: newId(),
    sale_id: plan.saleId,
    line_no: i + 1,
    medicine_id: li.m.id,
    medicine_name: li.m.name,
    quantity: li.item.quantity,
    unit_price: li.unitPrice,
    catalogue_price: li.catalogue,
    line_discount: p.lineDiscount,
    allocated_discount: p.allocatedDiscount,
    net_amount: p.net,
    vat_amount: p.vat,
    line_total: p.gross,
    vat_rate: rateText(li.rate),
    vat_category: li.category,
    cost_amount: taken.reduce((a, t) => a + t.quantity * t.unitCost, 0),
    batches: JSON.stringify(
      taken.map((t) => ({
        batch_id: t.batchId,
        batch_number: t.batchNumber,
        expiry_date: t.expiryDate,
        quantity: t.quantity,
        movement_id: t.movementId,
      })),
    ),
    returned_quantity: 0,
  };
}

/** The fields the fiscal hash covers: the sale's place in the device's chain and its amounts. */
export function saleFiscalFields(plan: SalePlan, icv: number, previousHash: string, invoiceNumber: string) {
  const { settings, money, priced, customer } = plan;
  return {
    invoice_number: invoiceNumber,
    uuid: plan.uuid,
    icv,
    device_id: plan.deviceId,
    seller_name: settings.organization_legal_name || settings.organization_name,
    seller_vat_number: settings.vat_number,
    sold_at: money.soldAt,
    currency_code: money.currency,
    customer_id: customer?.id ?? null,
    subtotal_amount: priced.subtotal,
    vat_amount: priced.vat,
    total_amount: plan.total,
    line_discount_amount: priced.lineDiscount,
    global_discount: plan.globalDiscount,
    coupon_discount: plan.couponAmount,
    vat_breakdown: JSON.stringify(priced.breakdown),
    previous_hash: previousHash,
  };
}

type SaleFiscalFields = ReturnType<typeof saleFiscalFields>;

/** The sale's fiscal document (the e-invoice XML) from its fiscal fields and lines. */
function saleXml(plan: SalePlan, fiscal: SaleFiscalFields, lines: readonly SaleLinesTable[]): string {
  const { settings, money, priced } = plan;
  return fiscalXml({
    kind: 'invoice',
    number: fiscal.invoice_number,
    uuid: plan.uuid,
    icv: fiscal.icv,
    issuedAt: money.soldAt,
    currency: money.currency,
    exponent: money.exp,
    sellerName: fiscal.seller_name,
    sellerVat: settings.vat_number,
    sellerAddress: plan.branch.address || settings.address,
    buyerName: plan.customer?.name ?? null,
    previousHash: fiscal.previous_hash,
    lines: lines.map((l) => ({
      id: l.line_no,
      name: l.medicine_name,
      quantity: l.quantity,
      unitPrice: l.unit_price,
      net: l.net_amount,
      vat: l.vat_amount,
      gross: l.line_total,
      rate: l.vat_rate,
      category: l.vat_category,
    })),
    subtotal: priced.subtotal,
    vat: priced.vat,
    total: plan.total,
    allowance: priced.lineDiscount + plan.globalDiscount + plan.couponAmount,
    vatBreakdown: priced.breakdown,
  });
}

/** The sale row: its fiscal fields and hash, who sold it in which session, the tenders and the base amounts. */
export function saleRow(
  plan: SalePlan,
  w: {
    fiscal: SaleFiscalFields;
    fiscalHash: string;
    lines: readonly SaleLinesTable[];
    sessionId: string | null;
    userId: string;
    clientMutationId: string;
    hash: string;
  },
): SalesTable {
  const { body, settings, money, priced, customer, coupon, tenders } = plan;
  const { inBase } = money;
  return {
    ...w.fiscal,
    id: plan.saleId,
    branch_id: plan.branch.id,
    user_id: w.userId,
    session_id: w.sessionId,
    client_mutation_id: w.clientMutationId,
    payload_hash: w.hash,
    paid_amount: tenders.paid,
    change_amount: tenders.change,
    base_currency_code: money.baseCode,
    fx_rate_to_base: plan.rateStr,
    base_total_amount: inBase(plan.total),
    base_vat_amount: inBase(priced.vat),
    base_change_amount: inBase(tenders.change),
    change_currency_code: plan.changeCurrency,
    prices_include_vat: settings.tax_policy.prices_include_vat ? 1 : 0,
    payment_method: tenders.paymentMethod,
    notes: body.notes ?? '',
    customer_name: customer?.name ?? null,
    coupon_id: coupon?.coupon.id ?? null,
    coupon_code: coupon?.coupon.code ?? null,
    prescription_id: plan.prescriptionId,
    approval_id: body.approval_id ?? null,
    fiscal_status: 'pending',
    fiscal_xml: saleXml(plan, w.fiscal, w.lines),
    fiscal_hash: w.fiscalHash,
    sync_status: 'pending',
    is_deleted: 0,
    has_return: 0,
    created_at: money.soldAt,
  };
}

/** The payment rows of the sale, in the order the tenders came. */
export function salePaymentRows(plan: SalePlan): SalePaymentsTable[] {
  return plan.tenders.payments.map((p, i) => ({
    id: newId(),
    sale_id: plan.saleId,
    line_no: i + 1,
    method: p.method,
    amount: p.amount,
    base_amount: plan.money.inBase(p.amount),
    reference: p.reference,
  }));
}
