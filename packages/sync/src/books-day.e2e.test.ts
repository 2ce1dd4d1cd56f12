import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bootstrapped,
  freePort,
  newCentral,
  newTill,
  registerTill,
  type ServerProcess,
  signInAsUser,
  tmpDir,
} from './testing/procs';
import { eventually } from './testing/eventually';

/**
 * Issue 28, "a check that the books agree", as real processes: central and two tills of two branches. A full
 * day of mixed work on both (a coupon and a supplier invoice made at a connected till, which head office makes;
 * EUR cash; a credit sale and a payment on account; a return; a transfer from one branch to the other; till B
 * selling while head office is down and sending it all once it is back), then: each till's Books agree with
 * head office's, head office's Books name no difference for any till, its totals are the sum of the tills', and
 * the fiscal chain of each device has no gap at head office. Runs with a SQLite central and, in the PostgreSQL
 * run, a PostgreSQL central.
 */
let central: ServerProcess;
let tillA: ServerProcess;
let tillB: ServerProcess;
let main: string;
let north: string;

type Json = Record<string, unknown>;
type Kind = { kind: string; agree: boolean; missing_at_central: string[]; missing_at_till: string[] };
type Books = {
  pending: number;
  unavailable: string | null;
  comparisons: Array<{ agree: boolean; reported: boolean; device_id: string; kinds: Kind[] }>;
};

beforeAll(async () => {
  central = await newCentral(await freePort());
  await central.start();
  await central.assertEngine();
  main = (await central.request<{ items: Array<{ id: string }> }>('GET', '/branches')).body.items[0]!.id;
  north = (await central.request<{ id: string }>('POST', '/branches', { name: 'North', code: 'NORTH' })).body
    .id;
  const dirA = tmpDir('dayA');
  const dirB = tmpDir('dayB');
  await Promise.all([
    registerTill(central.url, dirA, 'Main counter', main),
    registerTill(central.url, dirB, 'North counter', north),
  ]);
  tillA = newTill('tillA', central.url, dirA);
  tillB = newTill('tillB', central.url, dirB);
  await Promise.all([tillA.start(), tillB.start()]);
  for (const t of [tillA, tillB]) await bootstrapped(t);
}, 120_000);

afterAll(async () => {
  for (const p of [tillA, tillB, central]) await p?.dispose();
});

async function ok<T = Json>(p: ServerProcess, method: string, url: string, body?: unknown): Promise<T> {
  const res = await p.request<T>(method, url, body);
  expect(res.status, `${p.name} ${method} ${url}: ${JSON.stringify(res.body)}`).toBeLessThan(300);
  return res.body;
}

const drained = (p: ServerProcess) =>
  eventually(
    `${p.name} sent everything`,
    async () => (await p.request<{ pending: number }>('GET', '/sync/status')).body.pending === 0,
    60_000,
  );

/** Sums of a branch's day as one server holds it, in base minor units. */
async function totals(p: ServerProcess, branch: string) {
  const one = async (sql: string) => Number((await p.queryOne<{ v: number }>(sql, branch))?.v ?? 0);
  return {
    sales: await one('SELECT COUNT(*) AS v FROM sales WHERE branch_id = ?'),
    revenue: await one('SELECT COALESCE(SUM(base_total_amount), 0) AS v FROM sales WHERE branch_id = ?'),
    returns: await one('SELECT COALESCE(SUM(base_total_amount), 0) AS v FROM returns WHERE branch_id = ?'),
    payments: await one(
      "SELECT COALESCE(SUM(amount), 0) AS v FROM customer_ledger WHERE branch_id = ? AND transaction_type = 'PAYMENT'",
    ),
  };
}

