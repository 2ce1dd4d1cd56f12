import { sql } from 'kysely';
import type { SaleDetail } from '@pharmacy/contracts';
import type { AppContext } from '../../../app-context';
import { recordChange } from '../../../db/changes';
import type { Db } from '../../../db/connection';
import { prepared, preparedInsert } from '../../../db/prepared';
import type { SaleLinesTable, SalesTable } from '../../../db/tables/sales';
import type { AuthUser } from '../../../http/auth';
import { Forbidden } from '../../../lib/errors';
import { consumeApproval } from '../../approvals/service';
import { type Actor, writeAudit } from '../../audit/service';
import { redeemCoupon } from '../../coupons/service';
import { chargeCustomerCredit } from '../../customers/service';
import { appendFiscalEntry, invoiceHash, nextFiscalPosition } from '../../fiscal/chain';
import { invoiceNumberOf } from '../../fiscal/device';
import { dispenseForSale, recordEmergencySupply } from '../../prescriptions/for-sale';
import { defaultPrinter, enqueuePrintJob } from '../../printing/service';
import { takingSession } from '../../sessions/service';
import { consumeFefoLines } from '../../stock/fefo';
import type { TakenBatch } from '../../stock/ledger';
import { heldReservations, takeReserved } from '../../stock/reservations';
import { completeWillCallSale } from '../../prescriptions/will-call-sale';
import { saleAnswer } from '../read';
import { type SalePlan, saleFiscalFields, saleLineRow, salePaymentRows, saleRow } from './build';

/**
 * The write phase of POST /sales: ONE transaction takes the stock FEFO, dispenses the prescription, charges
 * customer credit, counts the coupon, assigns the ICV and the hash chain and writes the sale, its lines and
 * payments, the print job, the audit row and ONE `sale` change. Any failure rolls all of it back: no sale, no
 * movement, no ledger row, no ICV consumed.
 */

// The statements every sale runs, compiled once (see db/prepared.ts).
export const saleByMutation = prepared((db, p: { clientMutationId: string }) =>
  db.selectFrom('sales').select(['id', 'payload_hash']).where('client_mutation_id', '=', p.clientMutationId),
);
const openSessionOf = prepared((db, p: { userId: string }) =>
  db
    .selectFrom('cash_sessions')
    .select(['id', 'status', 'branch_id', 'device_id'])
    .where('user_id', '=', p.userId)
    .where('status', '!=', sql.lit('closed')),
);
const insertSale = preparedInsert('sales');
const insertLines = preparedInsert('sale_lines');
const insertPayments = preparedInsert('sale_payments');

/** Thrown inside the transaction when the client_mutation_id's sale was committed meanwhile: answer it. */
export class Replay extends Error {
  constructor(readonly existing: Pick<SalesTable, 'id' | 'payload_hash'>) {
    super('replay');
  }
}

/** The request's identity: its client mutation id and the fingerprint of its body. */
export interface SaleRequestId {
  clientMutationId: string;
  hash: string;
}

/** The seller's open session on this till, whoever sells: no cash is taken outside a session. */
async function sellingSession(trx: Db, user: AuthUser, deviceId: string) {
  return takingSession(await openSessionOf.first(trx, { userId: user.id }), deviceId);
}

/**
 * Takes each line's units and makes its row with the batches taken: a will-call pickup's lines take the units
 * reserved for them, the others are taken FEFO all at once (consumeFefoLines: one read of their batches, their
 * movements in a few statements, each medicine's stock kept once).
 */
async function takeStock(trx: Db, plan: SalePlan, user: AuthUser) {
  const reserved = plan.willCall ? await heldReservations(trx, plan.willCall.dispenseIds) : [];
  const taken: TakenBatch[][] = [];
  const fefo: number[] = [];
  for (const [i, li] of plan.lineInputs.entries()) {
    if (plan.willCall?.items.has(li.m.id)) {
      // The will-call's units, reserved at dispensing (none for an entry prepared before reservations, whose
      // stock left then).
      const mine = reserved.filter((r) => r.medicine_id === li.m.id);
      taken[i] = await takeReserved(trx, mine, { id: plan.saleId, userId: user.id });
    } else fefo.push(i);
  }
  const fromBatches = await consumeFefoLines(trx, {
    branchId: plan.branch.id,
    lines: fefo.map((i) => ({
      medicineId: plan.lineInputs[i]!.m.id,
      quantity: plan.lineInputs[i]!.item.quantity,
    })),
    movementType: 'sale',
    reference: { type: 'sale', id: plan.saleId },
    userId: user.id,
    allowNegative: plan.settings.negative_stock_policy === 'allow',
    asOf: plan.asOf,
  });
  for (const [j, i] of fefo.entries()) taken[i] = fromBatches[j]!;
  const lines = plan.lineInputs.map((_, i) => saleLineRow(plan, i, taken[i]!));
  const movementIds = taken.flatMap((t) => t.map((b) => b.movementId));
  return { lines, movementIds };
}

/** Dispenses the sale's prescription; a controlled or prescription-only line it does not cover is refused. */
async function dispensePrescription(trx: Db, plan: SalePlan, user: AuthUser, prescriptionId: string) {
  const { lineInputs, rxLines } = plan;
  const send =
    rxLines.length > 0 ? rxLines : lineInputs.map((l) => ({ medicineId: l.m.id, quantity: l.item.quantity }));
  const { coveredMedicineIds } = await dispenseForSale(trx, {
    prescriptionId,
    branchId: plan.branch.id,
    saleId: plan.saleId,
    userId: user.id,
    lines: send,
  });
  const covered = new Set(coveredMedicineIds);
  for (const li of lineInputs) {
    if (covered.has(li.m.id)) continue;
    if (li.m.is_controlled || li.m.requires_prescription)
      throw new Forbidden(`The prescription does not cover ${li.m.name}.`, 'PRESCRIPTION_REQUIRED');
  }
}

