import fs from 'node:fs';
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
  signInAsUser,
} from './testing/procs';
import { eventually } from './testing/eventually';

/**
 * A central server and two tills as real processes on loopback, each till with its own SQLite file, central on
 * SQLite or, in the PostgreSQL run (vitest.postgres.config.ts), on a PostgreSQL database of its own; central goes
 * down, is killed mid-push, revokes a till; tills write throughout. Convergence and exactly-once are checked
 * in central's database (central.query reads it whichever engine holds it).
 */
let central: ServerProcess;
let tillA: ServerProcess;
let tillB: ServerProcess;
let centralUrl: string;

interface Status {
  bootstrapped: boolean;
  pending: number;
  rejected: number;
  online: boolean;
  cursor: number | null;
  last_error: { code: string } | null;
}

const status = async (t: ServerProcess) => (await t.request<Status>('GET', '/sync/status')).body;

const sale = (
  t: ServerProcess,
  lines: Array<{ item: string; qty: number }>,
  extra: Record<string, unknown> = {},
) =>
  t.request<{ id: string; invoice_number: string; icv: number }>('POST', '/sync/test/sales', {
    lines: lines.map((l) => ({ ...l, price_minor: 250 })),
    ...extra,
  });

const drained = (t: ServerProcess) =>
  eventually(`${t.name} outbox drained`, async () => {
    const s = await status(t);
    return s.pending === 0 && s.last_error === null && s;
  });

const CASHIER_PASSWORD = 'Cashier#12345';
let realSale: { medicineId: string; batchId: string; token: string } | null = null;

