import { baseExponent } from '../currency/service';
import type { Transfer, TransferStatus } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import { paginate } from '../../db/paginate';
import type { Db } from '../../db/connection';
import { NotFound } from '../../lib/errors';
import { formatMinor } from '../../lib/money';

const selectHeaders = (db: Db) =>
  db
    .selectFrom('transfers as t')
    .innerJoin('branches as bf', 'bf.id', 't.from_branch_id')
    .innerJoin('branches as bt', 'bt.id', 't.to_branch_id')
    .leftJoin('transfer_receipts as r', 'r.transfer_id', 't.id')
    .selectAll('t')
    .select([
      'bf.name as from_branch_name',
      'bt.name as to_branch_name',
      'r.received_at',
      'r.received_by',
      'r.notes as receipt_notes',
    ]);

/** Transfers by id, in the order given, with their lines and (once received) what arrived of each. */
export async function loadTransfers(db: Db, ids: string[], exp: number): Promise<Transfer[]> {
  if (ids.length === 0) return [];
  const headers = await selectHeaders(db).where('t.id', 'in', ids).execute();
  const items = await db
    .selectFrom('transfer_items as i')
    .innerJoin('medicines as m', 'm.id', 'i.medicine_id')
    .leftJoin('transfer_receipt_lines as rl', 'rl.transfer_item_id', 'i.id')
    .selectAll('i')
    .select([
      'm.name as medicine_name',
      'rl.received_quantity',
      'rl.discrepancy_reason',
      'rl.to_batch_id as received_batch_id',
    ])
    .where('i.transfer_id', 'in', ids)
    .orderBy('i.id')
    .execute();
  const byId = new Map(headers.map((h) => [h.id, h]));
  return ids.flatMap((id) => {
    const h = byId.get(id);
    if (!h) return [];
    const status = h.status as TransferStatus;
    const transfer: Transfer = {
      id: h.id,
      from_branch_id: h.from_branch_id,
      from_branch_name: h.from_branch_name,
      to_branch_id: h.to_branch_id,
      to_branch_name: h.to_branch_name,
      status,
      notes: h.notes,
      created_by: h.created_by,
      created_at: h.created_at,
      received_at: h.received_at ?? (status === 'completed' ? h.created_at : null),
      received_by: h.received_by ?? (status === 'completed' ? h.created_by : null),
      receipt_notes: h.receipt_notes ?? null,
      cancelled_at: h.cancelled_at,
      cancelled_by: h.cancelled_by,
      cancel_reason: h.cancel_reason,
      items: items
        .filter((i) => i.transfer_id === id)
        .map((i) => ({
          id: i.id,
          medicine_id: i.medicine_id,
          medicine_name: i.medicine_name,
          from_batch_id: i.from_batch_id,
          to_batch_id: i.received_batch_id ?? i.to_batch_id,
          batch_number: i.batch_number,
          expiry_date: i.expiry_date,
          quantity: i.quantity,
          unit_cost: formatMinor(i.unit_cost, exp),
          received_quantity: i.received_quantity ?? (status === 'completed' ? i.quantity : null),
          discrepancy_reason: i.discrepancy_reason ?? null,
        })),
    };
    return [transfer];
  });
}

export async function getTransfer(app: AppContext, id: string): Promise<Transfer> {
  const [t] = await loadTransfers(app.db, [id], await baseExponent(app));
  if (!t) throw new NotFound('Transfer', id);
  return t;
}

export async function listTransfers(
  app: AppContext,
  f: {
    branch_id?: string;
    direction: 'in' | 'out' | 'both';
    status?: TransferStatus;
    page: number;
    page_size: number;
  },
) {
  let q = selectHeaders(app.db);
  if (f.branch_id) {
    const b = f.branch_id;
    if (f.direction === 'out') q = q.where('t.from_branch_id', '=', b);
    else if (f.direction === 'in') q = q.where('t.to_branch_id', '=', b);
    else q = q.where((eb) => eb.or([eb('t.from_branch_id', '=', b), eb('t.to_branch_id', '=', b)]));
  }
  if (f.status) q = q.where('t.status', '=', f.status);
  const page = await paginate(q, f, (filtered) =>
    filtered.orderBy('t.created_at', 'desc').orderBy('t.id', 'desc'),
  );
  const ids = page.items.map((r) => r.id);
  return { ...page, items: await loadTransfers(app.db, ids, await baseExponent(app)) };
}
