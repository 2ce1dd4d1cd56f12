import { baseExponent } from '../currency/service';
import type { Batch, RegulatorStatus } from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { assertBranchAccess, type AuthUser } from '../../http/auth';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { branchToday, recordBatchChange } from '../stock/ledger';
import { getBatch } from '../stock/queries';

export const REORDER_LIMIT = 100;

interface ReorderRow {
  medicine_id: string;
  medicine_name: string;
  category: string | null;
  low_stock_threshold: number;
  stock: number;
  supplier_id: string | null;
  supplier_name: string | null;
  lead_time_days: number | null;
}

/**
 * Active medicines whose sellable stock in the branch (active, unexpired batches: the ledger's stock) is at or
 * below low_stock_threshold, lowest stock first, at most 100; suggested_qty = 2 x threshold - stock. The
 * supplier is the one of the medicine's most recent batch (this branch first, else any branch).
 */
export async function reorderSuggestions(app: AppContext, branchId: string) {
  const today = await branchToday(app.db, branchId);
  const { rows } = await sql<ReorderRow>`
    WITH stock AS (
      SELECT medicine_id, sum(qty_on_hand) AS qty FROM batches
      WHERE branch_id = ${branchId} AND regulator_status = 'active' AND expiry_date >= ${today}
      GROUP BY medicine_id
    ), picked AS (
      SELECT m.id, m.name, m.category, m.low_stock_threshold, coalesce(st.qty, 0) AS stock,
        (SELECT b.supplier_id FROM batches b WHERE b.medicine_id = m.id AND b.supplier_id IS NOT NULL
          ORDER BY (b.branch_id = ${branchId}) DESC, b.received_at DESC, b.id DESC LIMIT 1) AS supplier_id
      FROM medicines m LEFT JOIN stock st ON st.medicine_id = m.id
      WHERE m.is_active = 1 AND coalesce(st.qty, 0) <= m.low_stock_threshold
      ORDER BY coalesce(st.qty, 0), m.name COLLATE NOCASE, m.id
      LIMIT ${REORDER_LIMIT}
    )
    SELECT p.id AS medicine_id, p.name AS medicine_name, p.category, p.low_stock_threshold, p.stock,
      p.supplier_id, s.name AS supplier_name, s.lead_time_days
    FROM picked p LEFT JOIN suppliers s ON s.id = p.supplier_id
    ORDER BY p.stock, p.name COLLATE NOCASE, p.id`.execute(app.db);
  return {
    branch_id: branchId,
    items: rows.map((r) => ({
      medicine_id: r.medicine_id,
      medicine_name: r.medicine_name,
      category: r.category,
      stock_quantity: Number(r.stock),
      low_stock_threshold: r.low_stock_threshold,
      suggested_qty: 2 * r.low_stock_threshold - Number(r.stock),
      supplier_id: r.supplier_id,
      supplier_name: r.supplier_name,
      lead_time_days: r.lead_time_days,
    })),
  };
}

/**
 * Sets a batch's regulator status (quarantined: under investigation; recalled: withdrawn; active: released).
 * Blocked batches stop being sold and counted as sellable stock at once; quantities do not move.
 */
export async function setRegulatorStatus(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  batchId: string,
  input: { status: RegulatorStatus; reason: string },
): Promise<Batch> {
  const exponent = await baseExponent(app);
  const existing = await getBatch(app.db, batchId, exponent);
  assertBranchAccess(user, existing.branch_id, 'batch');
  await app.db.transaction().execute(async (trx) => {
    const before = await trx
      .selectFrom('batches')
      .selectAll()
      .where('id', '=', batchId)
      .executeTakeFirstOrThrow();
    const after = { ...before, regulator_status: input.status, updated_at: nowIso() };
    await trx
      .updateTable('batches')
      .set({ regulator_status: after.regulator_status, updated_at: after.updated_at })
      .where('id', '=', batchId)
      .execute();
    await recordBatchChange(trx, after);
    await writeAudit(trx, actor, {
      action: 'batch.regulator_status',
      entity: 'batch',
      entityId: batchId,
      branchId: before.branch_id,
      before: { regulator_status: before.regulator_status },
      after: { regulator_status: after.regulator_status, reason: input.reason },
    });
  });
  return getBatch(app.db, batchId, exponent);
}
