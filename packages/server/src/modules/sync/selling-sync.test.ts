import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { ADMIN, startTestServer, type TestServer } from '../../testing/harness';
import { registeredEntities } from './registry';
import { TillStore } from './till-store';
import { addStock, batchOnHand, makeMedicineId } from '../../testing/factory';
import { pushedCreditSignIn, saleTemplate } from '../../testing/pushed-sale';

/**
 * The catalogue, stock and selling registrations applied in process: movements exactly once, customer balances
 * derived from the organisation-wide ledger, a sale pulled onto another till of the branch returnable there.
 */
let central: TestServer;
let branchId: string;
const devices: Array<{ id: string; token: string }> = [];

const push = (device: { id: string; token: string }, changes: unknown[]) =>
  central.request<{ accepted: Array<Record<string, unknown>>; rejected: Array<Record<string, unknown>> }>(
    'POST',
    '/api/v1/sync/push',
    { body: { device_id: device.id, changes }, headers: { 'x-device-token': device.token } },
  );
const change = (entity: string, payload: Record<string, unknown>) => ({
  client_mutation_id: newId(),
  entity,
  op: 'upsert',
  entity_id: payload.id,
  payload,
});
const sumOfMovements = async (t: TestServer, batchId: string) =>
  (
    await t.query<{ q: number }>(
      'SELECT coalesce(sum(quantity), 0) AS q FROM stock_movements WHERE batch_id = ?',
      batchId,
    )
  )[0]?.q;

beforeAll(async () => {
  central = await startTestServer({ mode: 'central' });
  branchId = await central.mainBranchId();
  for (const name of ['Till 1', 'Till 2']) {
    devices.push(await central.registerDevice(name));
  }
}, 60_000);
afterAll(() => central.close());

describe('stock_movement', () => {
  it('moves stock once when the same movement is applied twice, whatever its client mutation id', async () => {
    const med = await makeMedicineId(central, { price: 5 });
    const batch = await addStock(central, med, 10);
    const movement = {
      id: newId(),
      batch_id: batch,
      branch_id: branchId,
      medicine_id: med,
      type: 'sale',
      quantity: -3,
      reference_type: 'sale',
      reference_id: newId(),
      user_id: null,
      reason: '',
      created_at: nowIso(),
    };
    const first = await push(devices[0]!, [change('stock_movement', movement)]);
    expect(first.body.accepted).toHaveLength(1);
    // the same movement again under a new mutation id (a till that re-sent it), and from the other till
    const again = await push(devices[0]!, [change('stock_movement', movement)]);
    const other = await push(devices[1]!, [change('stock_movement', movement)]);
    expect([again.body.accepted.length, other.body.accepted.length]).toEqual([1, 1]);
    expect(await batchOnHand(central, batch)).toBe(7);
    expect(await sumOfMovements(central, batch)).toBe(7);
    expect(
      await central.query(
        "SELECT count(*) AS n FROM change_log WHERE entity = 'stock_movement' AND entity_id = ?",
        movement.id,
      ),
    ).toEqual([{ n: 1 }]);
  });

  it('never takes qty_on_hand from a batch payload: a new batch starts at 0, its movements bring the stock', async () => {
    const med = await makeMedicineId(central, { price: 5 });
    const at = nowIso();
    const batch = {
      id: newId(),
      medicine_id: med,
      branch_id: branchId,
      batch_number: 'SYNC-1',
      expiry_date: '2099-01-01',
      qty_received: 5,
      qty_on_hand: 500,
      unit_cost: 100,
      supplier_id: null,
      regulator_status: 'active',
      received_at: at,
      received_by: null,
      created_at: at,
      updated_at: at,
    };
    const movement = {
      id: newId(),
      batch_id: batch.id,
      branch_id: branchId,
      medicine_id: med,
      type: 'purchase',
      quantity: 5,
      reference_type: 'test',
      reference_id: 'x',
      user_id: null,
      reason: '',
      created_at: at,
    };
    const res = await push(devices[0]!, [change('batch', batch), change('stock_movement', movement)]);
    expect(res.body.rejected).toEqual([]);
    expect(await batchOnHand(central, batch.id)).toBe(5);
    await push(devices[0]!, [change('batch', { ...batch, qty_on_hand: 0, unit_cost: 120 })]);
    expect(await batchOnHand(central, batch.id)).toBe(5);
  });
});

