import { baseExponent } from '../currency/service';
import type { CancelTransferRequest, ReceiveTransferRequest, Transfer } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { assertBranchAccess, type AuthUser } from '../../http/auth';
import { Conflict, Invalid, NotFound } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import type {
  TransferItemsTable,
  TransferReceiptLinesTable,
  TransferReceiptsTable,
  TransfersTable,
} from '../../db/tables/transfers';
import type { RegulatorStatus } from '@pharmacy/contracts';
import type { StockMovementsTable } from '../../db/tables/stock';
import { type Actor, writeAudit } from '../audit/service';
import { requireActiveBranch } from '../branches/active-branch';
import { moveBatchQuantity } from '../stock/ledger';
import { receiveBatch } from '../stock/receive';
import { loadTransfers } from './read';
import { assertTillOf, recordForBoth, type TransferPayload } from './service';

/**
 * The destination's receipt as it replicates: the receipt, its lines and its transfer_in movements (which
 * central applies only if it takes the receipt: see sync.ts).
 */
export type TransferReceiptPayload = TransferReceiptsTable & {
  lines: TransferReceiptLinesTable[];
  movements?: StockMovementsTable[];
};

/** The transfer_in movements of a transfer: its receipt's at the destination, or its cancellation's at the source. */
const movementsIn = (trx: Db, transferId: string) =>
  trx
    .selectFrom('stock_movements')
    .selectAll()
    .where('reference_type', '=', 'transfer')
    .where('reference_id', '=', transferId)
    .where('type', '=', 'transfer_in')
    .orderBy('id')
    .execute();

/**
 * Whether a receipt's or cancellation's movements replicate as changes of their own: at central, yes (its tills
 * get them as any movement); at a till, no: they travel inside the document, and central applies them only if
 * it takes it (sync.ts).
 */
const carriedAlone = (app: AppContext) => app.config.mode === 'central';

async function transferFor(
  trx: Db,
  id: string,
): Promise<{ header: TransfersTable; items: TransferItemsTable[] }> {
  const header = await trx.selectFrom('transfers').selectAll().where('id', '=', id).executeTakeFirst();
  if (!header) throw new NotFound('Transfer', id);
  const items = await trx
    .selectFrom('transfer_items')
    .selectAll()
    .where('transfer_id', '=', id)
    .orderBy('id')
    .execute();
  return { header, items };
}

/**
 * Moves a transfer out of in_transit, or refuses with 409 TRANSFER_NOT_IN_TRANSIT: a conditional update, so
 * a receipt and a cancellation of the same transfer can never both happen.
 */
async function leaveTransit(trx: Db, header: TransfersTable, next: Partial<TransfersTable>): Promise<void> {
  const done = await trx
    .updateTable('transfers')
    .set(next)
    .where('id', '=', header.id)
    .where('status', '=', 'in_transit')
    .executeTakeFirst();
  if (Number(done.numUpdatedRows) !== 1)
    throw new Conflict(
      `Transfer ${header.id} is ${header.status.replace('_', ' ')}, no longer in transit.`,
      'TRANSFER_NOT_IN_TRANSIT',
    );
}

/** What arrived of each line: named lines as given, the others in full; checked against what was sent. */
export function receivedQuantities(
  items: TransferItemsTable[],
  lines: ReceiveTransferRequest['lines'],
): Map<string, { quantity: number; reason: 'short' | 'damaged' | null }> {
  const out = new Map(
    items.map((i) => [i.id, { quantity: i.quantity, reason: null as 'short' | 'damaged' | null }]),
  );
  const seen = new Set<string>();
  for (const [n, line] of lines.entries()) {
    const item = items.find((i) => i.id === line.item_id);
    const path = `lines.${n}`;
    if (!item || seen.has(line.item_id))
      throw new Invalid('Each line must name a different line of this transfer.', [
        { path: `${path}.item_id`, message: item ? 'named twice' : 'not a line of this transfer' },
      ]);
    seen.add(line.item_id);
    if (line.received_quantity > item.quantity)
      throw new Invalid(`More units received than were sent (${item.quantity}).`, [
        { path: `${path}.received_quantity`, message: `must be at most ${item.quantity}` },
      ]);
    const short = line.received_quantity < item.quantity;
    if (short !== (line.discrepancy_reason !== undefined))
      throw new Invalid(
        short
          ? 'Say why fewer units arrived (short or damaged).'
          : 'A line received in full has no discrepancy.',
        [{ path: `${path}.discrepancy_reason`, message: short ? 'required when short' : 'only when short' }],
        'DISCREPANCY_REASON',
      );
    out.set(item.id, { quantity: line.received_quantity, reason: line.discrepancy_reason ?? null });
  }
  return out;
}

