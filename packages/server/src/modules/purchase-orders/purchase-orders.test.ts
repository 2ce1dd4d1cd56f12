import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { inDays, ledgerMismatches, makeMedicine, makeSupplier, receive } from '../../testing/factory';

let t: TestServer;
let admin: string;
let main: string;
let other: string;
let supplierId: string;
let medA: string;
let medB: string;
let managerOther: { token: string; branchId: string };

type Order = {
  id: string;
  status: string;
  branch_id: string;
  total_amount: string;
  items: Array<{
    id: string;
    medicine_id: string;
    ordered_qty: number;
    received_qty: number;
    outstanding_qty: number;
  }>;
  receipts: Array<{ batch_id: string; quantity: number; unit_cost: string }>;
};

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  main = await t.mainBranchId();
  other = await t.createBranch('POB');
  supplierId = (await makeSupplier(t, { lead_time_days: 10 })).id;
  medA = (await makeMedicine(t, { name: 'Amoxicillin 500', low_stock_threshold: 10 })).id;
  medB = (await makeMedicine(t, { name: 'Bisoprolol 5', low_stock_threshold: 5 })).id;
  managerOther = await t.userWithRole('branch_manager', other);
});
afterAll(() => t.close());

const orderBody = (overrides: Record<string, unknown> = {}) => ({
  supplier_id: supplierId,
  branch_id: main,
  expected_date: inDays(7),
  notes: 'weekly order',
  items: [
    { medicine_id: medA, ordered_qty: 100, agreed_unit_cost: 0.3 },
    { medicine_id: medB, ordered_qty: 20, agreed_unit_cost: 1.05 },
  ],
  ...overrides,
});

async function newOrder(overrides: Record<string, unknown> = {}, token = admin): Promise<string> {
  const res = await t.post<{ id: string }>('/api/v1/purchase-orders', orderBody(overrides), token);
  expect(res.status).toBe(201);
  return res.body.id;
}

async function sentOrder(overrides: Record<string, unknown> = {}): Promise<string> {
  const id = await newOrder(overrides);
  expect((await t.put(`/api/v1/purchase-orders/${id}/status`, { status: 'SENT' }, admin)).status).toBe(200);
  return id;
}