/** A request on a till as a given user (the helpers of procs.ts sign in as admin). */
async function asUser<T = Record<string, unknown>>(
  t: ServerProcess,
  token: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  const res = await t.fetch(`/api/v1${url}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
}

const tillLogin = (t: ServerProcess, email: string) => signInAsUser(t, email, CASHIER_PASSWORD);

function tillRow(t: ServerProcess, query: string, ...params: unknown[]): unknown {
  const db = new Database(t.dbFile, { readonly: true });
  try {
    return db.prepare(query).get(...params);
  } finally {
    db.close();
  }
}

/** Batches whose quantity on hand is not the sum of their movements (must be none, everywhere). */
const batchesOffLedger = (p: ServerProcess) =>
  p.query(
    `SELECT b.id, b.qty_on_hand, coalesce(sum(m.quantity), 0) AS moved FROM batches b
     LEFT JOIN stock_movements m ON m.batch_id = b.id GROUP BY b.id, b.qty_on_hand
     HAVING b.qty_on_hand <> coalesce(sum(m.quantity), 0)`,
  );

/** count(*) AS n of a query on central. */
const centralCount = async (text: string, ...params: unknown[]) =>
  (await central.queryOne<{ n: number }>(text, ...params))!.n;

beforeAll(async () => {
  const port = await freePort();
  central = await newCentral(port);
  await central.start();
  await central.assertEngine();
  centralUrl = central.url;
  const dirA = tmpDir('tillA');
  const dirB = tmpDir('tillB');
  await Promise.all([registerTill(centralUrl, dirA, 'Till A'), registerTill(centralUrl, dirB, 'Till B')]);
  expect(fs.statSync(`${dirA}/sync-device.json`).mode & 0o777).toBe(0o600);
  tillA = newTill('tillA', centralUrl, dirA);
  tillB = newTill('tillB', centralUrl, dirB);
  await Promise.all([tillA.start(), tillB.start()]);
  for (const t of [tillA, tillB]) await bootstrapped(t);
}, 90_000);

afterAll(async () => {
  for (const p of [tillA, tillB, central]) await p?.dispose();
});

describe('sync between real processes', () => {
  it('bootstraps each till from central: the same branch ids and users as central', async () => {
    const centralBranches = (await central.request<{ items: Array<{ id: string }> }>('GET', '/branches')).body
      .items;
    const tillBranches = (await tillA.request<{ items: Array<{ id: string }> }>('GET', '/branches')).body
      .items;
    expect(tillBranches.map((b) => b.id).sort()).toEqual(centralBranches.map((b) => b.id).sort());
  });

  it('real sales: stock received at a till, sold at both tills while central is down, converges exactly once', async () => {
    const branchId = (await central.request<{ items: Array<{ id: string }> }>('GET', '/branches')).body
      .items[0]!.id;
    const supplier = await central.request<{ id: string }>('POST', '/suppliers', { name: 'Sync Supplies' });
    expect(supplier.status).toBe(201);
    const med = await central.request<{ id: string }>('POST', '/medicines', {
      name: 'Synclofen 200',
      selling_price: 10,
    });
    expect(med.status, JSON.stringify(med.body)).toBe(201);
    const medicineId = med.body.id;
    const cashiers = new Map<ServerProcess, string>();
    for (const t of [tillA, tillB]) {
      const email = `cashier.${t.name.toLowerCase()}@sync.test`;
      const u = await central.request('POST', '/users', {
        email,
        password: CASHIER_PASSWORD,
        full_name: `Cashier ${t.name}`,
        role: 'cashier',
        branch_id: branchId,
      });
      expect(u.status, JSON.stringify(u.body)).toBe(201);
      // the user and the medicine replicate to the till; the cashier signs in there
      cashiers.set(t, await eventually(`${t.name} has its cashier`, () => tillLogin(t, email)));
      await eventually(`${t.name} has the medicine`, async () =>
        tillRow(t, 'SELECT id FROM medicines WHERE id = ?', medicineId),
      );
    }

    // A delivery is received at the branch, on till A; it replicates up to central and over to till B.
    const received = await tillA.request<{ id: string }>('POST', '/purchases', {
      medicine_id: medicineId,
      supplier_id: supplier.body.id,
      batch_number: 'SYNC-B1',
      expiry_date: '2099-12-31',
      qty_received: 20,
      unit_cost: 4,
    });
    expect(received.status, JSON.stringify(received.body)).toBe(201);
    const batchId = received.body.id;
    await eventually(
      'till B has the received stock',
      async () =>
        (
          tillRow(tillB, 'SELECT qty_on_hand AS q FROM batches WHERE id = ?', batchId) as
            | { q: number }
            | undefined
        )?.q === 20,
    );

    await central.kill('SIGKILL');
    const sold: Array<{ id: string; invoice_number: string; icv: number }> = [];
    for (const t of [tillA, tillB]) {
      const token = cashiers.get(t)!;
      expect((await asUser(t, token, 'POST', '/sessions/open', { opening_float: 0 })).status).toBe(201);
      for (const qty of [1, 2, 3]) {
        const r = await asUser<{ id: string; invoice_number: string; icv: number }>(
          t,
          token,
          'POST',
          '/sales',
          {
            items: [{ medicine_id: medicineId, quantity: qty }],
            payment_lines: [{ method: 'cash', amount: 100 }],
          },
        );
        expect(r.status, JSON.stringify(r.body)).toBe(201);
        sold.push({ id: r.body.id, invoice_number: r.body.invoice_number, icv: r.body.icv });
      }
    }
    expect(new Set(sold.map((s) => s.invoice_number)).size).toBe(6);

    await central.start();
    expect((await central.request('PUT', `/medicines/${medicineId}`, { selling_price: 12.5 })).status).toBe(
      200,
    );
    await Promise.all([drained(tillA), drained(tillB)]);
    for (const t of [tillA, tillB]) expect((await status(t)).rejected).toBe(0);

    const onCentral = {
      sales: await central.query(
        `SELECT id, invoice_number, icv FROM sales WHERE id IN (${sold.map(() => '?').join(',')}) ORDER BY id`,
        ...sold.map((s) => s.id),
      ),
      lines: await centralCount('SELECT count(*) AS n FROM sale_lines WHERE medicine_id = ?', medicineId),
      stock: (await central.queryOne<{ q: number }>(
        'SELECT sum(qty_on_hand) AS q FROM batches WHERE medicine_id = ? AND branch_id = ?',
        medicineId,
        branchId,
      ))!.q,
      sessions: await centralCount("SELECT count(*) AS n FROM cash_sessions WHERE status = 'open'"),
    };
    // every sale exactly once, with the invoice number and ICV its till assigned
    expect(onCentral.sales).toEqual([...sold].sort((a, b) => (a.id < b.id ? -1 : 1)));
    expect(onCentral.lines).toBe(6);
    // received 20, sold 1+2+3 at each till
    expect(onCentral.stock).toBe(20 - 12);
    expect(onCentral.sessions).toBe(2);
    expect(await batchesOffLedger(central)).toEqual([]);

    for (const t of [tillA, tillB]) {
      await eventually(`${t.name} has both tills' sales, the stock left and central's price`, async () => {
        const db = new Database(t.dbFile, { readonly: true });
        try {
          const n = (
            db
              .prepare('SELECT count(*) AS n FROM sales WHERE id IN (SELECT value FROM json_each(?))')
              .get(JSON.stringify(sold.map((s) => s.id))) as { n: number }
          ).n;
          const q = (
            db.prepare('SELECT qty_on_hand AS q FROM batches WHERE id = ?').get(batchId) as { q: number }
          ).q;
          const price = (
            db.prepare('SELECT selling_price AS p FROM medicines WHERE id = ?').get(medicineId) as {
              p: number;
            }
          ).p;
          return n === 6 && q === 8 && price === 1250;
        } finally {
          db.close();
        }
      });
      expect(await batchesOffLedger(t)).toEqual([]);
    }
    realSale = { medicineId, batchId, token: cashiers.get(tillA)! };
  }, 120_000);

  it('converges after both tills wrote while central was down: every sale exactly once, central edits on both tills', async () => {
    await central.kill('SIGKILL');
    const written: string[] = [];
    for (let i = 0; i < 5; i++) {
      for (const t of [tillA, tillB]) {
        const r = await sale(t, [{ item: 'paracetamol', qty: 1 + i }]);
        expect(r.status).toBe(201);
        written.push(r.body.id);
      }
    }
    await eventually('tills notice central is down', async () => !(await status(tillA)).online);
    expect((await status(tillA)).pending).toBe(5);

    await central.start();
    const branchId = (await central.request<{ items: Array<{ id: string }> }>('GET', '/branches')).body
      .items[0]!.id;
    expect((await central.request('PUT', `/branches/${branchId}`, { address: '1 Sync Street' })).status).toBe(
      200,
    );
    expect((await central.request('PUT', '/settings', { fx_tolerance_pct: 7 })).status).toBe(200);

    await Promise.all([drained(tillA), drained(tillB)]);
    const counts = {
      sales: await central.queryOne<{ n: number; d: number }>(
        'SELECT count(*) AS n, count(DISTINCT id) AS d FROM sync_test_sales',
      ),
      stock: (await central.queryOne<{ q: number }>(
        "SELECT sum(qty) AS q FROM sync_test_movements WHERE item = 'paracetamol'",
      ))!,
      mutations: (await central.queryOne<{ n: number }>(
        "SELECT count(*) AS n FROM sync_mutations WHERE status = 'accepted' AND entity = 'test_sale'",
      ))!,
    };
    expect(counts.sales).toEqual({ n: 10, d: 10 });
    // Movements add up across tills: 2 tills x (1+2+3+4+5).
    expect(counts.stock.q).toBe(-30);
    expect(counts.mutations.n).toBe(10);

    for (const t of [tillA, tillB]) {
      await eventually(`${t.name} has central's edits and the other till's sales`, async () => {
        const branch = (await t.request<{ address: string }>('GET', `/branches/${branchId}`)).body;
        const settings = (await t.request<{ fx_tolerance_pct: number }>('GET', '/settings')).body;
        const db = new Database(t.dbFile, { readonly: true });
        const n = (db.prepare('SELECT count(*) AS n FROM sync_test_sales').get() as { n: number }).n;
        db.close();
        return branch.address === '1 Sync Street' && settings.fx_tolerance_pct === 7 && n === 10;
      });
    }
  }, 90_000);

  it('replays after central is SIGKILLed between commit and answer: no duplicate, the same result', async () => {
    await central.kill('SIGKILL');
    await central.start({ SYNC_FAULT_AFTER_COMMIT: 'kill' });
    const before = await centralCount('SELECT count(*) AS n FROM sync_test_sales');
    const r = await sale(tillA, [{ item: 'ibuprofen', qty: 2 }]);
    expect(r.status).toBe(201);
    await central.exited; // central died right after committing the push
    const committed = await centralCount('SELECT count(*) AS n FROM sync_test_sales');
    expect(committed).toBe(before + 1);
    expect((await status(tillA)).pending).toBe(1); // the till never got the answer
    await central.start();
    await drained(tillA);
    const after = {
      n: await centralCount('SELECT count(*) AS n FROM sync_test_sales'),
      sale: await central.queryOne('SELECT invoice_number, icv FROM sync_test_sales WHERE id = ?', r.body.id),
    };
    expect(after.n).toBe(before + 1);
    expect(after.sale).toEqual({ invoice_number: r.body.invoice_number, icv: r.body.icv });
    const tdb = new Database(tillA.dbFile, { readonly: true });
    const rows = tdb
      .prepare("SELECT sync_result FROM change_log WHERE entity = 'test_sale' AND entity_id = ?")
      .all(r.body.id) as Array<{ sync_result: string }>;
    tdb.close();
    // Either still held (acknowledged) or cleaned after the pull passed it; if held, it carries central's answer.
    for (const row of rows)
      expect(JSON.parse(row.sync_result)).toMatchObject({
        id: r.body.id,
        invoice_number: r.body.invoice_number,
        icv: r.body.icv,
      });
  }, 90_000);

  it('a real sale replayed after central is SIGKILLed between commit and answer: same invoice number and ICV, no duplicate', async () => {
    expect(realSale).not.toBeNull();
    const { medicineId, batchId, token } = realSale!;
    await central.kill('SIGKILL');
    await central.start({ SYNC_FAULT_AFTER_COMMIT: 'kill' });
    const r = await asUser<{ id: string; invoice_number: string; icv: number }>(
      tillA,
      token,
      'POST',
      '/sales',
      {
        items: [{ medicine_id: medicineId, quantity: 2 }],
        payment_lines: [{ method: 'cash', amount: 100 }],
      },
    );
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    await central.exited; // central died right after committing a push
    await central.start();
    await drained(tillA);
    const after = {
      sales: await central.query('SELECT invoice_number, icv FROM sales WHERE id = ?', r.body.id),
      movements: await centralCount(
        "SELECT count(*) AS n FROM stock_movements WHERE reference_type = 'sale' AND reference_id = ?",
        r.body.id,
      ),
      qty: (await central.queryOne<{ q: number }>(
        'SELECT qty_on_hand AS q FROM batches WHERE id = ?',
        batchId,
      ))!.q,
      offLedger: await batchesOffLedger(central),
    };
    expect(after.sales).toEqual([{ invoice_number: r.body.invoice_number, icv: r.body.icv }]);
    expect(after.movements).toBe(1);
    expect(after.qty).toBe(8 - 2);
    expect(after.offLedger).toEqual([]);
    const tdb = new Database(tillA.dbFile, { readonly: true });
    const rows = tdb
      .prepare("SELECT sync_result FROM change_log WHERE entity = 'sale' AND entity_id = ?")
      .all(r.body.id) as Array<{ sync_result: string }>;
    tdb.close();
    for (const row of rows)
      expect(JSON.parse(row.sync_result)).toMatchObject({
        id: r.body.id,
        invoice_number: r.body.invoice_number,
        icv: r.body.icv,
      });
  }, 90_000);

  it('refuses a revoked device with 403 and keeps its queue; restored, it drains', async () => {
    const devices = (
      await central.request<{ items: Array<{ id: string; name: string }> }>('GET', '/compliance/devices')
    ).body.items;
    const b = devices.find((d) => d.name === 'Till B')!;
    expect((await central.request('POST', `/compliance/devices/${b.id}/revoke`)).status).toBe(200);
    await sale(tillB, [{ item: 'amoxicillin', qty: 1 }]);
    await eventually(
      'till B refused',
      async () => (await status(tillB)).last_error?.code === 'DEVICE_REVOKED',
    );
    expect((await status(tillB)).pending).toBe(1);
    expect((await central.request('POST', `/compliance/devices/${b.id}/restore`)).status).toBe(200);
    await drained(tillB);
  }, 60_000);

  it('rejects a poison change without blocking the queue, and records a conflict for it', async () => {
    const poison = await sale(tillA, [{ item: 'x', qty: 1 }], { poison: true });
    const good = await sale(tillA, [{ item: 'y', qty: 1 }]);
    await drained(tillA);
    const s = await status(tillA);
    const tdb = new Database(tillA.dbFile, { readonly: true });
    const rejected = tdb
      .prepare("SELECT entity, sync_result FROM change_log WHERE sync_status = 'rejected'")
      .all();
    tdb.close();
    expect(rejected, JSON.stringify(rejected)).toHaveLength(1);
    expect(s.rejected).toBe(1);
    const c = {
      conflict: await central.queryOne(
        'SELECT code, kind FROM sync_conflicts WHERE entity_id = ?',
        poison.body.id,
      ),
      good: await centralCount('SELECT count(*) AS n FROM sync_test_sales WHERE id = ?', good.body.id),
      poison: await centralCount('SELECT count(*) AS n FROM sync_test_sales WHERE id = ?', poison.body.id),
    };
    expect(c.conflict).toEqual({ code: 'POISON', kind: 'rejected' });
    expect(c.good).toBe(1);
    expect(c.poison).toBe(0);
    const listed = await central.request<{ items: Array<{ entity_id: string }> }>(
      'GET',
      '/sync/conflicts?status=open',
    );
    expect(listed.body.items.map((i) => i.entity_id)).toContain(poison.body.id);
  }, 60_000);

  it('a till clock a day off changes nothing: order is revisions, never device time', async () => {
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString();
    const yesterday = new Date(Date.now() - 86_400_000).toISOString();
    const a = await sale(tillA, [{ item: 'z', qty: 1 }], { sold_at: tomorrow });
    const b = await sale(tillB, [{ item: 'z', qty: 1 }], { sold_at: yesterday });
    await Promise.all([drained(tillA), drained(tillB)]);
    const rows = await central.query(
      'SELECT id FROM sync_test_sales WHERE id IN (?, ?)',
      a.body.id,
      b.body.id,
    );
    expect(rows).toHaveLength(2);
    for (const t of [tillA, tillB]) {
      await eventually(`${t.name} got both`, async () => {
        const db = new Database(t.dbFile, { readonly: true });
        const n = (
          db
            .prepare('SELECT count(*) AS n FROM sync_test_sales WHERE id IN (?, ?)')
            .get(a.body.id, b.body.id) as { n: number }
        ).n;
        db.close();
        return n === 2;
      });
    }
  }, 60_000);
});