/** Charges the credit tender to the customer's account and counts the coupon's use. */
async function chargeCreditAndCoupon(trx: Db, plan: SalePlan, user: AuthUser) {
  const { customer, coupon, branch, saleId } = plan;
  if (plan.tenders.credit > 0 && customer) {
    await chargeCustomerCredit(trx, {
      customerId: customer.id,
      amount: plan.money.inBase(plan.tenders.credit),
      branchId: branch.id,
      userId: user.id,
      referenceType: 'sale',
      referenceId: saleId,
      exponent: plan.money.baseExp,
    });
  }
  if (coupon) {
    await redeemCoupon(trx, {
      coupon: coupon.coupon,
      saleId,
      customerId: customer?.id ?? null,
      amount: plan.couponAmount,
      branchId: branch.id,
    });
  }
}

/** Queues the receipt (printed after commit by the worker: a printer that is off never blocks the sale). */
async function queueReceipt(trx: Db, plan: SalePlan, user: AuthUser) {
  if (plan.body.print_receipt !== false && (await defaultPrinter(trx, plan.branch.id))) {
    await enqueuePrintJob(trx, {
      branchId: plan.branch.id,
      documentType: 'receipt',
      referenceId: plan.saleId,
      createdBy: user.id,
    });
  }
}

/** The sale's audit row and its one `sale` change (lines, payments and movement ids inside). */
async function auditAndReplicate(
  trx: Db,
  actor: Actor,
  sale: SalesTable,
  rows: { lines: SaleLinesTable[]; payments: unknown[]; movementIds: string[] },
) {
  await writeAudit(trx, actor, {
    action: 'sale.create',
    entity: 'sale',
    entityId: sale.id,
    branchId: sale.branch_id,
    after: {
      invoice_number: sale.invoice_number,
      icv: sale.icv,
      total_amount: sale.total_amount,
      currency_code: sale.currency_code,
      lines: rows.lines.length,
      payment_method: sale.payment_method,
    },
  });
  await recordChange(trx, {
    entity: 'sale',
    entityId: sale.id,
    op: 'upsert',
    payload: { ...sale, lines: rows.lines, payments: rows.payments, movement_ids: rows.movementIds },
    branchId: sale.branch_id,
    clientMutationId: sale.client_mutation_id,
  });
}

/**
 * Writes the planned sale in one transaction and gives the function that builds its answer after commit.
 * Throws `Replay` when the request's client_mutation_id was committed by a concurrent request.
 */
export async function writeSale(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  plan: SalePlan,
  req: SaleRequestId,
): Promise<() => Promise<SaleDetail>> {
  const { body, branch } = plan;
  let answer: (() => Promise<SaleDetail>) | undefined;
  await app.db.transaction().execute(async (trx) => {
    if (plan.approval) {
      await consumeApproval(trx, {
        ...plan.approval,
        branchId: branch.id,
        userId: user.id,
        requestId: actor.requestId,
      });
    }
    if (body.client_mutation_id) {
      const existing = await saleByMutation.first(trx, { clientMutationId: req.clientMutationId });
      if (existing) throw new Replay(existing);
    }
    const session = await sellingSession(trx, user, plan.deviceId);
    const { lines, movementIds } = await takeStock(trx, plan, user);
    if (plan.emergencySupply)
      await recordEmergencySupply(trx, {
        ...plan.emergencySupply,
        branchId: branch.id,
        customerId: plan.customer?.id ?? null,
        userId: user.id,
        medicines: plan.rxLines,
      });
    if (plan.willCall && plan.collector)
      await completeWillCallSale(
        trx,
        actor,
        plan.willCall,
        { id: plan.saleId, userId: user.id },
        plan.collector,
      );
    else if (plan.prescriptionId) await dispensePrescription(trx, plan, user, plan.prescriptionId);
    await chargeCreditAndCoupon(trx, plan, user);

    const { icv, previousHash } = await nextFiscalPosition(trx, plan.deviceId);
    const fiscal = saleFiscalFields(
      plan,
      icv,
      previousHash,
      invoiceNumberOf(branch.code, plan.deviceId, icv),
    );
    const fiscalHash = invoiceHash(fiscal, lines);
    const sale = saleRow(plan, {
      fiscal,
      fiscalHash,
      lines,
      sessionId: session.id,
      userId: user.id,
      ...req,
    });
    const paymentRows = salePaymentRows(plan);
    await insertSale.run(trx, sale);
    await insertLines.run(trx, lines);
    await insertPayments.run(trx, paymentRows);
    await appendFiscalEntry(trx, {
      deviceId: plan.deviceId,
      icv,
      docType: 'invoice',
      docId: plan.saleId,
      hash: fiscalHash,
      previousHash,
    });
    await queueReceipt(trx, plan, user);
    await auditAndReplicate(trx, actor, sale, { lines, payments: paymentRows, movementIds });
    const row = {
      ...sale,
      pharmacist_name: user.fullName,
      branch_name: branch.name,
      branch_address: branch.address,
      branch_vat_number: branch.vat_number,
      customer_current_name: plan.customer?.name ?? null,
    };
    answer = () => saleAnswer(app, row, paymentRows, lines);
  });
  return answer!;
}
