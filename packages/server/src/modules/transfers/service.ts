import type { CreateTransferRequest, Transfer } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordChange } from '../../db/changes';
import { assertBranchAccess, type AuthUser } from '../../http/auth';
import { Invalid, NotFound } from '../../http/errors';
import { newId } from '../../lib/ids';
import { formatMinor } from '../../lib/money';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { baseExponent, getMedicineRow } from '../medicines/service';
import { requireActiveBranch } from '../purchases/service';
import { consumeFefo, moveBatchQuantity, receiveBatch } from '../stock/ledger';
import type { TransferItemsTable, TransfersTable } from '../../db/tables/transfers';

interface Portion {
  fromBatchId: string;
  quantity: number;
}

/**
 * One transfer inside the caller's transaction: stock leaves the source (transfer_out movements) and arrives at
 * the destination (transfer_in) in the same batch number and expiry, reusing a destination batch with the same
 * medicine, number and expiry or creating it (same unit cost, supplier and regulator status).
 */
async function transferIn(
  trx: Db,
  user: AuthUser,
  actor: Actor,
  input: CreateTransferRequest,
  index?: number,
): Promise<string> {
  const at = (path: string) => (index === undefined ? path : `transfers.${index}.${path}`);
  const fromId = input.from_branch_id ?? user.branchId;
  assertBranchAccess(user, fromId, 'source branch');
  if (fromId === input.to_branch_id)
    throw new Invalid(
      'A transfer needs two different branches.',
      [{ path: at('to_branch_id'), message: 'must differ from from_branch_id' }],
      'SAME_BRANCH',
    );
  await requireActiveBranch(trx, fromId, at('from_branch_id'));
  await requireActiveBranch(trx, input.to_branch_id, at('to_branch_id'));
  const header: TransfersTable = {
    id: newId(),
    from_branch_id: fromId,
    to_branch_id: input.to_branch_id,
    status: 'completed',
    notes: input.notes,
    created_by: user.id,
    created_at: nowIso(),
  };
  await trx.insertInto('transfers').values(header).execute();
  const reference = { type: 'transfer', id: header.id };
  const lines: TransferItemsTable[] = [];
  for (const [i, item] of input.items.entries()) {
    let portions: Portion[];
    if (item.batch_id) {
      const batch = await trx
        .selectFrom('batches')
        .select(['id', 'branch_id'])
        .where('id', '=', item.batch_id)
        .executeTakeFirst();
      if (!batch) throw new NotFound('Batch', item.batch_id);
      if (batch.branch_id !== fromId)
        throw new Invalid(`Batch ${item.batch_id} is not in the source branch.`, [
          { path: at(`items.${i}.batch_id`), message: 'batch of another branch' },
        ]);
      await moveBatchQuantity(trx, {
        batchId: batch.id,
        delta: -item.quantity,
        type: 'transfer_out',
        reference,
        userId: user.id,
        reason: input.notes,
      });
      portions = [{ fromBatchId: batch.id, quantity: item.quantity }];
    } else {
      await getMedicineRow(trx, item.medicine_id!);
      const taken = await consumeFefo(trx, {
        branchId: fromId,
        medicineId: item.medicine_id!,
        quantity: item.quantity,
        movementType: 'transfer_out',
        reference,
        userId: user.id,
        reason: input.notes,
      });
      portions = taken.map((t) => ({ fromBatchId: t.batchId, quantity: t.quantity }));
    }
    for (const p of portions) {
      const source = await trx
        .selectFrom('batches')
        .selectAll()
        .where('id', '=', p.fromBatchId)
        .executeTakeFirstOrThrow();
      const { batch: dest } = await receiveBatch(trx, {
        branchId: input.to_branch_id,
        medicineId: source.medicine_id,
        batchNumber: source.batch_number,
        expiryDate: source.expiry_date,
        quantity: p.quantity,
        unitCost: source.unit_cost,
        supplierId: source.supplier_id,
        regulatorStatus: source.regulator_status,
        movementType: 'transfer_in',
        reference,
        userId: user.id,
        reason: input.notes,
      });
      const line: TransferItemsTable = {
        id: newId(),
        transfer_id: header.id,
        medicine_id: source.medicine_id,
        from_batch_id: source.id,
        to_batch_id: dest.id,
        quantity: p.quantity,
        unit_cost: source.unit_cost,
      };
      await trx.insertInto('transfer_items').values(line).execute();
      lines.push(line);
    }
  }
  const payload = { ...header, items: lines };
  await recordChange(trx, {
    entity: 'transfer',
    entityId: header.id,
    op: 'upsert',
    payload,
    branchId: fromId,
  });
  await writeAudit(trx, actor, {
    action: 'transfer.create',
    entity: 'transfer',
    entityId: header.id,
    branchId: fromId,
    after: payload,
  });
  return header.id;
}