describe('POST /purchase-orders', () => {
  it('creates a DRAFT order with its items, audited and replicated, and returns id, status, created_at', async () => {
    const changes = await t.count('change_log');
    const res = await t.post<{ id: string; status: string; created_at: string }>(
      '/api/v1/purchase-orders',
      orderBody(),
      admin,
    );
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['created_at', 'id', 'status']);
    expect(res.body.status).toBe('DRAFT');
    const detail = await t.get<Order>(`/api/v1/purchase-orders/${res.body.id}`, admin);
    expect(detail.body).toMatchObject({ status: 'DRAFT', total_amount: '51.00', branch_id: main });
    expect(detail.body.items.map((i) => [i.ordered_qty, i.received_qty])).toEqual([
      [100, 0],
      [20, 0],
    ]);
    const audit = await t.query(
      "SELECT action FROM audit_log WHERE entity = 'purchase_order' AND entity_id = ?",
      res.body.id,
    );
    expect(audit).toEqual([{ action: 'purchase_order.create' }]);
    expect(await t.count('change_log')).toBe(changes + 3); // the order and its two items
  });

  it('refuses invalid bodies with 400 and writes nothing', async () => {
    const before = [await t.count('purchase_orders'), await t.count('purchase_order_items')];
    const bad: unknown[] = [
      orderBody({ items: [] }),
      orderBody({ items: [{ medicine_id: medA, ordered_qty: 0, agreed_unit_cost: 1 }] }),
      orderBody({ items: [{ medicine_id: medA, ordered_qty: 1.5, agreed_unit_cost: 1 }] }),
      orderBody({ items: [{ medicine_id: medA, ordered_qty: -3, agreed_unit_cost: 1 }] }),
      orderBody({ items: [{ medicine_id: medA, ordered_qty: 3, agreed_unit_cost: -1 }] }),
      orderBody({ items: [{ medicine_id: medA, ordered_qty: 3, agreed_unit_cost: 0.001 }] }),
      orderBody({ items: [{ medicine_id: medA, ordered_qty: 3, agreed_unit_cost: '1' }] }),
      orderBody({
        items: [
          { medicine_id: medA, ordered_qty: 3, agreed_unit_cost: 1 },
          { medicine_id: medA, ordered_qty: 4, agreed_unit_cost: 1 },
        ],
      }),
      orderBody({ supplier_id: undefined }),
      orderBody({ branch_id: "'; DROP TABLE purchase_orders; --" }),
      orderBody({ expected_date: '2026-02-30' }),
      orderBody({ notes: '💊'.repeat(2000) }),
      orderBody({ extra: 1 }),
    ];
    for (const body of bad) {
      const res = await t.post('/api/v1/purchase-orders', body, admin);
      expect(res.status, JSON.stringify(body).slice(0, 200)).toBe(400);
    }
    expect([await t.count('purchase_orders'), await t.count('purchase_order_items')]).toEqual(before);
  });

  it('404s on an unknown supplier, branch or medicine and 400s on an inactive supplier', async () => {
    const before = await t.count('purchase_orders');
    for (const body of [
      orderBody({ supplier_id: randomUUID() }),
      orderBody({ branch_id: randomUUID() }),
      orderBody({ items: [{ medicine_id: randomUUID(), ordered_qty: 1, agreed_unit_cost: 1 }] }),
    ]) {
      expect((await t.post('/api/v1/purchase-orders', body, admin)).status).toBe(404);
    }
    const gone = (await makeSupplier(t)).id;
    await t.delete(`/api/v1/suppliers/${gone}`, admin);
    const res = await t.post<{ errors: unknown[] }>(
      '/api/v1/purchase-orders',
      orderBody({ supplier_id: gone }),
      admin,
    );
    expect(res.status).toBe(400);
    expect(await t.count('purchase_orders')).toBe(before);
  });

  it('lets a branch manager order for their own branch only', async () => {
    expect(
      (await t.post('/api/v1/purchase-orders', orderBody({ branch_id: other }), managerOther.token)).status,
    ).toBe(201);
    const res = await t.post<{ code: string }>(
      '/api/v1/purchase-orders',
      orderBody({ branch_id: main }),
      managerOther.token,
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('OTHER_BRANCH');
    const cashier = await t.userWithRole('cashier');
    expect((await t.post('/api/v1/purchase-orders', orderBody(), cashier.token)).status).toBe(403);
    expect((await t.post('/api/v1/purchase-orders', orderBody(), undefined)).status).toBe(401);
  });
});

describe('GET /purchase-orders', () => {
  it('filters by status, supplier and branch, and scopes branch managers to their branch', async () => {
    const id = await newOrder({ branch_id: other });
    const all = await t.get<{ items: Array<{ id: string; branch_id: string }>; total: number }>(
      `/api/v1/purchase-orders?branch_id=${other}&status=DRAFT&supplier_id=${supplierId}`,
      admin,
    );
    expect(all.status).toBe(200);
    expect(all.body.items.every((o) => o.branch_id === other)).toBe(true);
    expect(all.body.items.map((o) => o.id)).toContain(id);
    const scoped = await t.get<{ items: Array<{ branch_id: string }> }>(
      `/api/v1/purchase-orders?branch_id=${main}`,
      managerOther.token,
    );
    expect(scoped.body.items.length).toBeGreaterThan(0);
    expect(scoped.body.items.every((o) => o.branch_id === other)).toBe(true);
    const mainOrder = await newOrder();
    expect((await t.get(`/api/v1/purchase-orders/${mainOrder}`, managerOther.token)).status).toBe(403);
    expect((await t.get(`/api/v1/purchase-orders/${randomUUID()}`, admin)).status).toBe(404);
    expect((await t.get('/api/v1/purchase-orders?status=OPEN', admin)).status).toBe(400);
    expect((await t.get('/api/v1/purchase-orders?page_size=1000', admin)).status).toBe(400);
  });
});

