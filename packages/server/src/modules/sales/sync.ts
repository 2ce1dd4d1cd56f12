import { SalePayload as PushedSaleSchema } from '@pharmacy/contracts';
import { recordChange } from '../../db/changes';
import type { Db } from '../../db/connection';
import {
  type ApplyResult,
  defineEntity,
  type EntityRegistration,
  type PushedChange,
  type SyncDevice,
} from '../sync/registry';
import { insertRowIfAbsent, insertRowsIfAbsent } from '../sync/row-writes';
import type { SaleLinesTable, SalePaymentsTable, SalesTable } from '../../db/tables/sales';
import { assertPushedSaleCovered } from './create/lines';

/**
 * Replication of sales: one change per sale, `{...sale, lines, payments, movement_ids}`, till-owned, branch
 * scope, insert-once. Invoice number and ICV were assigned by the till offline; central answers them back.
 *
 * Applying a sale writes the sale, its lines and payments and nothing else: its stock movements, dispensings,
 * customer ledger row and coupon redemption are their own changes, recorded earlier in the sale's transaction
 * (so pushed and pulled before it, in revision order). A sale never waits for them: it is a fiscal fact, and a
 * movement that could not apply is a conflict of its own. Never dispensed again (no dispenseForSale here).
 */
export type SalePayload = SalesTable & {
  lines?: SaleLinesTable[];
  payments?: SalePaymentsTable[];
  movement_ids?: string[];
};

/** Central's check of a pushed sale: the prescription rule of POST /sales (create/lines.ts). */
async function assertPushedRx(payload: SalePayload, trx: Db): Promise<void> {
  const { lines = [], ...sale } = payload;
  await assertPushedSaleCovered(trx, sale, lines);
}

export async function insertSaleIfAbsent(trx: Db, payload: SalePayload): Promise<boolean> {
  const { lines = [], payments = [], movement_ids: _, ...sale } = payload;
  if (!(await insertRowIfAbsent(trx, 'sales', 'id', sale))) return false;
  if (lines.length) await insertRowsIfAbsent(trx, 'sale_lines', 'id', lines);
  if (payments.length) await insertRowsIfAbsent(trx, 'sale_payments', 'id', payments);
  await recordChange(trx, {
    entity: 'sale',
    entityId: sale.id,
    op: 'upsert',
    payload,
    branchId: sale.branch_id,
  });
  return true;
}

/**
 * A run of pushed sales at once (PostgreSQL set-wise push): the new sales in one insert, then their lines and
 * their payments in one insert each; a sale already held writes nothing, as insertSaleIfAbsent does.
 */
async function applySales(
  trx: Db,
  changes: PushedChange<SalePayload>[],
  device: SyncDevice,
): Promise<ApplyResult[]> {
  for (const c of changes) await assertPushedRx(c.payload, trx);
  const sales = changes.map((c) => {
    const { lines = [], payments = [], movement_ids: _, ...sale } = c.payload;
    return { change: c, sale, lines, payments };
  });
  const inserted = new Set(
    await insertRowsIfAbsent(
      trx,
      'sales',
      'id',
      sales.map((s) => s.sale),
    ),
  );
  const fresh = sales.filter((s) => inserted.delete(s.sale.id));
  if (fresh.some((s) => s.lines.length))
    await insertRowsIfAbsent(
      trx,
      'sale_lines',
      'id',
      fresh.flatMap((s) => s.lines),
    );
  if (fresh.some((s) => s.payments.length))
    await insertRowsIfAbsent(
      trx,
      'sale_payments',
      'id',
      fresh.flatMap((s) => s.payments),
    );
  for (const { change, sale } of fresh)
    await recordChange(trx, {
      entity: 'sale',
      entityId: sale.id,
      op: 'upsert',
      payload: change.payload,
      branchId: sale.branch_id,
      clientMutationId: change.clientMutationId,
      originDeviceId: device.id,
    });
  return sales.map(({ change, sale }) => ({
    id: change.entityId,
    invoice_number: sale.invoice_number,
    icv: sale.icv,
  }));
}

const saleEntity = defineEntity<SalePayload>({
  entity: 'sale',
  push: 'till-owned',
  payloadSchema: PushedSaleSchema,
  owner: 'till',
  applyPushMany: applySales,
  scope: 'branch',
  table: 'sales',
  order: 200,
  rest: [{ method: 'post', path: '/sales' }],
  children: { lines: 'sale_id', payments: 'sale_id' },
  references: [
    { field: 'session_id', table: 'cash_sessions' },
    { field: 'approval_id', table: 'approvals' },
    { field: 'prescription_id', table: 'prescriptions' },
  ],
  applyPush: async (trx, change) => {
    await assertPushedRx(change.payload, trx);
    await insertSaleIfAbsent(trx, change.payload);
    const s = change.payload;
    return { id: change.entityId, invoice_number: s.invoice_number, icv: s.icv };
  },
  applyPulled: async (trx, change) => {
    await insertSaleIfAbsent(trx, change.payload);
  },
});

/**
 * Snapshot only (lines and payments travel inside the sale's change): those of the branch's sales. A till never
 * pushes one on its own.
 */
const saleLineEntity: EntityRegistration = {
  entity: 'sale_line',
  push: 'central-only',
  owner: 'till',
  scope: 'branch',
  table: 'sale_lines',
  order: 201,
  snapshotWhere: 'sale_id IN (SELECT id FROM sales WHERE branch_id = ?)',
};
const salePaymentEntity: EntityRegistration = {
  entity: 'sale_payment',
  push: 'central-only',
  owner: 'till',
  scope: 'branch',
  table: 'sale_payments',
  order: 202,
  snapshotWhere: 'sale_id IN (SELECT id FROM sales WHERE branch_id = ?)',
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const salesEntities: readonly EntityRegistration[] = [saleEntity, saleLineEntity, salePaymentEntity];
