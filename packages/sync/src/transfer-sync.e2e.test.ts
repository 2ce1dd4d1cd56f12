import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bootstrapped,
  freePort,
  newCentral,
  newTill,
  registerTill,
  type ServerProcess,
  tmpDir,
} from './testing/procs';
import { eventually } from './testing/eventually';

/**
 * A transfer between two branches through head office, as real processes: till A (branch Main) sends stock to
 * branch North, till B (North) sees it in transit through central, receives it short, and till A sees it
 * received; a second transfer is cancelled at A and B sees it cancelled. Stock is checked in every database.
 */
let central: ServerProcess;
let tillA: ServerProcess;
let tillB: ServerProcess;
let tillC: ServerProcess | undefined;
let main: string;
let north: string;

/** One row of a process's database: a till's SQLite file, or central's database on either engine. */
const row = <T>(p: ServerProcess, query: string, ...params: unknown[]): Promise<T | undefined> =>
  p.queryOne<T & Record<string, unknown>>(query, ...params);
const units = async (p: ServerProcess, medicineId: string, branchId: string) =>
  (
    await row<{ q: number }>(
      p,
      'SELECT coalesce(sum(qty_on_hand), 0) AS q FROM batches WHERE medicine_id = ? AND branch_id = ?',
      medicineId,
      branchId,
    )
  )?.q;
const statusOf = async (p: ServerProcess, id: string) =>
  (await row<{ status: string }>(p, 'SELECT status FROM transfers WHERE id = ?', id))?.status;
const offLedger = async (p: ServerProcess) =>
  (
    await row<{ n: number }>(
      p,
      `SELECT count(*) AS n FROM (SELECT b.id FROM batches b LEFT JOIN stock_movements m ON m.batch_id = b.id
       GROUP BY b.id, b.qty_on_hand HAVING b.qty_on_hand <> coalesce(sum(m.quantity), 0)) AS off_ledger`,
    )
  )?.n;

beforeAll(async () => {
  central = await newCentral(await freePort());
  await central.start();
  main = (await central.request<{ items: Array<{ id: string }> }>('GET', '/branches')).body.items[0]!.id;
  const b = await central.request<{ id: string }>('POST', '/branches', { name: 'North', code: 'NORTH' });
  north = b.body.id;
  const dirA = tmpDir('transferA');
  const dirB = tmpDir('transferB');
  await Promise.all([
    registerTill(central.url, dirA, 'Till Main', main),
    registerTill(central.url, dirB, 'Till North', north),
  ]);
  tillA = newTill('tillA', central.url, dirA);
  tillB = newTill('tillB', central.url, dirB);
  await Promise.all([tillA.start(), tillB.start()]);
  for (const t of [tillA, tillB]) await bootstrapped(t);
}, 120_000);

afterAll(async () => {
  for (const p of [tillA, tillB, tillC, central]) await p?.dispose();
});