describe('customer balance', () => {
  it('is the sum of the ledger rows from two devices, never a pushed current_balance', async () => {
    const at = nowIso();
    const [adminUser] = await central.query<{ id: string }>("SELECT id FROM users WHERE role = 'admin'");
    if (!adminUser) throw new Error('no admin user');
    const customer = {
      id: newId(),
      name: 'Credit Customer',
      phone: '',
      national_id: '',
      notes: '',
      credit_limit: 100_000,
      is_credit_allowed: 1,
      // Credit terms travel with who granted them: central takes a raise only in the name of a manager or admin.
      credit_terms_by: adminUser.id,
      current_balance: 0,
      created_at: at,
      updated_at: at,
    };
    const sale = await saleTemplate(central, await central.adminToken());
    const takenInSession = async () => {
      const [open] = await central.query<{ id: string }>(
        "SELECT id FROM cash_sessions WHERE user_id = ? AND status = 'open'",
        adminUser.id,
      );
      return { session_id: open?.id, tender: 'cash' };
    };
    const sales = [3000, 2000].map((credit) => sale({ customerId: customer.id, credit }));
    const ledger = (
      amount: number,
      type: string,
      balanceAfter: number,
      saleRow?: Record<string, unknown>,
    ) => ({
      id: newId(),
      customer_id: customer.id,
      branch_id: branchId,
      transaction_type: type,
      amount,
      balance_after: balanceAfter,
      reference_type: saleRow ? 'sale' : null,
      reference_id: saleRow?.id ?? null,
      notes: '',
      created_by: null,
      created_at: nowIso(),
    });
    // Both tills charged the customer offline, each from balance 0, and pushed their customer row with it; a
    // sale's ledger row travels before the sale.
    const a = [
      // The admin set those terms at the first till: their sign-in there travels before the customer.
      change('device_sign_in', pushedCreditSignIn(customer, devices[0]!.id, branchId)),
      change('customer', customer),
      change('customer', { ...customer, current_balance: 3000 }),
      change('customer_ledger', ledger(3000, 'SALE', 3000, sales[0])),
      change('sale', sales[0]!),
    ];
    const b = [
      change('customer', { ...customer, current_balance: 2000 }),
      change('customer_ledger', ledger(2000, 'SALE', 2000, sales[1])),
      change('sale', sales[1]!),
      change('customer', { ...customer, current_balance: 1500 }),
      // a payment on account is taken in a cash session of the branch (the admin's, opened for the sales)
      change('customer_ledger', { ...ledger(500, 'PAYMENT', 1500), ...(await takenInSession()) }),
    ];
    for (const [d, changes] of [
      [devices[0]!, a],
      [devices[1]!, b],
    ] as const)
      expect((await push(d, changes)).body.rejected).toEqual([]);
    const balance = async () =>
      (
        await central.query<{ b: number }>(
          'SELECT current_balance AS b FROM customers WHERE id = ?',
          customer.id,
        )
      )[0]?.b;
    expect(await balance()).toBe(3000 + 2000 - 500);
    // a later customer edit carrying a stale balance changes the details, not the balance
    await push(devices[0]!, [change('customer', { ...customer, name: 'Renamed', current_balance: 3000 })]);
    expect(await balance()).toBe(4500);
    // the ledger is organisation-wide: its changes reach every till
    const rows = await central.query(
      "SELECT DISTINCT branch_id FROM change_log WHERE entity = 'customer_ledger' AND entity_id IN (SELECT id FROM customer_ledger WHERE customer_id = ?)",
      customer.id,
    );
    expect(rows).toEqual([{ branch_id: null }]);
  });
});

