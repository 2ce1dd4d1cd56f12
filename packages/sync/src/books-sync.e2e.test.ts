import Database from 'better-sqlite3';
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
 * Books (issue 28) and 28.4 as real processes: a till sells; one sale is rejected at head office (it names a
 * coupon head office no longer holds); the till's Books name the sale missing at head office, both sides list
 * the rejection in words; once the coupon exists again a retry at the till lands it and the books agree.
 */
let central: ServerProcess;
let till: ServerProcess;
let main: string;

type Kind = { kind: string; missing_at_central: string[]; missing_at_till: string[]; agree: boolean };
type Report = {
  pending: number;
  comparisons: Array<{ agree: boolean; reported: boolean; device_id: string; kinds: Kind[] }>;
  unavailable: string | null;
};
type Item = { id: string; title: string; reason: string; actions: string[]; status: string; entity: string };

/** A write to central's database behind its back (a record it lost), on either engine. */
async function centralWrite(text: string, ...params: unknown[]): Promise<void> {
  if (process.env.PHARMACY_TEST_DB === 'postgres') {
    await central.query(text, ...params);
    return;
  }
  const db = new Database(central.dbFile);
  db.pragma('busy_timeout = 5000');
  try {
    db.prepare(text).run(...params);
  } finally {
    db.close();
  }
}

const drained = (p: ServerProcess) =>
  eventually(`${p.name} pushed everything`, async () => {
    const s = (await p.request<{ pending: number }>('GET', '/sync/status')).body;
    return s.pending === 0;
  });

beforeAll(async () => {
  central = await newCentral(await freePort());
  await central.start();
  main = (await central.request<{ items: Array<{ id: string }> }>('GET', '/branches')).body.items[0]!.id;
  const dir = tmpDir('books');
  await registerTill(central.url, dir, 'Books counter', main);
  till = newTill('till', central.url, dir);
  await till.start();
  await bootstrapped(till);
}, 90_000);

afterAll(async () => {
  for (const p of [till, central]) await p?.dispose();
});

describe('books: a till and head office compare their day', () => {
  it('books: a sale rejected at head office is named on both sides; after the fix and a retry the books agree', async () => {
    const supplier = await central.request<{ id: string }>('POST', '/suppliers', { name: 'Books Supplies' });
    const med = await central.request<{ id: string }>('POST', '/medicines', {
      name: 'Bookol 5',
      selling_price: 5,
    });
    const coupon = await central.request<{ id: string }>('POST', '/coupons', {
      code: 'WELCOME10',
      discount_type: 'fixed',
      discount_value: 1,
    });
    expect(coupon.status, JSON.stringify(coupon.body)).toBe(201);
    await eventually('till has the medicine and the coupon', async () =>
      (await till.queryOne('SELECT id FROM coupons WHERE id = ?', coupon.body.id))
        ? till.queryOne('SELECT id FROM medicines WHERE id = ?', med.body.id)
        : undefined,
    );
    const received = await till.request('POST', '/purchases', {
      medicine_id: med.body.id,
      supplier_id: supplier.body.id,
      batch_number: 'BOOKS-1',
      expiry_date: '2099-12-31',
      qty_received: 20,
      unit_cost: 2,
    });
    expect(received.status, JSON.stringify(received.body)).toBe(201);
    expect((await till.request('POST', '/sessions/open', { opening_float: 0 })).status).toBe(201);
    const sell = (body: Record<string, unknown>) =>
      till.request<{ id: string; invoice_number: string }>('POST', '/sales', {
        items: [{ medicine_id: med.body.id, quantity: 1 }],
        payment_lines: [{ method: 'cash', amount: 100 }],
        ...body,
      });
    const plain = await sell({});
    expect(plain.status, JSON.stringify(plain.body)).toBe(201);
    await drained(till);
    // Head office loses the coupon (a record the till still holds): the next sale with it cannot land there.
    const saved = await central.queryOne<Record<string, unknown>>(
      'SELECT * FROM coupons WHERE id = ?',
      coupon.body.id,
    );
    await centralWrite('DELETE FROM coupons WHERE id = ?', coupon.body.id);
    const withCoupon = await sell({ coupon_code: 'WELCOME10' });
    expect(withCoupon.status, JSON.stringify(withCoupon.body)).toBe(201);
    await drained(till);

    // Without anyone opening a screen, the till's heartbeat has told head office: its Books and dashboard warn.
    const atCentral = await eventually("head office compared the till's books", async () => {
      const r = await central.request<Report>('GET', `/books?branch_id=${main}`);
      return r.body.comparisons[0]?.reported && !r.body.comparisons[0].agree ? r.body : undefined;
    });
    const atCentralSales = atCentral.comparisons[0]!.kinds.find((k) => k.kind === 'sales')!;
    expect(atCentralSales.missing_at_central).toEqual([withCoupon.body.invoice_number]);
    const warnings = await central.request<{ items: unknown[] }>('GET', '/books/warnings');
    expect(warnings.body.items).toHaveLength(1);
    // The till's Books name the sale missing at head office.
    const differs = await till.request<Report>('GET', '/books');
    expect(differs.status, JSON.stringify(differs.body)).toBe(200);
    const sales = differs.body.comparisons[0]!.kinds.find((k) => k.kind === 'sales')!;
    expect(sales.missing_at_central).toEqual([withCoupon.body.invoice_number]);
    expect(sales.missing_at_till).toEqual([]);
    expect(differs.body.comparisons[0]!.agree).toBe(false);
    // Nothing waits to be sent: the difference is a rejection, not a delay.
    expect(differs.body.pending).toBe(0);

    // Both sides list the rejection in words.
    const wording = `rejected: the coupon WELCOME10 is not known at head office`;
    const saleItem = async (p: ServerProcess) =>
      (await p.request<{ items: Item[] }>('GET', '/sync/conflicts?status=open')).body.items.find(
        (i) => i.entity === 'sale',
      );
    const onTill = await saleItem(till);
    const onCentral = await saleItem(central);
    for (const item of [onTill, onCentral]) {
      expect(item?.title).toMatch(new RegExp(`^Sale ${withCoupon.body.invoice_number}, \\d+\\.\\d{2}$`));
      expect(item?.reason).toBe(wording);
      expect(item?.actions).toEqual(['retry', 'dismiss']);
    }
    expect(onTill!.id).toBe(onCentral!.id);

    // The fix: head office holds the coupon again; the manager retries at the till.
    const columns = Object.keys(saved!);
    await centralWrite(
      `INSERT INTO coupons (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      ...columns.map((c) => saved![c]),
    );
    const retried = await till.request('POST', `/sync/conflicts/${onTill!.id}/resolve`, {
      resolution: 'retry',
    });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    await eventually('head office has the sale', () =>
      central.queryOne('SELECT id FROM sales WHERE id = ?', withCoupon.body.id),
    );
    await eventually(
      'head office closed its record of the rejection',
      async () => (await saleItem(central)) === undefined,
    );
    // The till's figures did not change, head office's did: the heartbeat resends while the last answer
    // differed, so the warning goes without anyone opening the till's Books.
    await eventually(
      'the warning is gone',
      async () =>
        (await central.request<{ items: unknown[] }>('GET', '/books/warnings')).body.items.length === 0,
    );
    const agrees = await till.request<Report>('GET', '/books');
    expect(agrees.body.comparisons[0]?.agree, JSON.stringify(agrees.body)).toBe(true);
    expect(agrees.body.comparisons[0]!.kinds.every((k) => k.agree)).toBe(true);
  });
});
