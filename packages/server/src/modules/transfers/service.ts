import { baseExponent } from '../currency/service';
import type { CreateTransferRequest, Transfer } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { recordChange } from '../../db/changes';
import { assertBranchAccess, type AuthUser } from '../../http/auth';
import { Forbidden, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { getMedicineRow } from '../medicines/service';
import { requireActiveBranch } from '../branches/active-branch';
import { consumeFefo } from '../stock/fefo';
import { moveBatchQuantity } from '../stock/ledger';
import type { TransferItemsTable, TransfersTable } from '../../db/tables/transfers';
import type { StockMovementsTable } from '../../db/tables/stock';
import { loadTransfers } from './read';

export { getTransfer, listTransfers } from './read';

interface Portion {
  fromBatchId: string;
  quantity: number;
}

/**
 * The change payload of a transfer as its source wrote it: the header and the lines as sent; a cancellation
 * also carries the transfer_in movements that put the stock back (central applies them only if it takes it).
 */
export type TransferPayload = TransfersTable & {
  items: TransferItemsTable[];
  movements?: StockMovementsTable[];
};

/**
 * A transfer's change for the tills of its branch, and at central for the other branch's too (the destination
 * must see a transfer to receive it, the source its receipt); a till's push reaches the other branch the same
 * way, through central's sync write path (sync.ts).
 */
export async function recordForBoth(
  trx: Db,
  app: AppContext,
  change: { entity: 'transfer' | 'transfer_receipt'; entityId: string; payload: object },
  own: string,
  other: string,
): Promise<void> {
  await recordChange(trx, { ...change, op: 'upsert', branchId: own });
  if (app.config.mode === 'central') await recordChange(trx, { ...change, op: 'upsert', branchId: other });
}

/** A till acts for its own branch only: sending and cancelling at the source's tills, receiving at the destination's. */
export function assertTillOf(app: AppContext, branchId: string, action: string): void {
  const till = app.tillBranch();
  if (till && till !== branchId)
    throw new Forbidden(
      `This till belongs to another branch; ${action} at a till of that branch.`,
      'OTHER_BRANCH_TILL',
    );
}

/** Takes one item's units out of the source: a named batch as is, or FEFO over the medicine's batches. */
async function takeOut(
  trx: Db,
  user: AuthUser,
  fromId: string,
  item: CreateTransferRequest['items'][number],
  reference: { type: string; id: string },
  notes: string,
  path: string,
): Promise<Portion[]> {
  if (item.batch_id) {
    const batch = await trx
      .selectFrom('batches')
      .select(['id', 'branch_id'])
      .where('id', '=', item.batch_id)
      .executeTakeFirst();
    if (!batch) throw new NotFound('Batch', item.batch_id);
    if (batch.branch_id !== fromId)
      throw new Invalid(`Batch ${item.batch_id} is not in the source branch.`, [
        { path: `${path}.batch_id`, message: 'batch of another branch' },
      ]);
    await moveBatchQuantity(trx, {
      batchId: batch.id,
      delta: -item.quantity,
      type: 'transfer_out',
      reference,
      userId: user.id,
      reason: notes,
    });
    return [{ fromBatchId: batch.id, quantity: item.quantity }];
  }
  await getMedicineRow(trx, item.medicine_id!);
  const taken = await consumeFefo(trx, {
    branchId: fromId,
    medicineId: item.medicine_id!,
    quantity: item.quantity,
    movementType: 'transfer_out',
    reference,
    userId: user.id,
    reason: notes,
  });
  return taken.map((t) => ({ fromBatchId: t.batchId, quantity: t.quantity }));
}

/**
 * One transfer inside the caller's transaction: stock leaves the source (transfer_out movements) into a
 * transfer in transit; each line keeps the batch number, expiry, cost, supplier and regulator status the
 * destination books it in with when it receives it.
 */
async function sendOne(
  trx: Db,
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  input: CreateTransferRequest,
  index?: number,
): Promise<string> {
  const at = (path: string) => (index === undefined ? path : `transfers.${index}.${path}`);
  const fromId = input.from_branch_id ?? user.branchId;
  assertBranchAccess(user, fromId, 'source branch');
  assertTillOf(app, fromId, 'send stock');
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
    status: 'in_transit',
    notes: input.notes,
    created_by: user.id,
    created_at: nowIso(),
    cancelled_at: null,
    cancelled_by: null,
    cancel_reason: '',
  };
  await trx.insertInto('transfers').values(header).execute();
  const reference = { type: 'transfer', id: header.id };
  const lines: TransferItemsTable[] = [];
  for (const [i, item] of input.items.entries()) {
    const portions = await takeOut(trx, user, fromId, item, reference, input.notes, at(`items.${i}`));
    for (const p of portions) {
      const source = await trx
        .selectFrom('batches')
        .selectAll()
        .where('id', '=', p.fromBatchId)
        .executeTakeFirstOrThrow();
      const line: TransferItemsTable = {
        id: newId(),
        transfer_id: header.id,
        medicine_id: source.medicine_id,
        from_batch_id: source.id,
        to_batch_id: null,
        batch_number: source.batch_number,
        expiry_date: source.expiry_date,
        quantity: p.quantity,
        unit_cost: source.unit_cost,
        supplier_id: source.supplier_id,
        regulator_status: source.regulator_status,
      };
      await trx.insertInto('transfer_items').values(line).execute();
      lines.push(line);
    }
  }
  const payload: TransferPayload = { ...header, items: lines };
  await recordForBoth(
    trx,
    app,
    { entity: 'transfer', entityId: header.id, payload },
    fromId,
    input.to_branch_id,
  );
  await writeAudit(trx, actor, {
    action: 'transfer.send',
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
      out.push(await sendOne(trx, app, user, actor, input, batched ? i : undefined));
    return out;
  });
  return loadTransfers(app.db, ids, await baseExponent(app));
}