describe('transfers between the tills of two branches', () => {
  it('sent at A, in transit through central, received short at B, seen received at A; cancelled at A, seen at B', async () => {
    const supplier = await central.request<{ id: string }>('POST', '/suppliers', {
      name: 'Transit Supplies',
    });
    const med = await central.request<{ id: string }>('POST', '/medicines', {
      name: 'Transitol 5',
      selling_price: 3,
    });
    expect(med.status, JSON.stringify(med.body)).toBe(201);
    const medicineId = med.body.id;
    await eventually('till A has the medicine', async () =>
      row(tillA, 'SELECT id FROM medicines WHERE id = ?', medicineId),
    );
    const received = await tillA.request<{ id: string }>('POST', '/purchases', {
      medicine_id: medicineId,
      supplier_id: supplier.body.id,
      batch_number: 'TR-1',
      expiry_date: '2099-12-31',
      qty_received: 30,
      unit_cost: 2,
    });
    expect(received.status, JSON.stringify(received.body)).toBe(201);

    // Sent at A: out of Main at once, in transit.
    const sent = await tillA.request<{ id: string; status: string; items: Array<{ id: string }> }>(
      'POST',
      '/transfers',
      {
        from_branch_id: main,
        to_branch_id: north,
        items: [{ medicine_id: medicineId, quantity: 12 }],
      },
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    expect(sent.body.status).toBe('in_transit');
    // A till of Main cannot receive it (only North's tills can).
    expect((await tillA.request('POST', `/transfers/${sent.body.id}/receive`, {})).status).toBe(403);
    // B sees it in transit, through central.
    await eventually(
      'till B sees the transfer in transit',
      async () => (await statusOf(tillB, sent.body.id)) === 'in_transit',
    );
    const atB = await tillB.request<{ items: Array<{ id: string }> }>(
      'GET',
      `/transfers?branch_id=${north}&direction=in&status=in_transit`,
    );
    expect(atB.body.items.map((t) => t.id)).toEqual([sent.body.id]);
    expect(await units(tillB, medicineId, north)).toBe(0);
    // A till of North cannot cancel it.
    expect((await tillB.request('POST', `/transfers/${sent.body.id}/cancel`, {})).status).toBe(403);

    // Received short at B: 10 of 12.
    const got = await tillB.request<{ status: string }>('POST', `/transfers/${sent.body.id}/receive`, {
      lines: [{ item_id: sent.body.items[0]!.id, received_quantity: 10, discrepancy_reason: 'short' }],
    });
    expect(got.status, JSON.stringify(got.body)).toBe(200);
    expect(await units(tillB, medicineId, north)).toBe(10);
    await eventually(
      'central has the receipt',
      async () => (await statusOf(central, sent.body.id)) === 'received',
    );
    await eventually(
      'till A sees it received',
      async () => (await statusOf(tillA, sent.body.id)) === 'received',
    );
    expect(await units(central, medicineId, main)).toBe(18);
    await eventually('central has North stock', async () => (await units(central, medicineId, north)) === 10);
    const seenAtA = await tillA.request<{
      items: Array<{ received_quantity: number; discrepancy_reason: string }>;
    }>('GET', `/transfers/${sent.body.id}`);
    expect(seenAtA.body.items[0]).toMatchObject({ received_quantity: 10, discrepancy_reason: 'short' });

    // A second transfer, cancelled at A: the stock is back at Main everywhere, and B sees it cancelled.
    const second = await tillA.request<{ id: string }>('POST', '/transfers', {
      from_branch_id: main,
      to_branch_id: north,
      items: [{ medicine_id: medicineId, quantity: 5 }],
    });
    expect(second.status).toBe(201);
    await eventually(
      'till B sees the second in transit',
      async () => (await statusOf(tillB, second.body.id)) === 'in_transit',
    );
    expect(
      (await tillA.request('POST', `/transfers/${second.body.id}/cancel`, { reason: 'not needed' })).status,
    ).toBe(200);
    await eventually(
      'till B sees it cancelled',
      async () => (await statusOf(tillB, second.body.id)) === 'cancelled',
    );
    await eventually(
      'central has the stock back',
      async () => (await units(central, medicineId, main)) === 18,
    );
    expect(await units(tillA, medicineId, main)).toBe(18);
    // A receipt of a cancelled transfer is refused at B's till (it holds the cancellation).
    expect((await tillB.request('POST', `/transfers/${second.body.id}/receive`, {})).status).toBe(409);
    for (const p of [central, tillA, tillB]) expect(await offLedger(p), p.name).toBe(0);
  }, 120_000);

  it('a cancellation at A and a receipt at B while central is down: central takes one, and its stock moves once', async () => {
    const medicineId = (
      (await row<{ id: string }>(central, "SELECT id FROM medicines WHERE name = 'Transitol 5'")) as {
        id: string;
      }
    ).id;
    const third = await tillA.request<{ id: string }>('POST', '/transfers', {
      from_branch_id: main,
      to_branch_id: north,
      items: [{ medicine_id: medicineId, quantity: 4 }],
    });
    expect(third.status).toBe(201);
    await eventually(
      'till B sees the third in transit',
      async () => (await statusOf(tillB, third.body.id)) === 'in_transit',
    );
    await eventually('central has Main at 14', async () => (await units(central, medicineId, main)) === 14);
    await central.kill('SIGKILL');
    expect(
      (await tillA.request('POST', `/transfers/${third.body.id}/cancel`, { reason: 'offline' })).status,
    ).toBe(200);
    expect((await tillB.request('POST', `/transfers/${third.body.id}/receive`, {})).status).toBe(200);
    await central.start();
    await eventually('central decided', async () => {
      const s = await statusOf(central, third.body.id);
      const conflicts = (
        await row<{ n: number }>(
          central,
          "SELECT count(*) AS n FROM sync_conflicts WHERE entity_id LIKE ? OR code = 'TRANSFER_NOT_IN_TRANSIT'",
          `%${third.body.id}%`,
        )
      )?.n;
      return s !== 'in_transit' && (conflicts ?? 0) > 0 && s;
    });
    const decided = await statusOf(central, third.body.id);
    // The stock of the accepted outcome only: never both the units back at Main and the units in at North.
    if (decided === 'cancelled') {
      expect(await units(central, medicineId, main)).toBe(18);
      expect(await units(central, medicineId, north)).toBe(10);
    } else {
      expect(decided).toBe('received');
      expect(await units(central, medicineId, main)).toBe(14);
      expect(await units(central, medicineId, north)).toBe(14);
    }
    expect(await offLedger(central)).toBe(0);
  }, 120_000);

  it('a new till of the destination bootstraps the transfers towards it, their lines and receipts', async () => {
    const dir = tmpDir('transferC');
    await registerTill(central.url, dir, 'Till North 2', north);
    tillC = newTill('tillC', central.url, dir);
    await tillC.start();
    const c = tillC;
    await bootstrapped(c);
    const count = async (p: ServerProcess, sql: string) => (await row<{ n: number }>(p, sql, north))?.n;
    const queries = [
      'SELECT count(*) AS n FROM transfers WHERE to_branch_id = ?',
      'SELECT count(*) AS n FROM transfer_items i JOIN transfers t ON t.id = i.transfer_id WHERE t.to_branch_id = ?',
      'SELECT count(*) AS n FROM transfer_receipts WHERE branch_id = ?',
      'SELECT count(*) AS n FROM transfer_receipt_lines l JOIN transfer_receipts r ON r.id = l.receipt_id WHERE r.branch_id = ?',
    ];
    for (const q of queries) expect(await count(c, q), q).toBe(await count(central, q));
    expect(await count(c, queries[0]!)).toBe(3);
    const listed = await c.request<{
      items: Array<{ status: string; items: Array<{ received_quantity: number | null }> }>;
    }>('GET', `/transfers?branch_id=${north}&direction=in`);
    expect(listed.body.items.map((t) => t.status).sort()).toEqual(
      (
        await central.request<{ items: Array<{ status: string }> }>(
          'GET',
          `/transfers?branch_id=${north}&direction=in`,
        )
      ).body.items
        .map((t) => t.status)
        .sort(),
    );
    expect(listed.body.items.some((t) => t.items.some((i) => i.received_quantity === 10))).toBe(true);
  }, 120_000);
});