describe('GET /purchase-orders sorting', () => {
  it('sorts by supplier, total, expected date and status in either order; refuses unknown sorts', async () => {
    const branch = await t.createBranch('POS');
    const zed = (await makeSupplier(t, { name: 'Zed Pharma' })).id;
    const acme = (await makeSupplier(t, { name: 'acme medical' })).id;
    const cheap = await newOrder({
      branch_id: branch,
      supplier_id: zed,
      expected_date: inDays(3),
      items: [{ medicine_id: medA, ordered_qty: 1, agreed_unit_cost: 2 }],
    });
    const dear = await newOrder({
      branch_id: branch,
      supplier_id: acme,
      expected_date: null,
      items: [{ medicine_id: medA, ordered_qty: 10, agreed_unit_cost: 2 }],
    });
    const middle = await newOrder({
      branch_id: branch,
      supplier_id: zed,
      expected_date: inDays(9),
      items: [{ medicine_id: medB, ordered_qty: 3, agreed_unit_cost: 2 }],
    });
    expect((await t.put(`/api/v1/purchase-orders/${middle}/status`, { status: 'SENT' }, admin)).status).toBe(
      200,
    );
    const ids = async (query: string) =>
      (
        await t.get<{ items: Array<{ id: string }> }>(
          `/api/v1/purchase-orders?branch_id=${branch}&${query}`,
          admin,
        )
      ).body.items.map((o) => o.id);
    expect(await ids('')).toEqual([middle, dear, cheap]);
    expect(await ids('sort=created_at&order=asc')).toEqual([cheap, dear, middle]);
    expect(await ids('sort=total_amount&order=asc')).toEqual([cheap, middle, dear]);
    expect(await ids('sort=total_amount')).toEqual([dear, middle, cheap]);
    // case-insensitive by name; ties newest first
    expect(await ids('sort=supplier_name&order=asc')).toEqual([dear, middle, cheap]);
    // no expected date comes last either way
    expect(await ids('sort=expected_date&order=asc')).toEqual([cheap, middle, dear]);
    expect(await ids('sort=expected_date&order=desc')).toEqual([middle, cheap, dear]);
    expect(await ids('sort=status&order=asc')).toEqual([dear, cheap, middle]);
    for (const bad of ['sort=price', 'order=up', "sort=created_at'--", 'sort='])
      expect((await t.get(`/api/v1/purchase-orders?${bad}`, admin)).status, bad).toBe(400);
  });
});

describe('PUT /purchase-orders/{id}/status', () => {
  it('sends a draft, cancels a sent order and refuses every other move with 409 naming the state', async () => {
    const id = await newOrder();
    const sent = await t.put<Order>(`/api/v1/purchase-orders/${id}/status`, { status: 'SENT' }, admin);
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('SENT');
    const again = await t.put<{ detail: string; code: string }>(
      `/api/v1/purchase-orders/${id}/status`,
      { status: 'SENT' },
      admin,
    );
    expect(again.status).toBe(409);
    expect(again.body.detail).toContain('SENT');
    const cancel = await t.put<Order & { cancel_reason: string }>(
      `/api/v1/purchase-orders/${id}/status`,
      { status: 'CANCELLED', reason: 'supplier out of stock' },
      admin,
    );
    expect(cancel.body).toMatchObject({ status: 'CANCELLED', cancel_reason: 'supplier out of stock' });
    const late = await t.put<{ detail: string }>(
      `/api/v1/purchase-orders/${id}/status`,
      { status: 'SENT' },
      admin,
    );
    expect(late.status).toBe(409);
    expect(late.body.detail).toContain('CANCELLED');
    expect((await t.put(`/api/v1/purchase-orders/${id}/status`, { status: 'RECEIVED' }, admin)).status).toBe(
      400,
    );
    const draft = await newOrder();
    expect(
      (await t.put(`/api/v1/purchase-orders/${draft}/status`, { status: 'CANCELLED' }, admin)).status,
    ).toBe(200);
    expect(
      (await t.put(`/api/v1/purchase-orders/${draft}/status`, { status: 'SENT' }, managerOther.token)).status,
    ).toBe(403);
    const actions = (
      await t.query<{ action: string }>(
        'SELECT action FROM audit_log WHERE entity_id = ? ORDER BY created_at, id',
        id,
      )
    ).map((r) => r.action);
    expect(actions).toEqual(['purchase_order.create', 'purchase_order.send', 'purchase_order.cancel']);
  });
});

