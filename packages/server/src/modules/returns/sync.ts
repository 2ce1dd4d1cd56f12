import { ReturnPayload } from '@pharmacy/contracts';
import { smallerOf } from '../../db/dialect';
import { sql } from 'kysely';
import { recordChange } from '../../db/changes';
import type { Db } from '../../db/connection';
import type { ReturnLinesTable, ReturnsTable } from '../../db/tables/returns';
import { defineEntity, type EntityRegistration } from '../sync/registry';
import { insertRowIfAbsent } from '../sync/row-writes';

/**
 * Replication of returns (credit notes): one change per return, `{...ret, lines}`, till-owned, branch scope,
 * insert-once; credit note number and ICV from the till. Stock comes back as the return's own `stock_movement`
 * changes, a refund on account as a `customer_ledger` row. Applying a return also brings the sale in step:
 * each sale line's returned_quantity = the sum of its return lines (capped at the quantity sold, which the
 * table's CHECK demands; two tills could each return the last unit offline), and the sale's has_return.
 * Derived, not added, so it converges whatever the order.
 */
type ReturnPayloadRow = ReturnsTable & { lines?: ReturnLinesTable[] };

async function writeReturn(trx: Db, payload: ReturnPayloadRow): Promise<boolean> {
  const { lines = [], ...ret } = payload;
  if (!(await insertRowIfAbsent(trx, 'returns', 'id', ret))) return false;
  for (const l of lines) {
    await insertRowIfAbsent(trx, 'return_lines', 'id', l);
    const returned = sql`(SELECT coalesce(sum(quantity), 0) FROM return_lines WHERE sale_line_id = ${l.sale_line_id})`;
    await sql`UPDATE sale_lines SET returned_quantity = ${smallerOf(trx, sql.ref('quantity'), returned)}
      WHERE id = ${l.sale_line_id}`.execute(trx);
  }
  await trx.updateTable('sales').set({ has_return: 1 }).where('id', '=', ret.sale_id).execute();
  await recordChange(trx, {
    entity: 'return',
    entityId: ret.id,
    op: 'upsert',
    payload,
    branchId: ret.branch_id,
  });
  return true;
}

const returnEntity = defineEntity<ReturnPayloadRow>({
  entity: 'return',
  push: 'till-owned',
  payloadSchema: ReturnPayload,
  owner: 'till',
  scope: 'branch',
  table: 'returns',
  order: 210,
  rest: [{ method: 'post', path: '/returns' }],
  children: { lines: 'return_id' },
  references: [
    { field: 'sale_id', table: 'sales' },
    { field: 'session_id', table: 'cash_sessions' },
    {
      field: 'sale_line_id',
      in: 'lines',
      table: 'sale_lines',
      branchSql: 'SELECT s.branch_id AS b FROM sale_lines l JOIN sales s ON s.id = l.sale_id WHERE l.id = ?',
    },
  ],
  applyPush: async (trx, change) => {
    await writeReturn(trx, change.payload);
    const r = change.payload;
    return { id: change.entityId, invoice_number: r.credit_note_number, icv: r.icv };
  },
  applyPulled: async (trx, change) => {
    await writeReturn(trx, change.payload);
  },
});

/** Snapshot only (lines travel inside the return's change): the lines of the branch's returns; never pushed alone. */
const returnLineEntity: EntityRegistration = {
  entity: 'return_line',
  push: 'central-only',
  owner: 'till',
  scope: 'branch',
  table: 'return_lines',
  order: 211,
  snapshotWhere: 'return_id IN (SELECT id FROM returns WHERE branch_id = ?)',
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const returnsEntities: readonly EntityRegistration[] = [returnEntity, returnLineEntity];
