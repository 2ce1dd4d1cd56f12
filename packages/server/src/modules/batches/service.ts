import { baseExponent } from '../currency/service';
import { withinUtcDays } from '../../db/utc-days';
import type { Batch } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import { assertBranchAccess, type AuthUser } from '../../http/auth';
import { Invalid } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { toMinor } from '../../lib/money';
import { type Actor, writeAudit } from '../audit/service';
import { getMedicineRow } from '../medicines/service';
import { addDays } from '@pharmacy/contracts/time';
import { branchToday, moveBatchQuantity } from '../stock/ledger';
import { receiveBatch } from '../stock/receive';
import { getBatch, selectBatches, toBatch } from '../stock/queries';
import { requireActiveSupplier } from '../suppliers/service';
import { requireActiveBranch } from '../branches/active-branch';
import { paginate } from '../../db/paginate';

export interface ReceiveInput {
  medicine_id: string;
  supplier_id: string;
  branch_id?: string;
  batch_number: string;
  expiry_date: string;
  qty_received: number;
  unit_cost: number;
  notes: string;
}

/** Receives a delivered batch into a branch: a new batch, or more units of the same number and expiry. */
export async function receivePurchase(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: ReceiveInput,
): Promise<Batch> {
  const branchId = input.branch_id ?? user.branchId;
  assertBranchAccess(user, branchId, 'branch');
  await requireActiveBranch(app.db, branchId);
  const medicine = await getMedicineRow(app.db, input.medicine_id);
  if (!medicine.is_active)
    throw new Invalid(`${medicine.name} is deactivated; reactivate it before receiving stock.`, [
      { path: 'medicine_id', message: 'inactive medicine' },
    ]);
  await requireActiveSupplier(app.db, input.supplier_id);
  const today = await branchToday(app.db, branchId);
  if (input.expiry_date < today)
    throw new Invalid(
      `expiry_date ${input.expiry_date} is in the past; expired stock cannot be received.`,
      [{ path: 'expiry_date', message: 'must be today or later' }],
      'EXPIRED_BATCH',
    );
  const exponent = await baseExponent(app);
  const unitCost = toMinor(input.unit_cost, exponent, 'unit_cost');
  const receiptId = newId();
  const batchId = await app.db.transaction().execute(async (trx) => {
    const { batch, created, movementId } = await receiveBatch(trx, {
      branchId,
      medicineId: input.medicine_id,
      batchNumber: input.batch_number,
      expiryDate: input.expiry_date,
      quantity: input.qty_received,
      unitCost,
      supplierId: input.supplier_id,
      movementType: 'purchase',
      reference: { type: 'purchase_receipt', id: receiptId },
      userId: user.id,
      reason: input.notes,
    });
    await writeAudit(trx, actor, {
      action: 'batch.receive',
      entity: 'batch',
      entityId: batch.id,
      branchId,
      after: {
        receipt_id: receiptId,
        movement_id: movementId,
        new_batch: created,
        medicine_id: input.medicine_id,
        supplier_id: input.supplier_id,
        batch_number: input.batch_number,
        expiry_date: input.expiry_date,
        qty_received: input.qty_received,
        unit_cost: unitCost,
      },
    });
    return batch.id;
  });
  return getBatch(app.db, batchId, exponent);
}

export async function writeOff(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  batchId: string,
  input: { quantity: number; reason: string },
): Promise<Batch> {
  const exponent = await baseExponent(app);
  const before = await getBatch(app.db, batchId, exponent);
  assertBranchAccess(user, before.branch_id, 'batch');
  await app.db.transaction().execute(async (trx) => {
    const { movementId, batch } = await moveBatchQuantity(trx, {
      batchId,
      delta: -input.quantity,
      type: 'write_off',
      reference: { type: 'write_off', id: newId() },
      userId: user.id,
      reason: input.reason,
    });
    await writeAudit(trx, actor, {
      action: 'batch.write_off',
      entity: 'batch',
      entityId: batchId,
      branchId: batch.branch_id,
      before: { qty_on_hand: before.qty_on_hand },
      after: {
        qty_on_hand: batch.qty_on_hand,
        quantity: input.quantity,
        reason: input.reason,
        movement_id: movementId,
      },
    });
  });
  return getBatch(app.db, batchId, exponent);
}

export interface BatchFilter {
  branch_id?: string;
  medicine_id?: string;
  supplier_id?: string;
  regulator_status?: 'quarantined' | 'active' | 'recalled';
  in_stock: 'true' | 'false' | 'all';
  from?: string;
  to?: string;
  page: number;
  page_size: number;
}

export async function listBatches(app: AppContext, f: BatchFilter) {
  let q = selectBatches(app.db);
  if (f.branch_id) q = q.where('b.branch_id', '=', f.branch_id);
  if (f.medicine_id) q = q.where('b.medicine_id', '=', f.medicine_id);
  if (f.supplier_id) q = q.where('b.supplier_id', '=', f.supplier_id);
  if (f.regulator_status) q = q.where('b.regulator_status', '=', f.regulator_status);
  if (f.in_stock === 'true') q = q.where('b.qty_on_hand', '>', 0);
  if (f.in_stock === 'false') q = q.where('b.qty_on_hand', '<=', 0);
  q = withinUtcDays(q, 'b.received_at', f);
  return pageBatches(app, q, f, (q2) => q2.orderBy('b.received_at', 'desc').orderBy('b.id', 'desc'));
}

type BatchQuery = ReturnType<typeof selectBatches>;

async function pageBatches(
  app: AppContext,
  q: BatchQuery,
  f: { page: number; page_size: number },
  order: (q: BatchQuery) => BatchQuery,
) {
  const found = await paginate(q, f, order);
  const exponent = await baseExponent(app);
  const today = new Map<string, string>();
  const items = [];
  for (const r of found.items) {
    if (!today.has(r.branch_id)) today.set(r.branch_id, await branchToday(app.db, r.branch_id));
    items.push(toBatch(r, exponent, today.get(r.branch_id)!));
  }
  return { ...found, items };
}

/**
 * Batches with stock that expire within `days` (today included), soonest first; quarantined and recalled
 * batches are excluded (they are not sellable stock). "Today" is the first branch's local date (or UTC for all).
 */
export async function expiringBatches(
  app: AppContext,
  f: { branch_id?: string; days: number; page: number; page_size: number },
) {
  const today = f.branch_id ? await branchToday(app.db, f.branch_id) : new Date().toISOString().slice(0, 10);
  let q = selectBatches(app.db)
    .where('b.qty_on_hand', '>', 0)
    .where('b.regulator_status', '=', 'active')
    .where('b.expiry_date', '>=', today)
    .where('b.expiry_date', '<=', addDays(today, f.days));
  if (f.branch_id) q = q.where('b.branch_id', '=', f.branch_id);
  return pageBatches(app, q, f, (q2) => q2.orderBy('b.expiry_date').orderBy('m.name').orderBy('b.id'));
}
