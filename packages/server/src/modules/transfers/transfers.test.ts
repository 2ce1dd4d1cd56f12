import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import {
  inDays,
  ledgerMismatches,
  makeMedicine,
  makeSupplier,
  receive,
  setExpiry,
  setStatus,
} from '../../testing/factory';

let t: TestServer;
let admin: string;
let main: string;
let north: string;
let south: string;
let supplierId: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  main = await t.mainBranchId();
  north = await t.createBranch('NORTH');
  south = await t.createBranch('SOUTH');
  supplierId = (await makeSupplier(t)).id;
});
afterAll(() => t.close());

type Transfer = {
  id: string;
  from_branch_id: string;
  to_branch_id: string;
  items: Array<{
    from_batch_id: string;
    to_batch_id: string;
    batch_number: string;
    expiry_date: string;
    quantity: number;
  }>;
};
const onHand = async (id: string) =>
  (await t.query<{ qty_on_hand: number }>('SELECT qty_on_hand FROM batches WHERE id = ?', id))[0]
    ?.qty_on_hand;

describe('POST /transfers', () => {
  it('moves stock FEFO by medicine, skipping expired and blocked batches, keeping number and expiry', async () => {
    const m = await makeMedicine(t, { name: 'Transfer Med' });
    const late = await receive(t, m.id, supplierId, {
      qty_received: 10,
      expiry_date: inDays(300),
      batch_number: 'LATE',
    });
    const early = await receive(t, m.id, supplierId, {
      qty_received: 4,
      expiry_date: inDays(60),
      batch_number: 'EARLY',
    });
    const expired = await receive(t, m.id, supplierId, {
      qty_received: 9,
      expiry_date: inDays(20),
      batch_number: 'OLD',
    });
    const blocked = await receive(t, m.id, supplierId, {
      qty_received: 9,
      expiry_date: inDays(30),
      batch_number: 'Q',
    });
    await setExpiry(t, expired.id, inDays(-2));
    await setStatus(t, blocked.id, 'quarantined');
    const res = await t.post<Transfer>(
      '/api/v1/transfers',
      { to_branch_id: north, items: [{ medicine_id: m.id, quantity: 6 }] },
      admin,
    );
    expect(res.status).toBe(201);
    expect(res.body.from_branch_id).toBe(main);
    expect(res.body.items.map((i) => [i.batch_number, i.quantity])).toEqual([
      ['EARLY', 4],
      ['LATE', 2],
    ]);
    expect(await onHand(early.id)).toBe(0);
    expect(await onHand(late.id)).toBe(8);
    const dest = res.body.items[0]!;
    const destBatch = await t.get(`/api/v1/purchases/${dest.to_batch_id}`, admin);
    expect(destBatch.body).toMatchObject({
      branch_id: north,
      batch_number: 'EARLY',
      expiry_date: inDays(60),
      qty_on_hand: 4,
      unit_cost: '1.25',
    });
    // again: the destination batch with the same number and expiry is reused
    const again = await t.post<Transfer>(
      '/api/v1/transfers',
      { to_branch_id: north, items: [{ batch_id: late.id, quantity: 3 }] },
      admin,
    );
    expect(again.status).toBe(201);
    expect(again.body.items[0]!.to_batch_id).toBe(res.body.items[1]!.to_batch_id);
    expect(await onHand(res.body.items[1]!.to_batch_id)).toBe(5);
    const types = await t.query(
      "SELECT type, sum(quantity) AS q FROM stock_movements WHERE reference_type = 'transfer' GROUP BY type ORDER BY type",
    );
    expect(types).toEqual([
      { type: 'transfer_in', q: 9 },
      { type: 'transfer_out', q: -9 },
    ]);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('refuses short stock with INSUFFICIENT_STOCK naming the medicine, and writes nothing', async () => {
    const m = await makeMedicine(t, { name: 'Scarce Med' });
    await receive(t, m.id, supplierId, { qty_received: 2 });
    const before = [await t.count('transfers'), await t.count('stock_movements'), await t.count('batches')];
    const res = await t.post(
      '/api/v1/transfers',
      { to_branch_id: north, items: [{ medicine_id: m.id, quantity: 5 }] },
      admin,
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('INSUFFICIENT_STOCK');
    expect(res.body.detail).toBe('Not enough Scarce Med in stock: wanted 5, available 2.');
    expect([await t.count('transfers'), await t.count('stock_movements'), await t.count('batches')]).toEqual(
      before,
    );
  });

  it('answers 400/403/404 for bad bodies, same branch, other branches and unknown ids', async () => {
    const m = await makeMedicine(t);
    const b = await receive(t, m.id, supplierId, { qty_received: 5 });
    const foreign = await receive(t, m.id, supplierId, { qty_received: 5, branch_id: south });
    const manager = await t.userWithRole('branch_manager');
    const unknown = '0192f2c4-0000-7000-8000-000000000000';
    const before = [await t.count('transfers'), await t.count('stock_movements')];
    const cases: Array<[Record<string, unknown>, number, string?]> = [
      [{}, 400],
      [{ to_branch_id: north, items: [] }, 400],
      [{ to_branch_id: north, items: [{ quantity: 1 }] }, 400],
      [{ to_branch_id: north, items: [{ medicine_id: m.id, batch_id: b.id, quantity: 1 }] }, 400],
      [{ to_branch_id: north, items: [{ medicine_id: m.id, quantity: 0 }] }, 400],
      [{ to_branch_id: north, items: [{ medicine_id: m.id, quantity: 1.5 }] }, 400],
      [{ to_branch_id: main, items: [{ medicine_id: m.id, quantity: 1 }] }, 400],
      [{ to_branch_id: unknown, items: [{ medicine_id: m.id, quantity: 1 }] }, 404],
      [{ to_branch_id: north, items: [{ medicine_id: unknown, quantity: 1 }] }, 404],
      [{ to_branch_id: north, items: [{ batch_id: unknown, quantity: 1 }] }, 404],
      [{ to_branch_id: north, items: [{ batch_id: foreign.id, quantity: 1 }] }, 400],
      [
        { from_branch_id: south, to_branch_id: north, items: [{ batch_id: foreign.id, quantity: 1 }] },
        403,
        manager.token,
      ],
    ];
    for (const [body, status, token] of cases) {
      const res = await t.post('/api/v1/transfers', body, token ?? admin);
      expect(res.status, JSON.stringify(body)).toBe(status);
    }
    expect([await t.count('transfers'), await t.count('stock_movements')]).toEqual(before);
    // the branch manager moves stock from their own branch
    const ok = await t.post(
      '/api/v1/transfers',
      { to_branch_id: south, items: [{ batch_id: b.id, quantity: 1 }] },
      manager.token,
    );
    expect(ok.status).toBe(201);
    const pharmacist = await t.userWithRole('pharmacist');
    expect(
      (
        await t.post(
          '/api/v1/transfers',
          { to_branch_id: south, items: [{ batch_id: b.id, quantity: 1 }] },
          pharmacist.token,
        )
      ).status,
    ).toBe(403);
  });

  it('refuses a destination batch of the same number with another expiry (409)', async () => {
    const m = await makeMedicine(t);
    const src = await receive(t, m.id, supplierId, { batch_number: 'SAME', expiry_date: inDays(100) });
    await receive(t, m.id, supplierId, { batch_number: 'SAME', expiry_date: inDays(200), branch_id: south });
    const res = await t.post(
      '/api/v1/transfers',
      { to_branch_id: south, items: [{ batch_id: src.id, quantity: 1 }] },
      admin,
    );
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('BATCH_EXPIRY_MISMATCH');
  });
});

describe('POST /transfers/batch and GET /transfers', () => {
  it('applies several transfers all or nothing', async () => {
    const m = await makeMedicine(t);
    const b = await receive(t, m.id, supplierId, { qty_received: 10 });
    const before = [await t.count('transfers'), await t.count('stock_movements')];
    const bad = await t.post(
      '/api/v1/transfers/batch',
      {
        transfers: [
          { to_branch_id: north, items: [{ batch_id: b.id, quantity: 6 }] },
          { to_branch_id: south, items: [{ batch_id: b.id, quantity: 6 }] },
        ],
      },
      admin,
    );
    expect(bad.status).toBe(409);
    expect([await t.count('transfers'), await t.count('stock_movements')]).toEqual(before);
    expect(await onHand(b.id)).toBe(10);
    const good = await t.post<{ items: Transfer[] }>(
      '/api/v1/transfers/batch',
      {
        transfers: [
          { to_branch_id: north, items: [{ batch_id: b.id, quantity: 6 }] },
          { to_branch_id: south, items: [{ batch_id: b.id, quantity: 4 }] },
        ],
      },
      admin,
    );
    expect(good.status).toBe(201);
    expect(good.body.items).toHaveLength(2);
    expect(await onHand(b.id)).toBe(0);
    expect((await t.post('/api/v1/transfers/batch', { transfers: [] }, admin)).status).toBe(400);
  });

  it('lists transfers scoped to the caller branch', async () => {
    const cashier = await t.userWithRole('cashier', south);
    const list = await t.get<{ items: Transfer[]; total: number }>(
      '/api/v1/transfers?page_size=200',
      cashier.token,
    );
    expect(list.status).toBe(200);
    expect(list.body.total).toBeGreaterThan(0);
    expect(list.body.items.every((x) => x.from_branch_id === south || x.to_branch_id === south)).toBe(true);
    const incoming = await t.get<{ items: Transfer[] }>(
      `/api/v1/transfers?branch_id=${north}&direction=in`,
      admin,
    );
    expect(incoming.body.items.every((x) => x.to_branch_id === north)).toBe(true);
    expect((await t.get('/api/v1/transfers?direction=sideways', admin)).status).toBe(400);
  });
});
