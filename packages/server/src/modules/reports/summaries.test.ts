import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_SUMMARY_SOURCES } from '../../db/migrations/0019_report_summaries';
import { REPORT_SUMMARY_TOTALS } from '../../db/migrations/0020_report_summary_deltas';
import { runRaw } from '../../db/prepared';
import { numberedPlaceholders } from '../../db/raw-query';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';
import { startTestServer, type TestServer, testingOnPostgres } from '../../testing/harness';
import { testSaleWriter } from '../../testing/sale-writer';
import { foldSummaryDeltas } from './summaries';
import {
  SYNTHETIC_TABLES,
  type SyntheticLine,
  syntheticInsertSql,
  syntheticSaleRows,
} from './synthetic-sales';

/**
 * The report summaries of migrations 0019 and 0020 (PostgreSQL only), read as readers read them (summary plus
 * deltas), must equal what they summarise after every kind of write: a sale at the till, sales written row by
 * row, lines and payments stored before their sale (deferred foreign keys, as a pushed sale may be applied), a
 * second payment in the same method, a void, a sale moved to another hour, a delete, and an update that
 * changes no summed column; after a fold the summaries alone equal it and the deltas are empty, also when the
 * fold ran beside uncommitted sales and refreshes on other connections.
 */
let t: TestServer;
let write: ReturnType<typeof testSaleWriter>;
let branch: string;
let user: string;
let icv = 0;
const line = (medicineId: string, quantity: number, unitPrice: number, vatRate = 18): SyntheticLine => ({
  medicineId,
  name: `Medicine ${medicineId.slice(-4)}`,
  quantity,
  unitPrice,
  vatRate,
  vatCategory: vatRate ? 'standard' : 'zero',
  unitCost: Math.floor(unitPrice / 2),
});
const sale = (
  soldAt: string,
  lines: SyntheticLine[],
  payments?: Array<{ method: string; amount: number }>,
) => ({
  branchId: branch,
  userId: user,
  deviceId: 'device-summaries-test',
  icv: ++icv,
  soldAt,
  currency: 'USD',
  lines,
  payments,
});

/**
 * Every summary's rows next to the same sums computed from the tables now: as readers see them (the summary
 * plus its deltas, summed per key), or the summary table alone.
 */
async function summariesAgainstTables(read: 'with deltas' | 'table alone') {
  const sorted = (rows: unknown[]) => rows.map((r) => JSON.stringify(Object.values(r as object))).sort();
  const pairs = [];
  for (const [i, s] of REPORT_SUMMARY_SOURCES.entries()) {
    const stored = await t.query(
      read === 'table alone'
        ? `SELECT ${s.columns.join(', ')} FROM ${s.table}`
        : `SELECT * FROM (${REPORT_SUMMARY_TOTALS[i]!.select}) AS x(${s.columns.join(', ')})`,
    );
    const computed = await t.query(`SELECT * FROM (${s.select}) AS x(${s.columns.join(', ')})`);
    pairs.push({ table: s.table, stored: sorted(stored), computed: sorted(computed) });
  }
  return pairs;
}

async function expectExact(read: 'with deltas' | 'table alone' = 'with deltas') {
  for (const { table, stored, computed } of await summariesAgainstTables(read))
    expect(stored, `${table} (${read})`).toEqual(computed);
}

const connect = async () => {
  const client = new pg.Client({ connectionString: t.context.config.databaseUrl });
  await client.connect();
  return client;
};

/** A sale's rows written on `client`, each INSERT its own statement (a line after its sale). */
async function writeOn(client: pg.Client, s: ReturnType<typeof sale>) {
  const rows = syntheticSaleRows(s);
  for (const table of SYNTHETIC_TABLES)
    for (const r of rows[table]) await client.query(numberedPlaceholders(syntheticInsertSql(table)), r);
}

