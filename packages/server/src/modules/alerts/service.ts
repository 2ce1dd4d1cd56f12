import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { pageAnswer, paginate } from '../../db/paginate';
import { addDays, daysBetween, localDate } from '@pharmacy/contracts/time';

/** Active branches (or one) with today's date in each one's time zone. */
async function branchDays(app: AppContext, branchId?: string) {
  let q = app.db.selectFrom('branches').select(['id', 'name', 'timezone']).where('is_active', '=', 1);
  if (branchId) q = q.where('id', '=', branchId);
  return (await q.execute()).map((b) => ({ id: b.id, name: b.name, today: localDate(b.timezone) }));
}

const valuesOf = (branches: Array<{ id: string; today: string }>, days = 0) =>
  sql.join(branches.map((b) => sql`(${b.id}, ${b.today}, ${addDays(b.today, days)})`));

/** The rows of `lowStock` before paging: each active medicine in each branch, with its sellable stock there. */
interface StockInBranch {
  medicine_id: string;
  name: string;
  generic_name: string;
  category: string | null;
  low_stock_threshold: number;
  branch_id: string;
  stock_quantity: number;
}

/** Active medicines at or below their low-stock threshold, per branch (no stock at all included), emptiest first. */
export async function lowStock(app: AppContext, f: { branch_id?: string; page: number; page_size: number }) {
  const branches = await branchDays(app, f.branch_id);
  if (branches.length === 0) return pageAnswer(f, [], 0);
  const stock = sql<StockInBranch>`(
    WITH d(branch_id, today, until) AS (VALUES ${valuesOf(branches)})
    SELECT m.id AS medicine_id, m.name, m.generic_name, m.category, m.low_stock_threshold, d.branch_id,
      (SELECT coalesce(sum(b.qty_on_hand), 0) FROM batches b
        WHERE b.branch_id = d.branch_id AND b.medicine_id = m.id AND b.regulator_status = 'active'
          AND b.expiry_date >= d.today) AS stock_quantity
    FROM medicines m CROSS JOIN d WHERE m.is_active = 1
  )`.as('s');
  const low = app.db.selectFrom(stock).where(sql<boolean>`s.stock_quantity <= s.low_stock_threshold`);
  const page = await paginate(low, f, (q) =>
    q.selectAll().orderBy(sql`s.stock_quantity, s.name COLLATE NOCASE, s.medicine_id, s.branch_id`),
  );
  const names = new Map(branches.map((b) => [b.id, b.name]));
  return {
    ...page,
    items: page.items.map((r) => ({
      ...r,
      stock_quantity: Number(r.stock_quantity),
      branch_name: names.get(r.branch_id) ?? '',
    })),
  };
}

/** The rows of `expiryAlerts` before paging: batches holding stock, with their branch's today. */
interface DueBatch {
  batch_id: string;
  medicine_id: string;
  medicine_name: string;
  branch_id: string;
  batch_number: string;
  expiry_date: string;
  qty_on_hand: number;
  regulator_status: 'quarantined' | 'active' | 'recalled';
  today: string;
}

/**
 * Batches holding stock that expire within `days` (today included; quarantined and recalled excluded), or that
 * have expired already (any status: they must be written off), soonest first.
 */
export async function expiryAlerts(
  app: AppContext,
  f: { branch_id?: string; page: number; page_size: number },
  window: { days: number } | 'expired',
) {
  const branches = await branchDays(app, f.branch_id);
  if (branches.length === 0) return pageAnswer(f, [], 0);
  const condition =
    window === 'expired'
      ? sql`b.expiry_date < d.today`
      : sql`b.regulator_status = 'active' AND b.expiry_date >= d.today AND b.expiry_date <= d.until`;
  const due = sql<DueBatch>`(
    WITH d(branch_id, today, until) AS (VALUES ${valuesOf(branches, window === 'expired' ? 0 : window.days)})
    SELECT b.id AS batch_id, b.medicine_id, m.name AS medicine_name, b.branch_id, b.batch_number, b.expiry_date,
      b.qty_on_hand, b.regulator_status, d.today
    FROM batches b JOIN d ON d.branch_id = b.branch_id JOIN medicines m ON m.id = b.medicine_id
    WHERE b.qty_on_hand > 0 AND ${condition}
  )`.as('due');
  const page = await paginate(app.db.selectFrom(due), f, (q) =>
    q.selectAll().orderBy(sql`due.expiry_date, due.medicine_name COLLATE NOCASE, due.batch_id`),
  );
  const names = new Map(branches.map((b) => [b.id, b.name]));
  return {
    ...page,
    items: page.items.map(({ today, ...r }) => ({
      ...r,
      branch_name: names.get(r.branch_id) ?? '',
      days_to_expiry: daysBetween(today, r.expiry_date),
    })),
  };
}