/** Several transfers in one transaction: all of them or none. */
export async function createTransfers(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  inputs: CreateTransferRequest[],
  batched: boolean,
): Promise<Transfer[]> {
  const ids = await app.db.transaction().execute(async (trx) => {
    const out: string[] = [];
    for (const [i, input] of inputs.entries())
      out.push(await transferIn(trx, user, actor, input, batched ? i : undefined));
    return out;
  });
  return loadTransfers(app, ids);
}

const selectHeaders = (db: Db) =>
  db
    .selectFrom('transfers as t')
    .innerJoin('branches as bf', 'bf.id', 't.from_branch_id')
    .innerJoin('branches as bt', 'bt.id', 't.to_branch_id')
    .selectAll('t')
    .select(['bf.name as from_branch_name', 'bt.name as to_branch_name']);

async function loadTransfers(app: AppContext, ids: string[]): Promise<Transfer[]> {
  if (ids.length === 0) return [];
  const exponent = await baseExponent(app);
  const headers = await selectHeaders(app.db).where('t.id', 'in', ids).execute();
  const items = await app.db
    .selectFrom('transfer_items as i')
    .innerJoin('medicines as m', 'm.id', 'i.medicine_id')
    .innerJoin('batches as b', 'b.id', 'i.from_batch_id')
    .selectAll('i')
    .select(['m.name as medicine_name', 'b.batch_number', 'b.expiry_date'])
    .where('i.transfer_id', 'in', ids)
    .orderBy('i.id')
    .execute();
  const byId = new Map(headers.map((h) => [h.id, h]));
  return ids.map((id) => {
    const h = byId.get(id)!;
    return {
      id: h.id,
      from_branch_id: h.from_branch_id,
      from_branch_name: h.from_branch_name,
      to_branch_id: h.to_branch_id,
      to_branch_name: h.to_branch_name,
      status: 'completed' as const,
      notes: h.notes,
      created_by: h.created_by,
      created_at: h.created_at,
      items: items
        .filter((i) => i.transfer_id === id)
        .map((i) => ({
          id: i.id,
          medicine_id: i.medicine_id,
          medicine_name: i.medicine_name,
          from_batch_id: i.from_batch_id,
          to_batch_id: i.to_batch_id,
          batch_number: i.batch_number,
          expiry_date: i.expiry_date,
          quantity: i.quantity,
          unit_cost: formatMinor(i.unit_cost, exponent),
        })),
    };
  });
}

export async function listTransfers(
  app: AppContext,
  f: { branch_id?: string; direction: 'in' | 'out' | 'both'; page: number; page_size: number },
) {
  let q = selectHeaders(app.db);
  if (f.branch_id) {
    const b = f.branch_id;
    if (f.direction === 'out') q = q.where('t.from_branch_id', '=', b);
    else if (f.direction === 'in') q = q.where('t.to_branch_id', '=', b);
    else q = q.where((eb) => eb.or([eb('t.from_branch_id', '=', b), eb('t.to_branch_id', '=', b)]));
  }
  const { total } = await q
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('total'))
    .executeTakeFirstOrThrow();
  const rows = await q
    .orderBy('t.created_at', 'desc')
    .orderBy('t.id', 'desc')
    .limit(f.page_size)
    .offset((f.page - 1) * f.page_size)
    .execute();
  return {
    items: await loadTransfers(
      app,
      rows.map((r) => r.id),
    ),
    total: Number(total),
    page: f.page,
    page_size: f.page_size,
  };
}