const backendPid = async (client: pg.Client): Promise<number> =>
  (await client.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')).rows[0]!.pid;

/** Until the backend `pid` waits for an advisory lock (the fold lock). */
async function waitingForLock(pid: number) {
  await expect
    .poll(async () => {
      const waiting = await t.query(
        "SELECT 1 FROM pg_locks WHERE locktype = 'advisory' AND NOT granted AND pid = ?",
        pid,
      );
      return waiting.length;
    })
    .toBe(1);
}

const deltaRows = async () => {
  let n = 0;
  for (const s of REPORT_SUMMARY_SOURCES) n += await t.count(`${s.table}_delta`);
  return n;
};

/** Folds, then the summaries alone are exact and no delta is left. */
async function expectFolded() {
  expect(await foldSummaryDeltas(t.context)).toBe(true);
  expect(await deltaRows()).toBe(0);
  await expectExact('table alone');
}

beforeAll(async () => {
  // Folds only when a test folds (central's timer would fold at any moment).
  t = await startTestServer({ reportFoldIntervalMs: 3_600_000 });
  write = testSaleWriter(t);
  branch = await t.mainBranchId();
  user = (await t.userWithRole('cashier')).id;
});
afterAll(() => t?.close());

describe.skipIf(!testingOnPostgres())('report summaries (PostgreSQL)', () => {
  it('equal the tables after sales, out-of-order rows, voids, moves and deletes', async () => {
    const cashier = (await t.userWithRole('cashier')).token;
    await openSessionFor(t, cashier);
    const med = await makeMedicineId(t, { price: 5 });
    const other = await makeMedicineId(t, { price: 2 });
    await addStock(t, med, 10);
    const till = await t.post(
      '/api/v1/sales',
      {
        items: [{ medicine_id: med, quantity: 2 }],
        payment_lines: [
          { method: 'card', amount: 4 },
          { method: 'cash', amount: 10 },
        ],
      },
      cashier,
    );
    expect(till.status).toBe(201);
    const a = await write(sale('2025-03-01T10:15:00.000Z', [line(med, 2, 500), line(other, 1, 200, 0)]));
    await write(sale('2025-03-01T10:45:00.000Z', [line(med, 1, 500)], [{ method: 'card', amount: 500 }]));
    const b = await write(
      sale(
        '2025-03-02T23:59:59.999Z',
        [line(other, 3, 200)],
        [
          { method: 'cash', amount: 300 },
          { method: 'cash', amount: 300 },
        ],
      ),
    );
    await expectExact();

    // A pushed sale's rows may arrive children first, its foreign keys deferred to COMMIT.
    const late = syntheticSaleRows(sale('2025-03-01T11:00:00.000Z', [line(med, 4, 500)]));
    await t.context.db.transaction().execute(async (trx) => {
      await sql`SET CONSTRAINTS ALL DEFERRED`.execute(trx);
      for (const table of [...SYNTHETIC_TABLES].reverse())
        for (const r of late[table]) await runRaw(trx, syntheticInsertSql(table), r);
    });
    // A second payment of a sale in a method it already used counts the sale once.
    await t.exec(syntheticInsertSql('sale_payments'), `pay-${b}`, b, 3, 'cash', 100, 100, '');
    await expectExact();

    expect(await t.exec('UPDATE sales SET is_deleted = 1 WHERE id = ?', a)).toBe(1);
    expect(await t.exec("UPDATE sales SET sold_at = '2025-04-01T08:00:00.000Z' WHERE id = ?", b)).toBe(1);
    expect(await t.exec('UPDATE sales SET has_return = 1 WHERE id = ?', late.id)).toBe(1);
    expect(
      await t.exec('UPDATE sale_lines SET quantity = 7, line_total = 3500 WHERE sale_id = ?', late.id),
    ).toBe(1);
    await t.exec("UPDATE sale_payments SET method = 'card' WHERE sale_id = ? AND line_no = 1", b);
    await expectExact();
    await expectFolded();

    for (const table of ['sale_payments', 'sale_lines'])
      await t.exec(`DELETE FROM ${table} WHERE sale_id = ?`, late.id);
    await t.exec('DELETE FROM sales WHERE id = ?', late.id);
    await expectExact();
    await expectFolded();
    const hourly = await t.query<{ n: number }>('SELECT sum(sales_count) AS n FROM report_sales_hourly');
    expect(Number(hourly[0]!.n)).toBe(3); // the till's sale, 10:45 and the moved one; the void and the deleted are gone
  });

  it('stay exact when folds run beside sales and refreshes on other connections', async () => {
    const med = await makeMedicineId(t, { price: 3 });
    const [a, b] = [await connect(), await connect()];
    try {
      const aPid = await backendPid(a);
      const hour = '2025-05-10T09';
      // A sale written but not committed on `a`: the fold moves what is committed and leaves its deltas.
      await a.query('BEGIN');
      await writeOn(a, sale(`${hour}:10:00.000Z`, [line(med, 1, 300)], [{ method: 'cash', amount: 300 }]));
      await write(sale(`${hour}:20:00.000Z`, [line(med, 2, 300)]));
      expect(await foldSummaryDeltas(t.context)).toBe(true);
      await a.query('COMMIT');
      await expectExact();
      expect(await deltaRows()).toBeGreaterThan(0);
      await expectFolded();

      // A void's refresh holds the lock until its commit: a fold then moves nothing, and a sale committed in
      // the refreshed hour meanwhile keeps its delta.
      const voided = await write(sale(`${hour}:30:00.000Z`, [line(med, 1, 300)]));
      await a.query('BEGIN');
      await a.query('UPDATE sales SET is_deleted = 1 WHERE id = $1', [voided]);
      await write(sale(`${hour}:40:00.000Z`, [line(med, 5, 300)]));
      expect(await foldSummaryDeltas(t.context)).toBe(false);
      await a.query('COMMIT');
      await expectExact();
      await expectFolded();

      // A refresh waits for a fold in progress; a SERIALIZABLE one whose snapshot predates the fold is refused
      // (retried by central like any conflict), never adding the folded sales twice.
      for (const isolation of ['READ COMMITTED', 'SERIALIZABLE']) {
        const moved = await write(sale(`${hour}:50:00.000Z`, [line(med, 1, 300)]));
        await write(sale(`${hour}:55:00.000Z`, [line(med, 3, 300)], [{ method: 'card', amount: 900 }]));
        await a.query(`BEGIN ISOLATION LEVEL ${isolation}`);
        await a.query('SELECT count(*) FROM report_sales_hourly_all');
        await b.query('BEGIN');
        expect((await b.query('SELECT report_fold_deltas() AS folded')).rows[0].folded).toBe(true);
        const move = "UPDATE sales SET sold_at = '2025-05-11T08:00:00.000Z' WHERE id = $1";
        const refresh = a.query(move, [moved]).then(
          () => a.query('COMMIT').then(() => null),
          (err: { code?: string }) => a.query('ROLLBACK').then(() => err.code),
        );
        await waitingForLock(aPid);
        await b.query('COMMIT');
        const refused = await refresh;
        expect(refused, isolation).toBe(isolation === 'SERIALIZABLE' ? '40001' : null);
        if (refused) await a.query(move, [moved]);
        await expectExact();
        await expectFolded();
      }

      // Sales committed one statement at a time on `a` while folds run on the pool.
      const writes = (async () => {
        for (let i = 0; i < 20; i++)
          await writeOn(
            a,
            sale(`${hour}:${String(i).padStart(2, '0')}:30.000Z`, [line(med, 1 + (i % 3), 300)]),
          );
      })();
      const folds = (async () => {
        for (let i = 0; i < 20; i++) await foldSummaryDeltas(t.context);
      })();
      await Promise.all([writes, folds]);
      await expectExact();
      await expectFolded();
    } finally {
      await Promise.all([a.end(), b.end()]);
    }
  });

  it('give the same report figures before and after a fold', async () => {
    const med = await makeMedicineId(t, { price: 4 });
    // The first sale folded, the others in the deltas: the hour and day of the first two in both.
    for (const [soldAt, qty] of [
      ['2025-06-03T07:10:00.000Z', 2],
      ['2025-06-03T07:40:00.000Z', 1],
      ['2025-06-04T15:05:00.000Z', 4],
    ] as const) {
      await write(
        sale(
          soldAt,
          [line(med, qty, 400), line(med, 1, 400, 0)],
          [{ method: 'cash', amount: 400 * qty + 400 }],
        ),
      );
      if (qty === 2) await foldSummaryDeltas(t.context);
    }
    expect(await deltaRows()).toBeGreaterThan(0);
    const admin = await t.adminToken();
    const window = 'from_date=2025-05-01&to_date=2025-06-30';
    const urls = [
      `/api/v1/reports/sales?${window}`,
      `/api/v1/reports/sales/by-pharmacist?${window}`,
      `/api/v1/reports/vat?${window}`,
      `/api/v1/dashboard/branch-comparison?${window}`,
    ];
    const answers = () => Promise.all(urls.map((url) => t.get(url, admin)));
    const before = await answers();
    await expectFolded();
    const after = await answers();
    for (const [i, url] of urls.entries()) {
      expect(before[i]!.status, url).toBe(200);
      expect(after[i]!.body, url).toEqual(before[i]!.body);
    }
  });
});

describe.skipIf(!testingOnPostgres())('report summary folding (PostgreSQL central)', () => {
  it('folds the deltas in the background every REPORT_FOLD_INTERVAL_MS', async () => {
    const central = await startTestServer({ reportFoldIntervalMs: 100 });
    try {
      const writeThere = testSaleWriter(central);
      const med = await makeMedicineId(central, { price: 1 });
      const there = {
        ...sale('2025-07-01T10:00:00.000Z', [line(med, 1, 100)]),
        branchId: await central.mainBranchId(),
      };
      await writeThere({ ...there, userId: (await central.userWithRole('cashier')).id });
      await expect.poll(() => central.count('report_vat_hourly_delta'), { timeout: 10_000 }).toBe(0);
      expect(await central.count('report_vat_hourly')).toBe(1);
    } finally {
      await central.close();
    }
  });
});
