import { baseExponent } from '../currency/service';
import type {
  PurchaseOrderDetail,
  PurchaseOrderStatus,
  ReceivePurchaseOrderRequest,
} from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import { recordUpsert } from '../../db/changes';
import { assertBranchAccess, type AuthUser } from '../../http/auth';
import { Conflict, Invalid } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toMinor } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { branchToday } from '../stock/ledger';
import { receiveBatch } from '../stock/receive';
import { getOrderRow, getPurchaseOrder, RECEIVABLE, recordOrderChange } from './service';

/**
 * Receives a delivery against a SENT or PARTIALLY_RECEIVED order: each line becomes units in a batch through
 * the stock ledger (reference purchase_order), a receipt row and more received_qty on its item; the order
 * becomes RECEIVED when every item is received in full, else PARTIALLY_RECEIVED. All or nothing.
 */
export async function receiveAgainstOrder(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  input: ReceivePurchaseOrderRequest,
): Promise<PurchaseOrderDetail> {
  const order = await getOrderRow(app.db, id);
  assertBranchAccess(user, order.branch_id, 'purchase order');
  const exponent = await baseExponent(app);
  const costs = input.items.map((l, i) =>
    l.unit_cost === undefined ? null : toMinor(l.unit_cost, exponent, `items.${i}.unit_cost`),
  );
  const today = await branchToday(app.db, order.branch_id);
  input.items.forEach((l, i) => {
    if (l.expiry_date < today)
      throw new Invalid(
        `items.${i}.expiry_date ${l.expiry_date} is in the past; expired stock cannot be received.`,
        [{ path: `items.${i}.expiry_date`, message: 'must be today or later' }],
        'EXPIRED_BATCH',
      );
  });

  await app.db.transaction().execute(async (trx) => {
    const before = await getOrderRow(trx, id);
    if (!RECEIVABLE.includes(before.status))
      throw new Conflict(
        `This purchase order is ${before.status}; only SENT or PARTIALLY_RECEIVED orders can receive goods.`,
        'INVALID_STATUS_TRANSITION',
      );
    const items = await trx
      .selectFrom('purchase_order_items')
      .selectAll()
      .where('purchase_order_id', '=', id)
      .execute();
    const byId = new Map(items.map((it) => [it.id, it]));
    const byMedicine = new Map(items.map((it) => [it.medicine_id, it]));
    const lines = input.items.map((l, i) => {
      const item = l.item_id !== undefined ? byId.get(l.item_id) : byMedicine.get(l.medicine_id!);
      if (!item || (l.medicine_id !== undefined && item.medicine_id !== l.medicine_id))
        throw new Invalid(`items.${i} does not match an item of this purchase order.`, [
          {
            path: `items.${i}.${l.item_id !== undefined ? 'item_id' : 'medicine_id'}`,
            message: 'not on this order',
          },
        ]);
      return { ...l, item, unitCost: costs[i] ?? item.agreed_unit_cost, index: i };
    });
    const incoming = new Map<string, number>();
    for (const l of lines) incoming.set(l.item.id, (incoming.get(l.item.id) ?? 0) + l.received_qty);
    if (!input.allow_over_receipt) {
      for (const l of lines) {
        const total = l.item.received_qty + incoming.get(l.item.id)!;
        if (total > l.item.ordered_qty)
          throw new Conflict(
            `items.${l.index}: ${l.item.ordered_qty} ordered, ${l.item.received_qty} already received, ${incoming.get(l.item.id)} now: more than ordered. Send allow_over_receipt: true to accept the extra units.`,
            'OVER_RECEIPT',
          );
      }
    }
    const at = nowIso();
    const receipts = [];
    for (const l of lines) {
      const { batch, movementId } = await receiveBatch(trx, {
        branchId: before.branch_id,
        medicineId: l.item.medicine_id,
        batchNumber: l.batch_number,
        expiryDate: l.expiry_date,
        quantity: l.received_qty,
        unitCost: l.unitCost,
        supplierId: before.supplier_id,
        movementType: 'purchase',
        reference: { type: 'purchase_order', id },
        userId: user.id,
        reason: input.notes,
      });
      const receipt = {
        id: newId(),
        purchase_order_id: id,
        branch_id: before.branch_id,
        item_id: l.item.id,
        batch_id: batch.id,
        movement_id: movementId,
        quantity: l.received_qty,
        unit_cost: l.unitCost,
        received_by: user.id,
        received_at: at,
      };
      await trx.insertInto('purchase_order_receipts').values(receipt).execute();
      await recordUpsert(trx, 'purchase_order_receipt', receipt, receipt.branch_id);
      receipts.push(receipt);
    }
    for (const [itemId, qty] of incoming)
      await trx
        .updateTable('purchase_order_items')
        .set((eb) => ({ received_qty: eb('received_qty', '+', qty) }))
        .where('id', '=', itemId)
        .execute();
    const complete = items.every((it) => it.received_qty + (incoming.get(it.id) ?? 0) >= it.ordered_qty);
    const status: PurchaseOrderStatus = complete ? 'RECEIVED' : 'PARTIALLY_RECEIVED';
    await trx
      .updateTable('purchase_orders')
      .set({ status, updated_at: at, received_at: complete ? at : null })
      .where('id', '=', id)
      .execute();
    await recordOrderChange(trx, id);
    await writeAudit(trx, actor, {
      action: 'purchase_order.receive',
      entity: 'purchase_order',
      entityId: id,
      branchId: before.branch_id,
      before: { status: before.status },
      after: { status, allow_over_receipt: input.allow_over_receipt, receipts },
    });
  });
  return getPurchaseOrder(app, user, id);
}