describe('POST /purchase-orders/{id}/receive', () => {
  it('receives partially, then fully, through the stock ledger', async () => {
    const id = await sentOrder();
    const order = (await t.get<Order>(`/api/v1/purchase-orders/${id}`, admin)).body;
    const itemA = order.items.find((i) => i.medicine_id === medA)!;
    const first = await t.post<Order>(
      `/api/v1/purchase-orders/${id}/receive`,
      {
        items: [
          { item_id: itemA.id, received_qty: 60, batch_number: 'AMX-1', expiry_date: inDays(300) },
          {
            medicine_id: medB,
            received_qty: 20,
            batch_number: 'BIS-1',
            expiry_date: inDays(400),
            unit_cost: 1,
          },
        ],
      },
      admin,
    );
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('PARTIALLY_RECEIVED');
    expect(first.body.items.find((i) => i.medicine_id === medA)).toMatchObject({
      received_qty: 60,
      outstanding_qty: 40,
    });
    expect(first.body.receipts.map((r) => [r.quantity, r.unit_cost]).sort()).toEqual([
      [20, '1.00'],
      [60, '0.30'],
    ]);
    const movements = await t.query(
      "SELECT type, quantity FROM stock_movements WHERE reference_type = 'purchase_order' AND reference_id = ?",
      id,
    );
    expect(movements).toHaveLength(2);

    const over = await t.post<{ code: string; detail: string }>(
      `/api/v1/purchase-orders/${id}/receive`,
      { items: [{ medicine_id: medA, received_qty: 41, batch_number: 'AMX-2', expiry_date: inDays(300) }] },
      admin,
    );
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('OVER_RECEIPT');
    expect(over.body.detail).toContain('100 ordered');

    const rest = await t.post<Order>(
      `/api/v1/purchase-orders/${id}/receive`,
      {
        items: [
          { medicine_id: medA, received_qty: 30, batch_number: 'AMX-2', expiry_date: inDays(300) },
          { medicine_id: medA, received_qty: 10, batch_number: 'AMX-1', expiry_date: inDays(300) },
        ],
      },
      admin,
    );
    expect(rest.status).toBe(200);
    expect(rest.body.status).toBe('RECEIVED');
    const [batch] = await t.query(
      "SELECT qty_on_hand, supplier_id FROM batches WHERE batch_number = 'AMX-1'",
    );
    expect(batch).toEqual({ qty_on_hand: 70, supplier_id: supplierId });
    const closed = await t.post<{ detail: string }>(
      `/api/v1/purchase-orders/${id}/receive`,
      {
        items: [{ medicine_id: medA, received_qty: 1, batch_number: 'AMX-3', expiry_date: inDays(300) }],
        allow_over_receipt: true,
      },
      admin,
    );
    expect(closed.status).toBe(409);
    expect(closed.body.detail).toContain('RECEIVED');
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('accepts extra units only with allow_over_receipt', async () => {
    const id = await sentOrder({ items: [{ medicine_id: medB, ordered_qty: 5, agreed_unit_cost: 1 }] });
    const res = await t.post<Order>(
      `/api/v1/purchase-orders/${id}/receive`,
      {
        items: [{ medicine_id: medB, received_qty: 6, batch_number: 'BIS-9', expiry_date: inDays(100) }],
        allow_over_receipt: true,
      },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('RECEIVED');
    expect(res.body.items[0]).toMatchObject({ received_qty: 6, outstanding_qty: 0 });
  });

  it('refuses drafts, lines not on the order, expired batches and other branches, writing nothing', async () => {
    const draft = await newOrder();
    const line = { medicine_id: medA, received_qty: 1, batch_number: 'X-1', expiry_date: inDays(30) };
    const before = [
      await t.count('batches'),
      await t.count('stock_movements'),
      await t.count('purchase_order_receipts'),
    ];
    expect((await t.post(`/api/v1/purchase-orders/${draft}/receive`, { items: [line] }, admin)).status).toBe(
      409,
    );
    const id = await sentOrder();
    const stranger = (await makeMedicine(t)).id;
    expect(
      (
        await t.post(
          `/api/v1/purchase-orders/${id}/receive`,
          { items: [{ ...line, medicine_id: stranger }] },
          admin,
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await t.post(
          `/api/v1/purchase-orders/${id}/receive`,
          { items: [{ ...line, item_id: randomUUID(), medicine_id: undefined }] },
          admin,
        )
      ).status,
    ).toBe(400);
    const expired = await t.post<{ code: string }>(
      `/api/v1/purchase-orders/${id}/receive`,
      { items: [{ ...line, expiry_date: inDays(-1) }] },
      admin,
    );
    expect(expired.status).toBe(400);
    expect(expired.body.code).toBe('EXPIRED_BATCH');
    expect(
      (
        await t.post(
          `/api/v1/purchase-orders/${id}/receive`,
          { items: [{ received_qty: 1, batch_number: 'X', expiry_date: inDays(30) }] },
          admin,
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await t.post(
          `/api/v1/purchase-orders/${id}/receive`,
          { items: [{ ...line, received_qty: 0 }] },
          admin,
        )
      ).status,
    ).toBe(400);
    expect(
      (await t.post(`/api/v1/purchase-orders/${id}/receive`, { items: [line] }, managerOther.token)).status,
    ).toBe(403);
    // a valid first line and a failing second line: nothing of the first stays
    const mixed = await t.post(
      `/api/v1/purchase-orders/${id}/receive`,
      { items: [line, { ...line, expiry_date: inDays(60) }] },
      admin,
    );
    expect(mixed.status).toBe(409);
    expect([
      await t.count('batches'),
      await t.count('stock_movements'),
      await t.count('purchase_order_receipts'),
    ]).toEqual(before);
    expect(
      (await t.post(`/api/v1/purchase-orders/${randomUUID()}/receive`, { items: [line] }, admin)).status,
    ).toBe(404);
  });
});

describe('GET /purchase-orders/suggested', () => {
  it('suggests medicines at or below threshold with the last supplier, lead time and open orders', async () => {
    const branch = await t.createBranch('SUG');
    const med = (await makeMedicine(t, { name: 'Zinc 20', low_stock_threshold: 8 })).id;
    const batch = await receive(t, med, supplierId, { branch_id: branch, qty_received: 3, unit_cost: 0.5 });
    // 20 units sold in the window: 20 / 30 days x 10 days lead time = 6.67 -> 7
    await t.exec(
      `INSERT INTO stock_movements (id, batch_id, branch_id, medicine_id, type, quantity, reason, created_at)
       VALUES (?, ?, ?, ?, 'sale', -20, '', ?)`,
      randomUUID(),
      batch.id,
      branch,
      med,
      new Date().toISOString(),
    );
    const res = await t.get<{ items: Array<Record<string, unknown>> }>(
      `/api/v1/purchase-orders/suggested?branch_id=${branch}`,
      admin,
    );
    expect(res.status).toBe(200);
    const row = res.body.items.find((i) => i.medicine_id === med);
    expect(row).toMatchObject({
      stock_quantity: 3,
      low_stock_threshold: 8,
      supplier_id: supplierId,
      lead_time_days: 10,
      last_unit_cost: '0.50',
      on_order_qty: 0,
      suggested_qty: 7 + 8 - 3,
      avg_daily_sales: 0.67,
    });
    await newOrder({
      branch_id: branch,
      items: [{ medicine_id: med, ordered_qty: 5, agreed_unit_cost: 0.5 }],
    });
    const after = await t.get<{ items: Array<Record<string, unknown>> }>(
      `/api/v1/purchase-orders/suggested?branch_id=${branch}`,
      admin,
    );
    expect(after.body.items.find((i) => i.medicine_id === med)).toMatchObject({
      on_order_qty: 5,
      suggested_qty: 7,
    });
    // a branch manager of another branch gets their own branch
    const mine = await t.get<{ branch_id: string }>(
      `/api/v1/purchase-orders/suggested?branch_id=${branch}`,
      managerOther.token,
    );
    expect(mine.body.branch_id).toBe(other);
    expect((await t.get('/api/v1/purchase-orders/suggested?days=0', admin)).status).toBe(400);
    expect((await t.get(`/api/v1/purchase-orders/suggested?branch_id=${randomUUID()}`, admin)).status).toBe(
      404,
    );
  });
});
