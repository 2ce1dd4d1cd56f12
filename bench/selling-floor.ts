import { randomUUID } from 'node:crypto';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import express from 'express';

/**
 * The floor of a sale: the same SQL statements as POST /sales (idempotency and session checks, the pull cursor
 * once, FEFO read, guarded batch update, movement and its change row per line, ICV, sale/lines/payment/chain/audit
 * inserts, each medicine's stock kept once (medicine_stock, the list's version), sale change; the answer is built
 * from what was written, as the endpoint's is), as raw better-sqlite3
 * prepared statements in one transaction inside a bare Express route. No validation, pricing, hashing or XML:
 * the most this machine can do for a 5-line sale.
 */
const db = new BetterSqlite3(path.join(process.env.DATA_DIR!, 'pharmacy.db'));
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('foreign_keys = ON');

const admin = db.prepare("SELECT id, branch_id FROM users WHERE email = 'admin@pharmacy.local'").get() as {
  id: string;
  branch_id: string;
};
const deviceId = (
  db.prepare("SELECT value FROM local_state WHERE key = 'device_id'").get() as { value: string }
).value;
const s = {
  replay: db.prepare('SELECT id, payload_hash FROM sales WHERE client_mutation_id = ?'),
  meds: db.prepare(
    'SELECT id, name, selling_price, max_public_price, requires_prescription, is_controlled, is_active, vat_category FROM medicines WHERE id IN (?, ?, ?, ?, ?)',
  ),
  session: db.prepare(
    "SELECT id, status, branch_id FROM cash_sessions WHERE user_id = ? AND status != 'closed'",
  ),
  fefo: db.prepare(
    "SELECT id, branch_id, medicine_id, batch_number, expiry_date, qty_on_hand, unit_cost FROM batches WHERE branch_id = ? AND medicine_id = ? AND regulator_status = 'active' AND expiry_date >= ? ORDER BY expiry_date, received_at, id",
  ),
  take: db.prepare(
    'UPDATE batches SET qty_on_hand = qty_on_hand - ?, updated_at = ? WHERE id = ? AND qty_on_hand >= ?',
  ),
  movement: db.prepare(
    'INSERT INTO stock_movements (id, batch_id, branch_id, medicine_id, type, quantity, reference_type, reference_id, user_id, reason, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  ),
  cursor: db.prepare("SELECT value FROM sync_meta WHERE key = 'cursor'"),
  // modules/stock/medicine-stock.ts
  stock: db.prepare(
    `INSERT INTO medicine_stock (branch_id, medicine_id, qty, name, is_active, low_stock_threshold)
    SELECT b.branch_id, b.medicine_id, sum(d.delta), coalesce(m.name, ''), coalesce(m.is_active, 1),
      coalesce(m.low_stock_threshold, 0)
    FROM (SELECT value ->> 0 AS batch_id, value ->> 1 AS delta FROM json_each(?)) AS d CROSS JOIN batches b
      LEFT JOIN medicines m ON m.id = b.medicine_id
    WHERE b.id = d.batch_id AND b.regulator_status = 'active'
      AND b.expiry_date >= coalesce((SELECT s.day FROM medicine_stock_days s WHERE s.branch_id = b.branch_id), '')
    GROUP BY b.branch_id, b.medicine_id, m.name, m.is_active, m.low_stock_threshold HAVING sum(d.delta) <> 0 ORDER BY b.branch_id, b.medicine_id
    ON CONFLICT (branch_id, medicine_id) DO UPDATE SET qty = medicine_stock.qty + excluded.qty
    RETURNING branch_id, medicine_id, qty`,
  ),
  version: db.prepare(
    'INSERT INTO list_versions (key, v) VALUES (?, random()) ON CONFLICT (key) DO UPDATE SET v = excluded.v',
  ),
  change: db.prepare(
    'INSERT INTO change_log (entity, entity_id, op, payload, branch_id, origin_device_id, client_mutation_id, from_remote, remote_revision, base_revision, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, 0, NULL, ?, ?)',
  ),
  last: db.prepare('SELECT icv, fiscal_hash FROM fiscal_chain WHERE device_id = ? ORDER BY icv DESC LIMIT 1'),
  sale: db.prepare(
    `INSERT INTO sales (id, branch_id, user_id, session_id, device_id, invoice_number, uuid, icv, client_mutation_id, payload_hash, sync_status, subtotal_amount, line_discount_amount, global_discount, coupon_discount, vat_amount, total_amount, paid_amount, change_amount, currency_code, base_currency_code, fx_rate_to_base, base_total_amount, base_vat_amount, base_change_amount, vat_breakdown, prices_include_vat, payment_method, notes, customer_id, customer_name, coupon_id, coupon_code, prescription_id, approval_id, seller_vat_number, seller_name, fiscal_status, fiscal_xml, fiscal_hash, previous_hash, is_deleted, has_return, sold_at, created_at) VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, 'pending', ?, 0, 0, 0, ?, ?, ?, 0, 'USD', 'USD', '1', ?, ?, 0, '[]', 1, 'cash', '', NULL, NULL, NULL, NULL, NULL, NULL, '', '', 'pending', '<Invoice/>', ?, ?, 0, 0, ?, ?)`,
  ),
  line: db.prepare(
    'INSERT INTO sale_lines (id, sale_id, line_no, medicine_id, medicine_name, quantity, unit_price, catalogue_price, line_discount, allocated_discount, net_amount, vat_amount, line_total, vat_rate, vat_category, cost_amount, batches, returned_quantity) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 0, 0, ?, ?, ?, ?, ?, 0, ?, 0)',
  ),
  payment: db.prepare(
    "INSERT INTO sale_payments (id, sale_id, line_no, method, amount, base_amount, reference) VALUES (?, ?, 1, 'cash', ?, ?, '')",
  ),
  chain: db.prepare(
    "INSERT INTO fiscal_chain (device_id, icv, doc_type, doc_id, fiscal_hash, previous_hash, created_at) VALUES (?, ?, 'invoice', ?, ?, ?, ?)",
  ),
  audit: db.prepare(
    "INSERT INTO audit_log (id, user_id, action, entity, entity_id, branch_id, before_json, after_json, request_id, created_at) VALUES (?, ?, 'sale.create', 'sale', ?, ?, NULL, ?, NULL, ?)",
  ),
};

interface Item {
  medicine_id: string;
  quantity: number;
}

const sell = db.transaction((items: Item[], cmid: string) => {
  const now = new Date().toISOString();
  const today = now.slice(0, 10);
  if (s.replay.get(cmid)) throw new Error('replay');
  const meds = new Map(
    (
      s.meds.all(...items.map((i) => i.medicine_id)) as Array<{
        id: string;
        name: string;
        selling_price: number;
      }>
    ).map((m) => [m.id, m]),
  );
  s.session.get(admin.id);
  const cur = s.cursor.get() as { value: string } | undefined;
  const saleId = randomUUID();
  const lines: unknown[][] = [];
  const moved: Array<[string, number]> = [];
  let total = 0;
  for (const [i, item] of items.entries()) {
    const m = meds.get(item.medicine_id)!;
    const batches = s.fefo.all(admin.branch_id, item.medicine_id, today) as Array<{
      id: string;
      qty_on_hand: number;
    }>;
    const b = batches.find((x) => x.qty_on_hand >= item.quantity)!;
    s.take.run(item.quantity, now, b.id, item.quantity);
    moved.push([b.id, -item.quantity]);
    const mid = randomUUID();
    const mv = [
      mid,
      b.id,
      admin.branch_id,
      item.medicine_id,
      'sale',
      -item.quantity,
      'sale',
      saleId,
      admin.id,
      '',
      now,
    ];
    s.movement.run(...mv);
    s.change.run(
      'stock_movement',
      mid,
      'upsert',
      JSON.stringify(mv),
      admin.branch_id,
      null,
      randomUUID(),
      cur ? Number(cur.value) : null,
      now,
    );
    const gross = m.selling_price * item.quantity;
    total += gross;
    lines.push([
      randomUUID(),
      saleId,
      i + 1,
      m.id,
      m.name,
      item.quantity,
      m.selling_price,
      m.selling_price,
      gross - Math.round((gross * 18) / 118),
      Math.round((gross * 18) / 118),
      gross,
      '18',
      'standard',
      JSON.stringify([{ batch_id: b.id, movement_id: mid }]),
    ]);
  }
  s.stock.all(JSON.stringify(moved));
  s.version.run(`stock:${admin.branch_id}`);
  const last = s.last.get(deviceId) as { icv: number; fiscal_hash: string } | undefined;
  const icv = (last?.icv ?? 0) + 1;
  const hash = randomUUID();
  s.sale.run(
    saleId,
    admin.branch_id,
    admin.id,
    deviceId,
    `MAIN-X-${icv}`,
    randomUUID(),
    icv,
    cmid,
    'h',
    total,
    0,
    total,
    total,
    total,
    0,
    hash,
    last?.fiscal_hash ?? '0',
    now,
    now,
  );
  for (const l of lines) s.line.run(...l);
  s.payment.run(randomUUID(), saleId, total, total);
  s.chain.run(deviceId, icv, saleId, hash, last?.fiscal_hash ?? '0', now);
  s.audit.run(randomUUID(), admin.id, saleId, admin.branch_id, JSON.stringify({ icv, total }), now);
  s.change.run(
    'sale',
    saleId,
    'upsert',
    JSON.stringify({ saleId, lines }),
    admin.branch_id,
    null,
    cmid,
    cur ? Number(cur.value) : null,
    now,
  );
  return { id: saleId, icv, total, fiscal_hash: hash, sold_at: now, items: lines };
});

const app = express();
app.use(express.json());
app.post('/sale', (req, res) => {
  res.status(201).json(sell(req.body.items as Item[], String(req.body.client_mutation_id)));
});
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`ready on http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
