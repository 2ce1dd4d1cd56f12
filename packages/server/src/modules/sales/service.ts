import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { CreateSaleRequest, SaleDetail } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import { recordChange } from '../../db/changes';
import { prepared, preparedInsert, preparedShapes } from '../../db/prepared';
import type { AuthUser } from '../../http/auth';
import { Conflict, Forbidden, Invalid, NotFound } from '../../http/errors';
import { formatScaled, parseScaled, RATE_SCALE } from '../../lib/decimal';
import { newId } from '../../lib/ids';
import { formatMinor, toMinor } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { couponForSale, redeemCoupon } from '../coupons/service';
import { currencyExponent, resolveRate } from '../currency/service';
import { chargeCustomerCredit, getCustomerRow } from '../customers/service';
import {
  appendFiscalEntry,
  canonicalJson,
  invoiceHash,
  nextFiscalPosition,
  sha256Hex,
} from '../fiscal/chain';
import { getLocalDeviceId, invoiceNumberOf } from '../fiscal/device';
import { fiscalXml } from '../fiscal/documents';
import { NoOpenSession } from '../sessions/service';
import { dispenseForSale } from '../prescriptions/for-sale';
import { getSettings } from '../settings/service';
import { localDate } from '../stock/dates';
import { consumeFefo } from '../stock/ledger';
import { fromBase, toBase } from '../currency/fx';
import { basketAfterLineDiscounts, priceCart, rateText } from '@pharmacy/contracts/pricing';
import { defaultPrinter, enqueuePrintJob } from '../printing/service';
import { assertBootstrapped } from '../sync/runtime';
import { consumeApproval } from '../approvals/service';
import { noApprovalNeeds, saleApproval } from './approval';
import { loadSaleForReceipt, saleAnswer } from './read';
import { checkSaleLines, DISPENSING_ROLES, pct } from './create/lines';
import { checkTenders } from './create/tenders';
import type { SaleLinesTable, SalePaymentsTable, SalesTable } from '../../db/tables/sales';

const SESSION_REQUIRED_ROLES = ['cashier', 'pharmacist'];

/** The request's fingerprint: the same client_mutation_id must always carry the same sale. */
export function payloadHash(userId: string, body: object): string {
  const { client_mutation_id: _, ...rest } = body as Record<string, unknown>;
  return sha256Hex(canonicalJson({ user_id: userId, body: rest }));
}

export interface SaleResult {
  replay: boolean;
  sale: SaleDetail;
}

async function replayOf(
  app: AppContext,
  existing: Pick<SalesTable, 'id' | 'payload_hash'>,
  hash: string,
): Promise<SaleResult> {
  if (existing.payload_hash !== hash)
    throw new Conflict(
      'This client_mutation_id was already used for a different sale; use a new id for a new sale.',
      'MUTATION_ID_REUSED',
    );
  return { replay: true, sale: await loadSaleForReceipt(app, existing.id) };
}

class Replay extends Error {
  constructor(readonly existing: Pick<SalesTable, 'id' | 'payload_hash'>) {
    super('replay');
  }
}

