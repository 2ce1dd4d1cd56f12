import { sql } from 'kysely';
import type { AppContext } from '../../../app-context';
import { recordChange } from '../../../db/changes';
import type { Db } from '../../../db/connection';
import type { ReturnLinesTable, ReturnsTable } from '../../../db/tables/returns';
import type { SaleLinesTable } from '../../../db/tables/sales';
import type { AuthUser } from '../../../http/auth';
import { type Actor, writeAudit } from '../../audit/service';
import { refundCustomerCredit } from '../../customers/service';
import { appendFiscalEntry, creditNoteHash, nextFiscalPosition } from '../../fiscal/chain';
import { creditNoteNumberOf } from '../../fiscal/device';
import { NoOpenSession } from '../../sessions/service';
import { moveBatchQuantity } from '../../stock/ledger';
import { assertRefundTender } from '../refund-tender';
import {
  type BatchBack,
  type BatchTaken,
  creditNoteFields,
  returnedShare,
  returnLineRow,
  returnRow,
} from './build';
import { exceedsSold, pickReturnLines, type ReturnLineInput, type ReturnPlan } from './validate';

/**
 * The write phase of POST /returns, ONE transaction: per line, never more than sold minus already returned
 * (guarded UPDATE of sale_lines.returned_quantity, so concurrent returns cannot over-return). Resaleable units go
 * back into their original batches (movement `return`); damaged or expired units, or units of a batch that has
 * expired meanwhile, come back and are written off at once (movements `return` + `write_off`). Then the credit
 * refund, the credit note from the device's ICV sequence and hash chain (shared with invoices), the audit row and
 * ONE `return` change.
 */

/** Thrown inside the transaction when the client_mutation_id's return was committed meanwhile. */
export class ReplayError extends Error {}

export const returnByMutation = (db: Db, clientMutationId: string) =>
  db
    .selectFrom('returns')
    .select(['id', 'payload_hash'])
    .where('client_mutation_id', '=', clientMutationId)
    .executeTakeFirst();

/** The units each batch of the line took that earlier returns have not given back yet, in the order taken. */
async function openBatches(trx: Db, line: SaleLinesTable) {
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
  return { taken, returnedPerBatch };
}

/** Units go back to the batches they came from, in the order they were taken, minus earlier returns. */
async function returnLine(
  trx: Db,
  a: { line: SaleLinesTable; input: ReturnLineInput; returnId: string; userId: string; today: string },
): Promise<ReturnLinesTable> {
  const { line, input } = a;
  const { taken, returnedPerBatch } = await openBatches(trx, line);
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
  return returnLineRow(a.returnId, line, input, back);
}

/** Counts each line's units as returned (guarded against a concurrent over-return) and takes them back. */
async function returnLines(
  trx: Db,
  plan: ReturnPlan,
  userId: string,
  picked: ReturnType<typeof pickReturnLines>,
): Promise<ReturnLinesTable[]> {
  const rows: ReturnLinesTable[] = [];
  for (const { line, input } of picked) {
    const res = await trx
      .updateTable('sale_lines')
      .set((eb) => ({ returned_quantity: eb('returned_quantity', '+', input.quantity) }))
      .where('id', '=', line.id)
      .where((eb) => eb(eb('returned_quantity', '+', input.quantity), '<=', eb.ref('quantity')))
      .executeTakeFirst();
    if (Number(res.numUpdatedRows) !== 1) throw exceedsSold(line, input.quantity);
    rows.push(await returnLine(trx, { line, input, returnId: plan.returnId, userId, today: plan.today }));
  }
  return rows;
}

/** The return's audit row and its one `return` change (its lines inside). */
async function auditAndReplicate(
  trx: Db,
  actor: Actor,
  ret: ReturnsTable,
  rows: ReturnLinesTable[],
  approvalId: string | null,
) {
  await writeAudit(trx, actor, {
    action: 'return.create',
    entity: 'return',
    entityId: ret.id,
    branchId: ret.branch_id,
    after: {
      credit_note_number: ret.credit_note_number,
      sale_id: ret.sale_id,
      total_amount: ret.total_amount,
      refund_method: ret.refund_method,
      approval_id: approvalId,
    },
  });
  await recordChange(trx, {
    entity: 'return',
    entityId: ret.id,
    op: 'upsert',
    payload: { ...ret, lines: rows },
    branchId: ret.branch_id,
    clientMutationId: ret.client_mutation_id,
  });
}

/** Writes the planned return in one transaction. Throws `ReplayError` when its client_mutation_id was used. */
export async function writeReturn(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  plan: ReturnPlan,
  req: { clientMutationId: string; hash: string },
): Promise<void> {
  const { body, sale, refundMethod, deviceId } = plan;
  await app.db.transaction().execute(async (trx) => {
    if (body.client_mutation_id && (await returnByMutation(trx, req.clientMutationId)))
      throw new ReplayError();
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
    const picked = pickReturnLines(plan, saleLines);
    const approvalId = await assertRefundTender(trx, {
      sale,
      user,
      method: refundMethod,
      amount: picked.reduce((a, p) => a + returnedShare(p.line.line_total, p.line, p.input.quantity), 0),
      exponent: plan.exp,
      approvalId: body.approval_id,
      requestId: actor.requestId,
    });
    const rows = await returnLines(trx, plan, user.id, picked);
    const total = rows.reduce((a, r) => a + r.refund_amount, 0);
    if (refundMethod === 'credit' && sale.customer_id && total > 0) {
      await refundCustomerCredit(trx, {
        customerId: sale.customer_id,
        amount: plan.inBase(total),
        branchId: sale.branch_id,
        userId: user.id,
        referenceType: 'return',
        referenceId: plan.returnId,
      });
    }
    const { icv, previousHash } = await nextFiscalPosition(trx, deviceId);
    const number = creditNoteNumberOf(plan.branch.code, deviceId, icv);
    const doc = creditNoteFields(plan, rows, { icv, previousHash, number });
    const fiscalHash = creditNoteHash(doc, rows);
    const ret = returnRow(plan, {
      doc,
      fiscalHash,
      rows,
      saleLines,
      userId: user.id,
      sessionId: session?.id ?? null,
      ...req,
    });
    await trx.insertInto('returns').values(ret).execute();
    await trx.insertInto('return_lines').values(rows).execute();
    await trx.updateTable('sales').set({ has_return: 1 }).where('id', '=', sale.id).execute();
    await appendFiscalEntry(trx, {
      deviceId,
      icv,
      docType: 'credit_note',
      docId: plan.returnId,
      hash: fiscalHash,
      previousHash,
    });
    await auditAndReplicate(trx, actor, ret, rows, approvalId);
  });
}