describe('books: till and head office keep one set of books', () => {
  it('28: a day of mixed work on two tills leaves no difference, central totals equal the tills, no fiscal gap', async () => {
    // Head office's part: a rate, a drawer that holds euros at Main, a supplier and two medicines.
    await ok(central, 'POST', '/currency/rates', {
      from_code: 'EUR',
      rate: '1.25',
      effective_at: '2026-01-01T00:00:00Z',
    });
    await ok(central, 'PUT', `/branches/${main}`, { drawer_currencies: ['EUR'] });
    const supplier = await ok<{ id: string }>(central, 'POST', '/suppliers', { name: 'Day Supplies' });
    const med = await ok<{ id: string }>(central, 'POST', '/medicines', {
      name: 'Dayol 10',
      selling_price: 10,
    });
    const zero = await ok<{ id: string }>(central, 'POST', '/medicines', {
      name: 'Dayzero 5',
      selling_price: 5,
      vat_category: 'zero',
    });
    for (const t of [tillA, tillB])
      await eventually(`${t.name} has the catalogue`, () =>
        t.queryOne('SELECT id FROM medicines WHERE id = ?', zero.id),
      );

    // Till A (Main): stock, a coupon and a supplier invoice made at head office through the till, then a day.
    for (const [m, batch] of [
      [med.id, 'DAY-A1'],
      [zero.id, 'DAY-A2'],
    ] as const)
      await ok(tillA, 'POST', '/purchases', {
        medicine_id: m,
        supplier_id: supplier.id,
        batch_number: batch,
        expiry_date: '2099-12-31',
        qty_received: 60,
        unit_cost: 4,
      });
    const coupon = await ok<{ id: string }>(tillA, 'POST', '/coupons', {
      code: 'DAY10',
      discount_type: 'fixed',
      discount_value: 1,
    });
    expect(await central.queryOne('SELECT id FROM coupons WHERE id = ?', coupon.id)).toBeTruthy();
    const invoice = await ok<{ id: string }>(tillA, 'POST', '/supplier-finance/invoices', {
      supplier_id: supplier.id,
      total_amount: 100,
      invoice_no: 'DAY-INV-1',
    });
    await ok(tillA, 'POST', `/supplier-finance/invoices/${invoice.id}/payments`, { amount: 40 });
    // Credit terms granted at the till by its admin, backed by the admin's sign-in there (issue 26 H2).
    const customer = await ok<{ id: string }>(tillA, 'POST', '/customers', {
      name: 'Day Account',
      credit_limit: 100,
      is_credit_allowed: true,
    });
    await ok(tillA, 'POST', '/sessions/open', { opening_float: 50 });
    const sellA = (body: Json) =>
      ok<{ id: string; items: Array<{ id: string }> }>(tillA, 'POST', '/sales', {
        print_receipt: false,
        ...body,
      });
    const cash = await sellA({
      items: [{ medicine_id: med.id, quantity: 2 }],
      payment_lines: [{ method: 'cash', amount: 20 }],
    });
    await sellA({
      items: [{ medicine_id: zero.id, quantity: 2 }],
      coupon_code: 'DAY10',
      payment_lines: [{ method: 'card', amount: 9 }],
    });
    await sellA({
      items: [{ medicine_id: med.id, quantity: 1 }],
      currency_code: 'EUR',
      payment_lines: [{ method: 'cash', amount: 10 }],
    });
    await sellA({
      items: [{ medicine_id: med.id, quantity: 1 }],
      customer_id: customer.id,
      payment_lines: [{ method: 'credit', amount: 10 }],
    });
    await ok(tillA, 'POST', `/customers/${customer.id}/payments`, { amount: 4, method: 'cash' });
    await ok(tillA, 'POST', '/returns', {
      sale_id: cash.id,
      lines: [{ sale_line_id: cash.items[0]!.id, quantity: 1 }],
    });
    const sent = await ok<{ id: string; items: Array<{ id: string }> }>(tillA, 'POST', '/transfers', {
      from_branch_id: main,
      to_branch_id: north,
      items: [{ medicine_id: zero.id, quantity: 10 }],
    });

    // Till B (North), worked by North's manager: receives the transfer, then sells, part of it while head office
    // is down.
    const email = 'north.manager@books-day.test';
    await ok(central, 'POST', '/users', {
      email,
      password: 'North#Manager-2468',
      full_name: 'North Manager',
      role: 'branch_manager',
      branch_id: north,
    });
    const token = await eventually(
      'till B has its manager',
      () => signInAsUser(tillB, email, 'North#Manager-2468'),
      60_000,
    );
    const asNorth = async (method: string, url: string, body?: unknown) => {
      const res = await tillB.fetch(`/api/v1${url}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      expect(res.status, `tillB ${method} ${url}: ${text}`).toBeLessThan(300);
    };
    await eventually('till B sees the transfer', () =>
      tillB.queryOne('SELECT id FROM transfers WHERE id = ?', sent.id),
    );
    await asNorth('POST', `/transfers/${sent.id}/receive`, {
      lines: [{ item_id: sent.items[0]!.id, received_quantity: 10 }],
    });
    await asNorth('POST', '/sessions/open', { opening_float: 20 });
    const sellB = () =>
      asNorth('POST', '/sales', {
        print_receipt: false,
        items: [{ medicine_id: zero.id, quantity: 1 }],
        payment_lines: [{ method: 'cash', amount: 5 }],
      });
    await sellB();
    await drained(tillB);
    await central.kill('SIGTERM');
    for (let i = 0; i < 3; i++) await sellB();
    await central.start();
    for (const t of [tillA, tillB]) await drained(t);

    // Each till's Books against head office's: nothing missing on either side, nothing rejected.
    for (const t of [tillA, tillB]) {
      const books = await eventually(
        `${t.name}'s books agree`,
        async () => {
          const r = await t.request<Books>('GET', '/books');
          return r.body.comparisons[0]?.agree ? r.body : undefined;
        },
        60_000,
      );
      expect(books.pending).toBe(0);
      expect(books.comparisons[0]!.kinds.every((k) => k.agree)).toBe(true);
      const open = await t.request<{ items: unknown[] }>('GET', '/sync/conflicts?status=open');
      expect(open.body.items).toEqual([]);
    }
    // Head office's Books of each branch: every till has reported and agrees; no warning on the dashboard.
    for (const branch of [main, north]) {
      const atCentral = await eventually(
        `head office's books of ${branch} agree`,
        async () => {
          const r = await central.request<Books>('GET', `/books?branch_id=${branch}`);
          const c = r.body.comparisons;
          return c.length > 0 && c.every((x) => x.reported && x.agree) ? r.body : undefined;
        },
        60_000,
      );
      expect(atCentral.comparisons).toHaveLength(1);
    }
    expect((await central.request<{ items: unknown[] }>('GET', '/books/warnings')).body.items).toEqual([]);

    // Central's totals are the sum of the tills' (each till holds its own branch's day).
    const [a, b] = [await totals(tillA, main), await totals(tillB, north)];
    const [ca, cb] = [await totals(central, main), await totals(central, north)];
    expect(ca).toEqual(a);
    expect(cb).toEqual(b);
    expect(a.sales).toBe(4);
    expect(b.sales).toBe(4);
    expect(a.payments).toBe(400);
    expect(a.returns).toBe(1000);
    // Head office holds the coupon's redemption and the supplier payment once.
    expect(
      (await central.query('SELECT id FROM coupon_redemptions WHERE coupon_id = ?', coupon.id)).length,
    ).toBe(1);
    expect(
      (await central.query('SELECT id FROM supplier_payments WHERE invoice_id = ?', invoice.id)).length,
    ).toBe(1);

    // The fiscal chain of each device at head office: its invoices and credit notes number 1..n, no gap.
    const chains = await central.query<{ device_id: string; icv: number }>(
      'SELECT device_id, icv FROM sales UNION ALL SELECT device_id, icv FROM returns',
    );
    const byDevice = new Map<string, number[]>();
    for (const r of chains) byDevice.set(r.device_id, [...(byDevice.get(r.device_id) ?? []), Number(r.icv)]);
    expect(byDevice.size).toBe(2);
    for (const [device, icvs] of byDevice) {
      const sorted = [...icvs].sort((x, y) => x - y);
      expect(sorted, device).toEqual(sorted.map((_, i) => sorted[0]! + i));
      expect(new Set(sorted).size, device).toBe(sorted.length);
    }
    const devices = await central.query<{ id: string }>('SELECT id FROM sync_devices');
    const listed = new Set(devices.map((d) => d.id));
    for (const device of byDevice.keys()) expect(listed.has(device), device).toBe(true);
  }, 600_000);
});
