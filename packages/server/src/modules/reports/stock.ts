import { baseExponent } from '../currency/service';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { formatMinor } from '../../lib/money';
import { branchToday } from '../stock/ledger';
import { localDate } from '@pharmacy/contracts/time';
import { reportTimeZone, type ReportWindow } from './window';

export interface MedicineStock {
  id: string;
  name: string;
  category: string | null;
  selling_price: number;
  low_stock_threshold: number;
  qty: number;
  cost: number;
}

/**
 * Sellable stock of every active medicine (active, unexpired batches: what the ledger holds for sale), in one
 * branch or summed over all branches. "Today" is the branch's local day, else the organisation's.
 */
export async function medicineStock(app: AppContext, branchId: string | undefined): Promise<MedicineStock[]> {
  const today = branchId
    ? await branchToday(app.db, branchId)
    : localDate(await reportTimeZone(app, undefined));
  const branch = branchId ? sql` AND branch_id = ${branchId}` : sql``;
  const { rows } = await sql<MedicineStock>`
    WITH stock AS (
      SELECT medicine_id, sum(qty_on_hand) AS qty, sum(qty_on_hand * unit_cost) AS cost FROM batches
      WHERE regulator_status = 'active' AND expiry_date >= ${today}${branch}
      GROUP BY medicine_id
    )
    SELECT m.id, m.name, m.category, m.selling_price, m.low_stock_threshold,
      coalesce(st.qty, 0) AS qty, coalesce(st.cost, 0) AS cost
    FROM medicines m LEFT JOIN stock st ON st.medicine_id = m.id
    WHERE m.is_active = 1`.execute(app.db);
  return rows.map((r) => ({ ...r, qty: Number(r.qty), cost: Number(r.cost) }));
}

/** The dashboard's stock figures: active medicines, those at or below their threshold, those without stock. */
export interface StockCounts {
  total: number;
  low: number;
  out: number;
}

/**
 * medicineStock's figures counted in the database (the dashboard needs three numbers, not a row per
 * medicine): `low` counts the medicines at or below their low-stock threshold (out of stock included), `out`
 * those with no sellable stock. `today` is the local day of the branch (or the organisation).
 */
export async function stockCounts(
  app: AppContext,
  branchId: string | undefined,
  today: string,
): Promise<StockCounts> {
  const branch = branchId ? sql` AND branch_id = ${branchId}` : sql``;
  const { rows } = await sql<{ total: number; low: number | null; out: number | null }>`
    WITH stock AS (
      SELECT medicine_id, sum(qty_on_hand) AS qty FROM batches
      WHERE regulator_status = 'active' AND expiry_date >= ${today}${branch}
      GROUP BY medicine_id
    )
    SELECT count(*) AS total,
      count(*) FILTER (WHERE coalesce(st.qty, 0) <= m.low_stock_threshold) AS low,
      count(*) FILTER (WHERE coalesce(st.qty, 0) <= 0) AS out
    FROM medicines m LEFT JOIN stock st ON st.medicine_id = m.id
    WHERE m.is_active = 1`.execute(app.db);
  const r = rows[0];
  return { total: Number(r?.total ?? 0), low: Number(r?.low ?? 0), out: Number(r?.out ?? 0) };
}