describe('a sale pulled onto another till of the branch', () => {
  let tillA: TestServer;
  let tillB: TestServer;
  /** Till B's data folder, the test's own (the harness removes only folders it made). */
  let dirB: string | undefined;
  afterAll(async () => {
    await tillA?.close();
    await tillB?.close();
    if (dirB) fs.rmSync(dirB, { recursive: true, force: true });
  });

  it('keeps stock equal to its movements and can be looked up and returned there', async () => {
    // Tills by nature (SQLite in both runs): till B starts from a copy of till A's database file.
    tillA = await startTestServer({ mode: 'till' });
    const med = await makeMedicineId(tillA, { price: 10, name: 'Returnable' });
    const batch = await addStock(tillA, med, 10);
    // Every sale is made in an open cash session (28.5); till B's copy holds it, as it would have pulled it.
    const sellerA = await tillA.userWithRole('cashier');
    expect((await tillA.post('/api/v1/sessions/open', { opening_float: 0 }, sellerA.token)).status).toBe(201);
    // Till B: another till of the same branch holding the same data (a copy of till A's database).
    dirB = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-test-'));
    await tillA.sqlite.backup(path.join(dirB, 'pharmacy.db'));
    const since = await tillA.headRevision();
    tillB = await startTestServer({ mode: 'till', dataDir: dirB });
    await tillB.exec("DELETE FROM local_state WHERE key = 'device_id'");

    const tokenA = sellerA.token;
    const sold = await tillA.post<{ id: string; invoice_number: string; icv: number; lines: unknown[] }>(
      '/api/v1/sales',
      { items: [{ medicine_id: med, quantity: 4 }], payment_lines: [{ method: 'cash', amount: 100 }] },
      tokenA,
    );
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);

    // What central would send till B: till A's changes after the copy, in revision order, applied twice.
    const rows = await tillA.query<{
      revision: number;
      entity: string;
      entity_id: string;
      op: 'upsert';
      payload: string;
      branch_id: string | null;
    }>(
      "SELECT revision, entity, entity_id, op, payload, branch_id FROM change_log WHERE revision > ? AND entity IN ('stock_movement', 'sale') ORDER BY revision",
      since,
    );
    expect(rows.map((r) => r.entity)).toEqual(['stock_movement', 'sale']);
    const page = {
      epoch: 'test',
      changes: rows.map((r) => ({ ...r, payload: JSON.parse(r.payload) })),
      next_revision: rows.at(-1)!.revision,
      has_more: false,
    };
    const store = new TillStore(tillB.context);
    await store.applyPullPage(page);
    await store.applyPullPage(page);
    expect(await batchOnHand(tillB, batch)).toBe(6);
    expect(await sumOfMovements(tillB, batch)).toBe(6);
    expect(await tillB.count('sales')).toBe(1);
    expect(await tillB.count('sync_conflicts')).toBe(0);

    const tokenB = await tillB.login(ADMIN.email, ADMIN.password);
    const lookup = await tillB.get<{
      id: string;
      lines_returnable: Array<{ sale_line_id: string; returnable_quantity: number }>;
    }>(`/api/v1/returns/lookup/${encodeURIComponent(sold.body.invoice_number)}`, tokenB);
    expect(lookup.status, JSON.stringify(lookup.body)).toBe(200);
    expect(lookup.body.id).toBe(sold.body.id);
    const line = lookup.body.lines_returnable[0]!;
    expect(line.returnable_quantity).toBe(4);
    expect((await tillB.post('/api/v1/sessions/open', { opening_float: 0 }, tokenB)).status).toBe(201);
    const ret = await tillB.post<{ id: string }>(
      '/api/v1/returns',
      {
        sale_id: sold.body.id,
        lines: [{ sale_line_id: line.sale_line_id, quantity: 1, condition: 'resaleable' }],
      },
      tokenB,
    );
    expect(ret.status, JSON.stringify(ret.body)).toBe(201);
    expect(await batchOnHand(tillB, batch)).toBe(7);
    expect(await sumOfMovements(tillB, batch)).toBe(7);
  });

  it('re-bootstraps a till holding movements (append-only ledger) with sale lines, triggers kept', async () => {
    // A snapshot of till A's data as central would stream it (one branch: every row).
    const lines: string[] = [];
    for (const def of registeredEntities()) {
      const sql = def.snapshotWhere
        ? `SELECT * FROM "${def.table}" WHERE ${def.snapshotWhere}`
        : `SELECT * FROM "${def.table}"`;
      const rows = await tillA.query(sql, ...(def.snapshotWhere ? [await tillA.mainBranchId()] : []));
      for (const row of rows)
        lines.push(
          JSON.stringify({
            type: 'row',
            entity: def.entity,
            id: String(row[def.key]),
            payload: def.fromRow(row),
          }),
        );
    }
    const header = JSON.stringify({ type: 'header', revision: 1, epoch: 'test' });
    const end = JSON.stringify({ type: 'end', rows: lines.length });
    async function* stream() {
      yield* [header, ...lines, end];
    }
    await new TillStore(tillB.context).loadSnapshot(stream());
    for (const table of ['sales', 'sale_lines', 'sale_payments', 'stock_movements', 'batches'])
      expect(await tillB.count(table), table).toBe(await tillA.count(table));
    // A till is SQLite by design: its append-only triggers survive the snapshot swap.
    expect(
      await tillB.query(
        "SELECT count(*) AS n FROM sqlite_master WHERE type = 'trigger' AND name LIKE 'stock_movements_no_%'",
      ),
    ).toEqual([{ n: 2 }]);
    await expect(tillB.exec('DELETE FROM stock_movements')).rejects.toThrow(/append-only/);
  });
});
