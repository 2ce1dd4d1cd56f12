import { baseExponent } from '../currency/service';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { formatMinor } from '../../lib/money';
import { branchToday } from '../stock/ledger';

const DEFAULT_LEAD_TIME_DAYS = 7;
export const SUGGESTION_LIMIT = 500;

interface SuggestionRow {
  medicine_id: string;
  medicine_name: string;
  low_stock_threshold: number;
  stock: number;
  sold: number;
  on_order: number;
  batch_id: string | null;
}

/**
 * Reorder suggestions for one branch: active medicines whose sellable stock is at or below their low-stock
 * threshold. suggested_qty = ceil(average daily net sales over the window x the supplier's lead time) +
 * threshold - stock - units already on open orders (never below 0). The supplier is the one of the medicine's
 * most recent batch (this branch first, else any branch); its lead time, else 7 days.
 */
export async function suggestedOrders(app: AppContext, branchId: string, days: number) {
  const today = await branchToday(app.db, branchId);
  const since = new Date(Date.now() - days * 86_400_000).toISOString();
  const { rows } = await sql<SuggestionRow>`
    WITH stock AS (
      SELECT medicine_id, sum(qty_on_hand) AS qty FROM batches
      WHERE branch_id = ${branchId} AND regulator_status = 'active' AND expiry_date >= ${today}
      GROUP BY medicine_id
    ), sold AS (
      SELECT medicine_id, -sum(quantity) AS qty FROM stock_movements
      WHERE branch_id = ${branchId} AND type IN ('sale', 'return') AND created_at >= ${since}
      GROUP BY medicine_id
    ), on_order AS (
      SELECT i.medicine_id,
        sum(CASE WHEN i.ordered_qty > i.received_qty THEN i.ordered_qty - i.received_qty ELSE 0 END) AS qty
      FROM purchase_order_items i JOIN purchase_orders po ON po.id = i.purchase_order_id
      WHERE po.branch_id = ${branchId} AND po.status IN ('DRAFT', 'SENT', 'PARTIALLY_RECEIVED')
      GROUP BY i.medicine_id
    )
    SELECT m.id AS medicine_id, m.name AS medicine_name, m.low_stock_threshold,
      coalesce(st.qty, 0) AS stock, CASE WHEN so.qty > 0 THEN so.qty ELSE 0 END AS sold, coalesce(oo.qty, 0) AS on_order,
      (SELECT b.id FROM batches b WHERE b.medicine_id = m.id AND b.supplier_id IS NOT NULL
        ORDER BY (b.branch_id = ${branchId}) DESC, b.received_at DESC, b.id DESC LIMIT 1) AS batch_id
    FROM medicines m
    LEFT JOIN stock st ON st.medicine_id = m.id
    LEFT JOIN sold so ON so.medicine_id = m.id
    LEFT JOIN on_order oo ON oo.medicine_id = m.id
    WHERE m.is_active = 1 AND coalesce(st.qty, 0) <= m.low_stock_threshold
    ORDER BY coalesce(st.qty, 0), m.name COLLATE NOCASE, m.id
    LIMIT ${SUGGESTION_LIMIT}`.execute(app.db);

  const batchIds = rows.flatMap((r) => (r.batch_id ? [r.batch_id] : []));
  const lastBatches = batchIds.length
    ? await app.db
        .selectFrom('batches as b')
        .innerJoin('suppliers as s', 's.id', 'b.supplier_id')
        .select(['b.id', 'b.unit_cost', 's.id as supplier_id', 's.name as supplier_name', 's.lead_time_days'])
        .where('b.id', 'in', batchIds)
        .execute()
    : [];
  const byBatch = new Map(lastBatches.map((b) => [b.id, b]));
  const exponent = await baseExponent(app);
  return {
    branch_id: branchId,
    window_days: days,
    items: rows.map((r) => {
      const last = r.batch_id ? byBatch.get(r.batch_id) : undefined;
      const lead = last?.lead_time_days ?? DEFAULT_LEAD_TIME_DAYS;
      const sold = Number(r.sold);
      const cover = Math.ceil((sold * lead) / days);
      const stock = Number(r.stock);
      const onOrder = Number(r.on_order);
      return {
        medicine_id: r.medicine_id,
        medicine_name: r.medicine_name,
        stock_quantity: stock,
        low_stock_threshold: r.low_stock_threshold,
        avg_daily_sales: Math.round((sold * 100) / days) / 100,
        on_order_qty: onOrder,
        supplier_id: last?.supplier_id ?? null,
        supplier_name: last?.supplier_name ?? null,
        lead_time_days: lead,
        last_unit_cost: last ? formatMinor(last.unit_cost, exponent) : null,
        suggested_qty: Math.max(0, cover + r.low_stock_threshold - stock - onOrder),
      };
    }),
  };
}
