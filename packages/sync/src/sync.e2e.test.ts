import fs from 'node:fs';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  freePort,
  newCentral,
  newTill,
  registerTill,
  type ServerProcess,
  tmpDir,
  waitFor,
} from './testing/procs';

/**
 * A central server and two tills as real processes on loopback, each with its own SQLite file; central goes
 * down, is killed mid-push, revokes a till; tills write throughout. Convergence and exactly-once are checked
 * in central's database file.
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

function centralDb<T>(fn: (db: Database.Database) => T): T {
  const db = new Database(central.dbFile, { readonly: true });
  try {
    return fn(db);
  } finally {
    db.close();
  }
}

const drained = (t: ServerProcess) =>
  waitFor(`${t.name} outbox drained`, async () => {
    const s = await status(t);
    return s.pending === 0 && s.last_error === null && s;
  });

beforeAll(async () => {
  const port = await freePort();
  central = newCentral(port);
  await central.start();
  centralUrl = central.url;
  const dirA = tmpDir('tillA');
  const dirB = tmpDir('tillB');
  registerTill(centralUrl, dirA, 'Till A');
  registerTill(centralUrl, dirB, 'Till B');
  expect(fs.statSync(`${dirA}/sync-device.json`).mode & 0o777).toBe(0o600);
  tillA = newTill('tillA', centralUrl, dirA);
  tillB = newTill('tillB', centralUrl, dirB);
  await Promise.all([tillA.start(), tillB.start()]);
  for (const t of [tillA, tillB])
    await waitFor(`${t.name} bootstrapped`, async () => (await status(t)).bootstrapped);
}, 90_000);

afterAll(async () => {
  for (const p of [tillA, tillB, central]) await p?.kill('SIGTERM');
  for (const p of [tillA, tillB, central]) if (p) fs.rmSync(p.dataDir, { recursive: true, force: true });
});

describe('sync between real processes', () => {
  it('bootstraps each till from central: the same branch ids and users as central', async () => {
    const centralBranches = (await central.request<{ items: Array<{ id: string }> }>('GET', '/branches')).body
      .items;
    const tillBranches = (await tillA.request<{ items: Array<{ id: string }> }>('GET', '/branches')).body
      .items;
    expect(tillBranches.map((b) => b.id).sort()).toEqual(centralBranches.map((b) => b.id).sort());
  });

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
    await waitFor('tills notice central is down', async () => !(await status(tillA)).online);
    expect((await status(tillA)).pending).toBe(5);

    await central.start();
    const branchId = (await central.request<{ items: Array<{ id: string }> }>('GET', '/branches')).body
      .items[0]!.id;
    expect((await central.request('PUT', `/branches/${branchId}`, { address: '1 Sync Street' })).status).toBe(
      200,
    );
    expect((await central.request('PUT', '/settings', { fx_tolerance_pct: 7 })).status).toBe(200);

    await Promise.all([drained(tillA), drained(tillB)]);
    const counts = centralDb((db) => ({
      sales: db.prepare('SELECT count(*) AS n, count(DISTINCT id) AS d FROM sync_test_sales').get() as {
        n: number;
        d: number;
      },
      stock: db.prepare("SELECT sum(qty) AS q FROM sync_test_movements WHERE item = 'paracetamol'").get() as {
        q: number;
      },
      mutations: db.prepare("SELECT count(*) AS n FROM sync_mutations WHERE status = 'accepted'").get() as {
        n: number;
      },
    }));
    expect(counts.sales).toEqual({ n: 10, d: 10 });
    // Movements add up across tills: 2 tills x (1+2+3+4+5).
    expect(counts.stock.q).toBe(-30);
    expect(counts.mutations.n).toBe(10);

    for (const t of [tillA, tillB]) {
      await waitFor(`${t.name} has central's edits and the other till's sales`, async () => {
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
    const before = centralDb(
      (db) => (db.prepare('SELECT count(*) AS n FROM sync_test_sales').get() as { n: number }).n,
    );
    const r = await sale(tillA, [{ item: 'ibuprofen', qty: 2 }]);
    expect(r.status).toBe(201);
    await central.exited; // central died right after committing the push
    const committed = centralDb(
      (db) => (db.prepare('SELECT count(*) AS n FROM sync_test_sales').get() as { n: number }).n,
    );
    expect(committed).toBe(before + 1);
    expect((await status(tillA)).pending).toBe(1); // the till never got the answer
    await central.start();
    await drained(tillA);
    const after = centralDb((db) => ({
      n: (db.prepare('SELECT count(*) AS n FROM sync_test_sales').get() as { n: number }).n,
      sale: db.prepare('SELECT invoice_number, icv FROM sync_test_sales WHERE id = ?').get(r.body.id) as {
        invoice_number: string;
        icv: number;
      },
    }));
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

  it('refuses a revoked device with 403 and keeps its queue; restored, it drains', async () => {
    const devices = (
      await central.request<{ items: Array<{ id: string; name: string }> }>('GET', '/compliance/devices')
    ).body.items;
    const b = devices.find((d) => d.name === 'Till B')!;
    expect((await central.request('POST', `/compliance/devices/${b.id}/revoke`)).status).toBe(200);
    await sale(tillB, [{ item: 'amoxicillin', qty: 1 }]);
    await waitFor('till B refused', async () => (await status(tillB)).last_error?.code === 'DEVICE_REVOKED');
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
    const c = centralDb((db) => ({
      conflict: db.prepare('SELECT code, kind FROM sync_conflicts WHERE entity_id = ?').get(poison.body.id),
      good: db.prepare('SELECT count(*) AS n FROM sync_test_sales WHERE id = ?').get(good.body.id) as {
        n: number;
      },
      poison: db.prepare('SELECT count(*) AS n FROM sync_test_sales WHERE id = ?').get(poison.body.id) as {
        n: number;
      },
    }));
    expect(c.conflict).toEqual({ code: 'POISON', kind: 'rejected' });
    expect(c.good.n).toBe(1);
    expect(c.poison.n).toBe(0);
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
    const rows = centralDb((db) =>
      db.prepare('SELECT id FROM sync_test_sales WHERE id IN (?, ?)').all(a.body.id, b.body.id),
    );
    expect(rows).toHaveLength(2);
    for (const t of [tillA, tillB]) {
      await waitFor(`${t.name} got both`, async () => {
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