export async function inventoryReport(app: AppContext, branchId: string | undefined) {
  const exponent = await baseExponent(app);
  const fmt = (m: number) => formatMinor(m, exponent);
  const stock = await medicineStock(app, branchId);
  const categories = new Map<string | null, { count: number; units: number; value: number }>();
  let units = 0;
  let value = 0;
  let cost = 0;
  for (const m of stock) {
    const onHand = Math.max(0, m.qty);
    const c = categories.get(m.category) ?? { count: 0, units: 0, value: 0 };
    c.count += 1;
    c.units += onHand;
    c.value += onHand * m.selling_price;
    categories.set(m.category, c);
    units += onHand;
    value += onHand * m.selling_price;
    cost += Math.max(0, m.cost);
  }
  const low = stock
    .filter((m) => m.qty <= m.low_stock_threshold)
    .sort((a, b) => a.qty - b.qty || a.name.localeCompare(b.name) || a.id.localeCompare(b.id));
  return {
    branch_id: branchId ?? null,
    total_medicines: stock.length,
    low_stock_count: low.length,
    out_of_stock_count: low.filter((m) => m.qty <= 0).length,
    total_units: units,
    total_value: fmt(value),
    total_cost_value: fmt(cost),
    by_category: [...categories.entries()]
      .sort(([ka, a], [kb, b]) => b.value - a.value || String(ka).localeCompare(String(kb)))
      .map(([category, c]) => ({ category, medicine_count: c.count, units: c.units, value: fmt(c.value) })),
    low_stock_list: low.slice(0, 20).map((m) => ({
      medicine_id: m.id,
      medicine_name: m.name,
      category: m.category,
      stock_quantity: m.qty,
      low_stock_threshold: m.low_stock_threshold,
    })),
  };
}

/**
 * Purchases in the window: every purchase movement (deliveries received directly or against a purchase order;
 * transfers between branches are not purchases) x its batch's unit cost.
 */
export async function purchasesReport(app: AppContext, w: ReportWindow) {
  const exponent = await baseExponent(app);
  const fmt = (m: number) => formatMinor(m, exponent);
  const branch = w.branchId ? sql` AND sm.branch_id = ${w.branchId}` : sql``;
  const { rows } = await sql<{
    supplier_id: string | null;
    supplier_name: string | null;
    medicine_id: string;
    medicine_name: string;
    batches: number;
    units: number;
    spend: number;
  }>`
    SELECT b.supplier_id, s.name AS supplier_name, b.medicine_id, m.name AS medicine_name,
      count(DISTINCT b.id) AS batches, sum(sm.quantity) AS units, sum(sm.quantity * b.unit_cost) AS spend
    FROM stock_movements sm
    JOIN batches b ON b.id = sm.batch_id
    JOIN medicines m ON m.id = b.medicine_id
    LEFT JOIN suppliers s ON s.id = b.supplier_id
    WHERE sm.type = 'purchase' AND sm.created_at >= ${w.startIso} AND sm.created_at < ${w.endIso}${branch}
    GROUP BY b.supplier_id, b.medicine_id, s.id, m.id`.execute(app.db);
  const suppliers = new Map<
    string | null,
    { name: string | null; batches: number; units: number; spend: number }
  >();
  const medicines = new Map<string, { name: string; batches: number; units: number; spend: number }>();
  let total = 0;
  let batches = 0;
  let units = 0;
  for (const r of rows) {
    const n = Number(r.batches);
    const u = Number(r.units);
    const s = Number(r.spend);
    total += s;
    batches += n;
    units += u;
    const sup = suppliers.get(r.supplier_id) ?? { name: r.supplier_name, batches: 0, units: 0, spend: 0 };
    sup.batches += n;
    sup.units += u;
    sup.spend += s;
    suppliers.set(r.supplier_id, sup);
    const med = medicines.get(r.medicine_id) ?? { name: r.medicine_name, batches: 0, units: 0, spend: 0 };
    med.batches += n;
    med.units += u;
    med.spend += s;
    medicines.set(r.medicine_id, med);
  }
  return {
    total_spend: fmt(total),
    batch_count: batches,
    units,
    by_supplier: [...suppliers.entries()]
      .sort(([ka, a], [kb, b]) => b.spend - a.spend || String(ka).localeCompare(String(kb)))
      .map(([id, s]) => ({
        supplier_id: id,
        supplier_name: s.name,
        batch_count: s.batches,
        units: s.units,
        spend: fmt(s.spend),
      })),
    by_medicine: [...medicines.entries()]
      .sort(([ka, a], [kb, b]) => b.spend - a.spend || ka.localeCompare(kb))
      .slice(0, 20)
      .map(([id, m]) => ({
        medicine_id: id,
        medicine_name: m.name,
        batch_count: m.batches,
        units: m.units,
        spend: fmt(m.spend),
      })),
  };
}