// The statements every sale runs, compiled once (see db/prepared.ts).
const saleByMutation = prepared((db, p: { cmid: string }) =>
  db.selectFrom('sales').select(['id', 'payload_hash']).where('client_mutation_id', '=', p.cmid),
);
const branchOfSale = prepared((db, p: { id: string }) =>
  db
    .selectFrom('branches')
    .select(['id', 'code', 'name', 'address', 'vat_number', 'currency_code', 'timezone', 'is_active'])
    .where('id', '=', p.id),
);
const currencyOfSale = prepared((db, p: { code: string }) =>
  db.selectFrom('currencies').select(['code', 'exponent', 'is_active']).where('code', '=', p.code),
);
const openSessionOf = prepared((db, p: { userId: string }) =>
  db
    .selectFrom('cash_sessions')
    .select(['id', 'status', 'branch_id'])
    .where('user_id', '=', p.userId)
    .where('status', '!=', sql.lit('closed')),
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
const insertSale = preparedInsert('sales');
const insertLines = preparedInsert('sale_lines');
const insertPayments = preparedInsert('sale_payments');

/**
 * POST /sales. Everything is checked and priced before the transaction (reads only); the transaction then takes
 * the stock FEFO, dispenses the prescription, charges customer credit, counts the coupon, assigns the ICV and the
 * hash chain and writes the sale, its lines and payments, the audit row and ONE `sale` change. Any failure rolls
 * all of it back: no sale, no movement, no ledger row, no ICV consumed.
 */
export async function createSale(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  body: CreateSaleRequest,
): Promise<SaleResult> {
  // A till replicating to central sells only once its first sync has loaded the catalogue and users.
  await assertBootstrapped(app);
  const settings = await getSettings(app);
  const hash = payloadHash(user.id, body);
  const cmid = body.client_mutation_id ?? newId();
  if (body.client_mutation_id) {
    const existing = await saleByMutation.first(app.db, { cmid });
    if (existing) return replayOf(app, existing, hash);
  }

  const branch = await branchOfSale.first(app.db, { id: user.branchId });
  if (!branch) throw new NotFound('Branch', user.branchId);
  if (!branch.is_active)
    throw new Conflict(`Branch ${branch.name} is inactive; it cannot sell.`, 'BRANCH_INACTIVE');

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
  // Consumed once inside the sale's transaction (below), which it must cover.
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
  const priced = priceCart({
    lines: lineInputs,
    globalDiscount,
    coupon: coupon?.coupon ?? null,
    pricesIncludeVat: settings.tax_policy.prices_include_vat,
    fromBase: inSale,
  });
  const couponAmount = priced.couponDiscount;
  const total = priced.total;

  const { payments, paid, change, credit, paymentMethod } = checkTenders(body, total, exp, customer !== null);

  const deviceId = await getLocalDeviceId(app.db);
  const asOf = localDate(branch.timezone);
  const saleId = newId();
  const uuid = randomUUID();
  const rateStr = formatScaled(rate, RATE_SCALE, RATE_SCALE, true);

  let answer: (() => Promise<SaleDetail>) | undefined;
  try {
    await app.db.transaction().execute(async (trx) => {
      if (approval) {
        await consumeApproval(trx, {
          ...approval,
          branchId: branch.id,
          userId: user.id,
          requestId: actor.requestId,
        });
      }
      if (body.client_mutation_id) {
        const existing = await saleByMutation.first(trx, { cmid });
        if (existing) throw new Replay(existing);
      }
      const session = await openSessionOf.first(trx, { userId: user.id });
      if (session?.status === 'on_break')
        throw new Conflict(
          'Your cash session is on a break; end the break before selling.',
          'SESSION_ON_BREAK',
        );
      if (!session && SESSION_REQUIRED_ROLES.includes(user.role)) throw new NoOpenSession();

      const lines: SaleLinesTable[] = [];
      const movementIds: string[] = [];
      for (const [i, li] of lineInputs.entries()) {
        const taken = await consumeFefo(trx, {
          branchId: branch.id,
          medicineId: li.m.id,
          quantity: li.item.quantity,
          movementType: 'sale',
          reference: { type: 'sale', id: saleId },
          userId: user.id,
          allowNegative: settings.negative_stock_policy === 'allow',
          asOf,
        });
        const p = priced.lines[i]!;
        movementIds.push(...taken.map((t) => t.movementId));
        lines.push({
          id: newId(),
          sale_id: saleId,
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
        });
      }

      if (body.prescription_id) {
        const send =
          rxLines.length > 0
            ? rxLines
            : lineInputs.map((l) => ({ medicineId: l.m.id, quantity: l.item.quantity }));
        const { coveredMedicineIds } = await dispenseForSale(trx, {
          prescriptionId: body.prescription_id,
          branchId: branch.id,
          saleId,
          userId: user.id,
          lines: send,
        });
        const covered = new Set(coveredMedicineIds);
        for (const li of lineInputs) {
          if (covered.has(li.m.id)) continue;
          if (li.m.is_controlled || (li.m.requires_prescription && !DISPENSING_ROLES.includes(user.role)))
            throw new Forbidden(`The prescription does not cover ${li.m.name}.`, 'PRESCRIPTION_REQUIRED');
        }
      }

      if (credit > 0 && customer) {
        await chargeCustomerCredit(trx, {
          customerId: customer.id,
          amount: inBase(credit),
          branchId: branch.id,
          userId: user.id,
          referenceType: 'sale',
          referenceId: saleId,
          exponent: baseExp,
        });
      }
      if (coupon) {
        await redeemCoupon(trx, {
          coupon: coupon.coupon,
          saleId,
          customerId: customer?.id ?? null,
          amount: couponAmount,
          branchId: branch.id,
        });
      }

      const { icv, previousHash } = await nextFiscalPosition(trx, deviceId);
      const invoiceNumber = invoiceNumberOf(branch.code, deviceId, icv);
      const breakdown = JSON.stringify(priced.breakdown);
      const sellerName = settings.organization_legal_name || settings.organization_name;
      const fiscal = {
        invoice_number: invoiceNumber,
        uuid,
        icv,
        device_id: deviceId,
        seller_name: sellerName,
        seller_vat_number: settings.vat_number,
        sold_at: soldAt,
        currency_code: currency,
        customer_id: customer?.id ?? null,
        subtotal_amount: priced.subtotal,
        vat_amount: priced.vat,
        total_amount: total,
        line_discount_amount: priced.lineDiscount,
        global_discount: globalDiscount,
        coupon_discount: couponAmount,
        vat_breakdown: breakdown,
        previous_hash: previousHash,
      };
      const fiscalHash = invoiceHash(fiscal, lines);
      const sale: SalesTable = {
        ...fiscal,
        id: saleId,
        branch_id: branch.id,
        user_id: user.id,
        session_id: session?.id ?? null,
        client_mutation_id: cmid,
        payload_hash: hash,
        paid_amount: paid,
        change_amount: change,
        base_currency_code: baseCode,
        fx_rate_to_base: rateStr,
        base_total_amount: inBase(total),
        base_vat_amount: inBase(priced.vat),
        base_change_amount: inBase(change),
        prices_include_vat: settings.tax_policy.prices_include_vat ? 1 : 0,
        payment_method: paymentMethod,
        notes: body.notes ?? '',
        customer_name: customer?.name ?? null,
        coupon_id: coupon?.coupon.id ?? null,
        coupon_code: coupon?.coupon.code ?? null,
        prescription_id: body.prescription_id ?? null,
        approval_id: body.approval_id ?? null,
        fiscal_status: 'pending',
        fiscal_xml: fiscalXml({
          kind: 'invoice',
          number: invoiceNumber,
          uuid,
          icv,
          issuedAt: soldAt,
          currency,
          exponent: exp,
          sellerName,
          sellerVat: settings.vat_number,
          sellerAddress: branch.address || settings.address,
          buyerName: customer?.name ?? null,
          previousHash,
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
          total,
          allowance: priced.lineDiscount + globalDiscount + couponAmount,
          vatBreakdown: priced.breakdown,
        }),
        fiscal_hash: fiscalHash,
        sync_status: 'pending',
        is_deleted: 0,
        has_return: 0,
        created_at: soldAt,
      };
      const paymentRows: SalePaymentsTable[] = payments.map((p, i) => ({
        id: newId(),
        sale_id: saleId,
        line_no: i + 1,
        method: p.method,
        amount: p.amount,
        base_amount: inBase(p.amount),
        reference: p.reference,
      }));
      await insertSale.run(trx, sale);
      await insertLines.run(trx, lines);
      await insertPayments.run(trx, paymentRows);
      await appendFiscalEntry(trx, {
        deviceId,
        icv,
        docType: 'invoice',
        docId: saleId,
        hash: fiscalHash,
        previousHash,
      });
      // The receipt prints after commit through the worker: a printer that is off never blocks the sale.
      if (body.print_receipt !== false && (await defaultPrinter(trx, branch.id))) {
        await enqueuePrintJob(trx, {
          branchId: branch.id,
          documentType: 'receipt',
          referenceId: saleId,
          createdBy: user.id,
        });
      }
      await writeAudit(trx, actor, {
        action: 'sale.create',
        entity: 'sale',
        entityId: saleId,
        branchId: branch.id,
        after: {
          invoice_number: invoiceNumber,
          icv,
          total_amount: total,
          currency_code: currency,
          lines: lines.length,
          payment_method: paymentMethod,
        },
      });
      await recordChange(trx, {
        entity: 'sale',
        entityId: saleId,
        op: 'upsert',
        payload: { ...sale, lines, payments: paymentRows, movement_ids: movementIds },
        branchId: branch.id,
        clientMutationId: cmid,
      });
      const row = {
        ...sale,
        pharmacist_name: user.fullName,
        branch_name: branch.name,
        branch_address: branch.address,
        branch_vat_number: branch.vat_number,
        customer_current_name: customer?.name ?? null,
      };
      answer = () => saleAnswer(app, row, paymentRows, lines);
    });
  } catch (e) {
    if (e instanceof Replay) return replayOf(app, e.existing, hash);
    throw e;
  }
  return { replay: false, sale: await answer!() };
}