/**
 * The destination receives a transfer in transit: what arrived of each line is booked in as transfer_in
 * movements in the same batch number and expiry (an existing batch of that number and expiry is reused, else
 * one is made with the line's cost, supplier and regulator status); what did not arrive stays recorded on the
 * receipt line with its reason and is booked nowhere (it left the source when sent).
 */
export async function receiveTransfer(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  body: ReceiveTransferRequest,
): Promise<Transfer> {
  const exponent = await baseExponent(app);
  await app.db.transaction().execute(async (trx) => {
    const { header, items } = await transferFor(trx, id);
    assertBranchAccess(user, header.to_branch_id, 'transfer');
    assertTillOf(app, header.to_branch_id, 'receive it');
    const wanted = receivedQuantities(items, body.lines);
    await requireActiveBranch(trx, header.to_branch_id, 'to_branch_id');
    await leaveTransit(trx, header, { status: 'received' });
    const receipt: TransferReceiptsTable = {
      id: newId(),
      transfer_id: id,
      branch_id: header.to_branch_id,
      received_by: user.id,
      received_at: nowIso(),
      notes: body.notes,
    };
    const lines: TransferReceiptLinesTable[] = [];
    for (const item of items) {
      const got = wanted.get(item.id)!;
      let toBatch: string | null = null;
      if (got.quantity > 0) {
        const { batch } = await receiveBatch(trx, {
          branchId: header.to_branch_id,
          medicineId: item.medicine_id,
          batchNumber: item.batch_number,
          expiryDate: item.expiry_date,
          quantity: got.quantity,
          unitCost: item.unit_cost,
          supplierId: item.supplier_id,
          regulatorStatus: item.regulator_status as RegulatorStatus,
          movementType: 'transfer_in',
          reference: { type: 'transfer', id },
          userId: user.id,
          reason: body.notes,
          replicate: carriedAlone(app),
        });
        toBatch = batch.id;
      }
      lines.push({
        id: newId(),
        receipt_id: receipt.id,
        transfer_item_id: item.id,
        to_batch_id: toBatch,
        received_quantity: got.quantity,
        discrepancy_reason: got.reason,
      });
    }
    await trx.insertInto('transfer_receipts').values(receipt).execute();
    await trx.insertInto('transfer_receipt_lines').values(lines).execute();
    const payload: TransferReceiptPayload = { ...receipt, lines, movements: await movementsIn(trx, id) };
    await recordForBoth(
      trx,
      app,
      { entity: 'transfer_receipt', entityId: receipt.id, payload },
      header.to_branch_id,
      header.from_branch_id,
    );
    await writeAudit(trx, actor, {
      action: 'transfer.receive',
      entity: 'transfer',
      entityId: id,
      branchId: header.to_branch_id,
      after: payload,
    });
  });
  return (await loadTransfers(app.db, [id], exponent))[0]!;
}

/** The source cancels a transfer not yet received: every line's units go back into the batch they left. */
export async function cancelTransfer(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  body: CancelTransferRequest,
): Promise<Transfer> {
  const exponent = await baseExponent(app);
  await app.db.transaction().execute(async (trx) => {
    const { header, items } = await transferFor(trx, id);
    assertBranchAccess(user, header.from_branch_id, 'transfer');
    assertTillOf(app, header.from_branch_id, 'cancel it');
    const cancelled: TransfersTable = {
      ...header,
      status: 'cancelled',
      cancelled_at: nowIso(),
      cancelled_by: user.id,
      cancel_reason: body.reason,
    };
    await leaveTransit(trx, header, {
      status: 'cancelled',
      cancelled_at: cancelled.cancelled_at,
      cancelled_by: user.id,
      cancel_reason: body.reason,
    });
    for (const item of items)
      await moveBatchQuantity(trx, {
        batchId: item.from_batch_id,
        delta: item.quantity,
        type: 'transfer_in',
        reference: { type: 'transfer', id },
        userId: user.id,
        reason: body.reason || 'transfer cancelled',
        replicate: carriedAlone(app),
      });
    const payload: TransferPayload = { ...cancelled, items, movements: await movementsIn(trx, id) };
    await recordForBoth(
      trx,
      app,
      { entity: 'transfer', entityId: id, payload },
      header.from_branch_id,
      header.to_branch_id,
    );
    await writeAudit(trx, actor, {
      action: 'transfer.cancel',
      entity: 'transfer',
      entityId: id,
      branchId: header.from_branch_id,
      before: { ...header, items },
      after: payload,
    });
  });
  return (await loadTransfers(app.db, [id], exponent))[0]!;
}
