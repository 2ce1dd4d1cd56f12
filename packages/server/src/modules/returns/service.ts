import { sql } from 'kysely';
import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { CreateReturnRequest, SaleReturn } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordChange } from '../../db/changes';
import { assertBranchAccess, type AuthUser, isBranchBound } from '../../http/auth';
import { Conflict, Invalid, NotFound } from '../../http/errors';
import { newId } from '../../lib/ids';
import { formatMinor, mulDivRound } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { currencyExponent } from '../currency/service';
import { refundCustomerCredit } from '../customers/service';
import { appendFiscalEntry, creditNoteHash, nextFiscalPosition } from '../fiscal/chain';
import { creditNoteNumberOf, getLocalDeviceId } from '../fiscal/device';
import { fiscalXml } from '../fiscal/documents';
import { rateOf, toBase } from '../currency/fx';
import { loadSaleForReceipt } from '../sales/read';
import { payloadHash } from '../sales/service';
import type { ReturnLinesTable, ReturnsTable } from '../../db/tables/returns';
import type { SaleLinesTable } from '../../db/tables/sales';
import { NoOpenSession } from '../sessions/service';
import { getSettings } from '../settings/service';
import { localDate } from '../stock/dates';
import { moveBatchQuantity } from '../stock/ledger';
import { assertRefundTender } from './refund-tender';

/**
 * Returns issue credit notes: their own numbers (CN-<invoice-style number>) from the device's ICV sequence and
 * hash chain (shared with invoices). Per line, never more than sold minus already returned (guarded UPDATE of
 * sale_lines.returned_quantity, so concurrent returns cannot over-return). Amounts are the line's own figures
 * pro rata, computed cumulatively (the refunds of all returns of a line add up exactly to the line).
 * Resaleable units go back into their original batches (movement `return`); damaged or expired units, or units of
 * a batch that has expired meanwhile, come back and are written off at once (movements `return` + `write_off`).
 */

type BatchTaken = {
  batch_id: string;
  batch_number: string;
  expiry_date: string;
  quantity: number;
  movement_id: string;
};
type BatchBack = { batch_id: string; quantity: number; restocked: boolean; movement_ids: string[] };

const share = (amount: number, part: number, whole: number) =>
  mulDivRound(amount, BigInt(part), BigInt(whole));

/** A line's share of `amount` for `quantity` more units, cumulative: all returns of a line add up to it. */
const returnedShare = (amount: number, line: SaleLinesTable, quantity: number) =>
  share(amount, line.returned_quantity + quantity, line.quantity) -
  share(amount, line.returned_quantity, line.quantity);

export async function createReturn(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  body: z.output<typeof CreateReturnRequest>,
): Promise<{ replay: boolean; ret: SaleReturn }> {
  const hash = payloadHash(user.id, body);
  const cmid = body.client_mutation_id ?? newId();
  const existingOf = (db: Db) =>
    db
      .selectFrom('returns')
      .select(['id', 'payload_hash'])
      .where('client_mutation_id', '=', cmid)
      .executeTakeFirst();
  const replay = async (e: { id: string; payload_hash: string }) => {
    if (e.payload_hash !== hash)
      throw new Conflict(
        'This client_mutation_id was already used for a different return.',
        'MUTATION_ID_REUSED',
      );
    return { replay: true, ret: await getReturn(app, e.id) };
  };
  if (body.client_mutation_id) {
    const e = await existingOf(app.db);
    if (e) return replay(e);
  }
  const sale = await app.db.selectFrom('sales').selectAll().where('id', '=', body.sale_id).executeTakeFirst();
  if (!sale) throw new NotFound('Sale', body.sale_id);
  assertBranchAccess(user, sale.branch_id, 'sale');
  const settings = await getSettings(app);
  const branch = await app.db
    .selectFrom('branches')
    .select(['code', 'address', 'timezone'])
    .where('id', '=', sale.branch_id)
    .executeTakeFirstOrThrow();
  const exp = await currencyExponent(app, sale.currency_code);
  const baseExp = await currencyExponent(app, sale.base_currency_code);
  const inBase = (n: number) =>
    sale.currency_code === sale.base_currency_code
      ? n
      : toBase(n, rateOf(sale.fx_rate_to_base), exp, baseExp);
  const payMethods = (
    await app.db.selectFrom('sale_payments').select('method').where('sale_id', '=', sale.id).execute()
  ).map((p) => p.method);
  const refundMethod =
    body.refund_method ??
    (payMethods.includes('credit') ? 'credit' : payMethods.length === 1 ? payMethods[0]! : 'cash');
  if (refundMethod === 'credit' && !sale.customer_id)
    throw new Invalid('A refund to credit needs a sale with a customer.', [
      { path: 'refund_method', message: 'sale has no customer' },
    ]);
  const seen = new Set<string>();
  for (const l of body.lines) {
    if (seen.has(l.sale_line_id))
      throw new Invalid('Each sale line may appear once in a return.', [
        { path: 'lines', message: `duplicate ${l.sale_line_id}` },
      ]);
    seen.add(l.sale_line_id);
  }
  const deviceId = await getLocalDeviceId(app.db);
  const today = localDate(branch.timezone);
  const returnId = newId();
  const at = nowIso();

  try {
    await app.db.transaction().execute(async (trx) => {
      if (body.client_mutation_id && (await existingOf(trx))) throw new ReplayError();
      const session = await trx
        .selectFrom('cash_sessions')
        .select(['id', 'status'])
        .where('user_id', '=', user.id)
        .where('status', '!=', sql.lit('closed'))
        .executeTakeFirst();
      if (refundMethod === 'cash' && !session) throw new NoOpenSession();
      const saleLines = new Map(
        (await trx.selectFrom('sale_lines').selectAll().where('sale_id', '=', sale.id).execute()).map((l) => [
          l.id,
          l,
        ]),
      );
      const picked = body.lines.map((input, i) => {
        const line = saleLines.get(input.sale_line_id);
        if (!line)
          throw new Invalid(`Line ${input.sale_line_id} is not a line of sale ${sale.invoice_number}.`, [
            { path: `lines.${i}.sale_line_id`, message: 'not a line of this sale' },
          ]);
        if (line.returned_quantity + input.quantity > line.quantity) throw exceedsSold(line, input.quantity);
        return { line, input };
      });
      const approvalId = await assertRefundTender(trx, {
        sale,
        user,
        method: refundMethod,
        amount: picked.reduce((a, p) => a + returnedShare(p.line.line_total, p.line, p.input.quantity), 0),
        exponent: exp,
        approvalId: body.approval_id,
        requestId: actor.requestId,
      });
      const rows: ReturnLinesTable[] = [];
      for (const { line, input } of picked) {
        const res = await trx
          .updateTable('sale_lines')
          .set((eb) => ({ returned_quantity: eb('returned_quantity', '+', input.quantity) }))
          .where('id', '=', line.id)
          .where((eb) => eb(eb('returned_quantity', '+', input.quantity), '<=', eb.ref('quantity')))
          .executeTakeFirst();
        if (Number(res.numUpdatedRows) !== 1) throw exceedsSold(line, input.quantity);
        rows.push(await returnLine(trx, { line, input, returnId, userId: user.id, today }));
      }
      const subtotal = rows.reduce((a, r) => a + r.net_amount, 0);
      const vat = rows.reduce((a, r) => a + r.vat_amount, 0);
      const total = rows.reduce((a, r) => a + r.refund_amount, 0);
      if (refundMethod === 'credit' && sale.customer_id && total > 0) {
        await refundCustomerCredit(trx, {
          customerId: sale.customer_id,
          amount: inBase(total),
          branchId: sale.branch_id,
          userId: user.id,
          referenceType: 'return',
          referenceId: returnId,
        });
      }
      const { icv, previousHash } = await nextFiscalPosition(trx, deviceId);
      const number = creditNoteNumberOf(branch.code, deviceId, icv);
      const uuid = randomUUID();
      const doc = {
        credit_note_number: number,
        uuid,
        icv,
        device_id: deviceId,
        sale_id: sale.id,
        original_invoice_number: sale.invoice_number,
        seller_vat_number: sale.seller_vat_number,
        created_at: at,
        currency_code: sale.currency_code,
        refund_method: refundMethod,
        subtotal_amount: subtotal,
        vat_amount: vat,
        total_amount: total,
        previous_hash: previousHash,
      };
      const fiscalHash = creditNoteHash(doc, rows);
      const byRate = new Map<string, { rate: string; taxable: number; vat: number }>();
      for (const r of rows) {
        const b = byRate.get(r.vat_rate) ?? { rate: r.vat_rate, taxable: 0, vat: 0 };
        b.taxable += r.net_amount;
        b.vat += r.vat_amount;
        byRate.set(r.vat_rate, b);
      }
      const ret: ReturnsTable = {
        id: returnId,
        sale_id: sale.id,
        branch_id: sale.branch_id,
        user_id: user.id,
        session_id: session?.id ?? null,
        device_id: deviceId,
        credit_note_number: number,
        uuid,
        icv,
        client_mutation_id: cmid,
        payload_hash: hash,
        refund_method: refundMethod,
        reason: body.reason,
        subtotal_amount: subtotal,
        vat_amount: vat,
        total_amount: total,
        currency_code: sale.currency_code,
        base_total_amount: inBase(total),
        customer_id: sale.customer_id,
        fiscal_status: 'pending',
        fiscal_xml: fiscalXml({
          kind: 'credit_note',
          number,
          uuid,
          icv,
          issuedAt: at,
          currency: sale.currency_code,
          exponent: exp,
          sellerName: sale.seller_name,
          sellerVat: sale.seller_vat_number,
          sellerAddress: branch.address || settings.address,
          buyerName: sale.customer_name,
          previousHash,
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
          subtotal,
          vat,
          total,
          allowance: 0,
          vatBreakdown: [...byRate.values()],
        }),
        fiscal_hash: fiscalHash,
        previous_hash: previousHash,
        sync_status: 'pending',
        created_at: at,
      };
      await trx.insertInto('returns').values(ret).execute();
      await trx.insertInto('return_lines').values(rows).execute();
      await trx.updateTable('sales').set({ has_return: 1 }).where('id', '=', sale.id).execute();
      await appendFiscalEntry(trx, {
        deviceId,
        icv,
        docType: 'credit_note',
        docId: returnId,
        hash: fiscalHash,
        previousHash,
      });
      await writeAudit(trx, actor, {
        action: 'return.create',
        entity: 'return',
        entityId: returnId,
        branchId: sale.branch_id,
        after: {
          credit_note_number: number,
          sale_id: sale.id,
          total_amount: total,
          refund_method: refundMethod,
          approval_id: approvalId,
        },
      });
      await recordChange(trx, {
        entity: 'return',
        entityId: returnId,
        op: 'upsert',
        payload: { ...ret, lines: rows },
        branchId: sale.branch_id,
        clientMutationId: cmid,
      });
    });
  } catch (e) {
    if (e instanceof ReplayError) {
      const existing = await existingOf(app.db);
      if (existing) return replay(existing);
    }
    throw e;
  }
  return { replay: false, ret: await getReturn(app, returnId) };
}

class ReplayError extends Error {}

const exceedsSold = (line: SaleLinesTable, asked: number) =>
  new Conflict(
    `Only ${line.quantity - line.returned_quantity} of ${line.medicine_name} can still be returned (sold ${line.quantity}, returned ${line.returned_quantity}); asked ${asked}.`,
    'RETURN_EXCEEDS_SOLD',
  );

async function returnLine(
  trx: Db,
  a: {
    line: SaleLinesTable;
    input: { sale_line_id: string; quantity: number; condition: 'resaleable' | 'damaged' | 'expired' };
    returnId: string;
    userId: string;
    today: string;
  },
): Promise<ReturnLinesTable> {
  const { line, input } = a;
  const cumulative = (amount: number) => returnedShare(amount, line, input.quantity);
  // Units go back to the batches they came from, in the order they were taken, minus earlier returns.
  const earlier = await trx
    .selectFrom('return_lines')
    .select('batches')
    .where('sale_line_id', '=', line.id)
    .execute();
  const returnedPerBatch = new Map<string, number>();
  for (const r of earlier)
    for (const b of JSON.parse(r.batches) as BatchBack[])
      returnedPerBatch.set(b.batch_id, (returnedPerBatch.get(b.batch_id) ?? 0) + b.quantity);
  const taken = new Map<string, { quantity: number; expiry: string }>();
  for (const b of JSON.parse(line.batches) as BatchTaken[]) {
    const t = taken.get(b.batch_id) ?? { quantity: 0, expiry: b.expiry_date };
    t.quantity += b.quantity;
    taken.set(b.batch_id, t);
  }
  let left = input.quantity;
  const back: BatchBack[] = [];
  for (const [batchId, t] of taken) {
    if (left === 0) break;
    const open = t.quantity - (returnedPerBatch.get(batchId) ?? 0);
    if (open <= 0) continue;
    const n = Math.min(open, left);
    left -= n;
    const restock = input.condition === 'resaleable' && t.expiry >= a.today;
    const reference = { type: 'return', id: a.returnId };
    const moved = await moveBatchQuantity(trx, {
      batchId,
      delta: n,
      type: 'return',
      reference,
      userId: a.userId,
      reason: input.condition,
    });
    const ids = [moved.movementId];
    if (!restock) {
      const off = await moveBatchQuantity(trx, {
        batchId,
        delta: -n,
        type: 'write_off',
        reference,
        userId: a.userId,
        reason: `returned ${input.condition === 'resaleable' ? 'expired' : input.condition}`,
        allowNegative: true,
      });
      ids.push(off.movementId);
    }
    back.push({ batch_id: batchId, quantity: n, restocked: restock, movement_ids: ids });
  }
  return {
    id: newId(),
    return_id: a.returnId,
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

function baseReturnQuery(db: Db) {
  return db
    .selectFrom('returns as r')
    .innerJoin('sales as s', 's.id', 'r.sale_id')
    .innerJoin('users as u', 'u.id', 'r.user_id')
    .selectAll('r')
    .select(['s.invoice_number', 'u.full_name as user_name']);
}

type ReturnRow = ReturnsTable & { invoice_number: string; user_name: string };

async function toReturns(app: AppContext, rows: ReturnRow[]): Promise<SaleReturn[]> {
  if (rows.length === 0) return [];
  const lines = await app.db
    .selectFrom('return_lines')
    .selectAll()
    .where(
      'return_id',
      'in',
      rows.map((r) => r.id),
    )
    .execute();
  const out: SaleReturn[] = [];
  for (const r of rows) {
    const exp = await currencyExponent(app, r.currency_code);
    const bexp = await currencyExponent(app, (await getSettings(app)).base_currency_code);
    const f = (n: number) => formatMinor(n, exp);
    const { payload_hash: _, ...rest } = r;
    out.push({
      ...rest,
      subtotal_amount: f(r.subtotal_amount),
      vat_amount: f(r.vat_amount),
      total_amount: f(r.total_amount),
      base_total_amount: formatMinor(r.base_total_amount, bexp),
      lines: lines
        .filter((l) => l.return_id === r.id)
        .map((l) => ({
          id: l.id,
          sale_line_id: l.sale_line_id,
          medicine_id: l.medicine_id,
          medicine_name: l.medicine_name,
          quantity: l.quantity,
          condition: l.condition,
          net_amount: f(l.net_amount),
          vat_amount: f(l.vat_amount),
          refund_amount: f(l.refund_amount),
          vat_rate: Number(l.vat_rate),
          batches: (JSON.parse(l.batches) as BatchBack[]).map((b) => ({
            batch_id: b.batch_id,
            quantity: b.quantity,
            restocked: b.restocked,
          })),
        })),
    });
  }
  return out;
}

export async function getReturn(app: AppContext, id: string, user?: AuthUser): Promise<SaleReturn> {
  const row = (await baseReturnQuery(app.db).where('r.id', '=', id).executeTakeFirst()) as
    | ReturnRow
    | undefined;
  if (!row) throw new NotFound('Return', id);
  if (user) assertBranchAccess(user, row.branch_id, 'return');
  return (await toReturns(app, [row]))[0]!;
}

export async function listReturns(
  app: AppContext,
  user: AuthUser,
  f: { page: number; page_size: number; branch_id?: string; sale_id?: string; from?: string; to?: string },
) {
  let q = baseReturnQuery(app.db);
  const branch = isBranchBound(user) ? user.branchId : f.branch_id;
  if (branch) q = q.where('r.branch_id', '=', branch);
  if (f.sale_id) q = q.where('r.sale_id', '=', f.sale_id);
  if (f.from) q = q.where('r.created_at', '>=', `${f.from}T00:00:00.000Z`);
  if (f.to) q = q.where('r.created_at', '<=', `${f.to}T23:59:59.999Z`);
  const { total } = await q
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = (await q
    .orderBy('r.created_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(f.page_size)
    .offset((f.page - 1) * f.page_size)
    .execute()) as ReturnRow[];
  return { items: await toReturns(app, rows), total, page: f.page, page_size: f.page_size };
}

/** The sale behind an invoice number (of the caller's branch for branch-bound roles) with returnable quantities. */
export async function lookupForReturn(app: AppContext, user: AuthUser, invoiceNumber: string) {
  let q = app.db.selectFrom('sales').select(['id', 'branch_id']).where('invoice_number', '=', invoiceNumber);
  if (isBranchBound(user)) q = q.where('branch_id', '=', user.branchId);
  const row = await q.orderBy('sold_at', 'desc').executeTakeFirst();
  if (!row) throw new NotFound('Sale with invoice number', invoiceNumber);
  const sale = await loadSaleForReceipt(app, row.id);
  const exp = await currencyExponent(app, sale.currency_code);
  const lines = await app.db
    .selectFrom('sale_lines')
    .selectAll()
    .where('sale_id', '=', row.id)
    .orderBy('line_no')
    .execute();
  return {
    ...sale,
    lines_returnable: lines.map((l) => ({
      sale_line_id: l.id,
      medicine_id: l.medicine_id,
      medicine_name: l.medicine_name,
      quantity: l.quantity,
      returned_quantity: l.returned_quantity,
      returnable_quantity: l.quantity - l.returned_quantity,
      unit_refund: formatMinor(share(l.line_total, 1, l.quantity), exp),
    })),
  };
}
