import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REPORT_SUMMARY_SOURCES } from '../../db/migrations/0019_report_summaries';
import { runRaw } from '../../db/prepared';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';
import { startTestServer, type TestServer, testingOnPostgres } from '../../testing/harness';
import { testSaleWriter } from '../../testing/sale-writer';
import {
  SYNTHETIC_TABLES,
  type SyntheticLine,
  syntheticInsertSql,
  syntheticSaleRows,
} from './synthetic-sales';

/**
 * The report summaries of migration 0019 (PostgreSQL only) must equal what they summarise after every kind of
 * write: a sale at the till, sales written row by row, lines and payments stored before their sale (deferred
 * foreign keys, as a pushed sale may be applied), a second payment in the same method, a void, a sale moved
 * to another hour, a delete, and an update that changes no summed column.
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

/** Every summary table's rows next to the same sums computed from the tables now. */
async function summariesAgainstTables() {
  const sorted = (rows: unknown[]) => rows.map((r) => JSON.stringify(Object.values(r as object))).sort();
  const pairs = [];
  for (const s of REPORT_SUMMARY_SOURCES) {
    const stored = await t.query(`SELECT ${s.columns.join(', ')} FROM ${s.table}`);
    const computed = await t.query(`SELECT * FROM (${s.select}) AS x(${s.columns.join(', ')})`);
    pairs.push({ table: s.table, stored: sorted(stored), computed: sorted(computed) });
  }
  return pairs;
}

async function expectExact() {
  for (const { table, stored, computed } of await summariesAgainstTables())
    expect(stored, table).toEqual(computed);
}

beforeAll(async () => {
  t = await startTestServer();
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

    for (const table of ['sale_payments', 'sale_lines'])
      await t.exec(`DELETE FROM ${table} WHERE sale_id = ?`, late.id);
    await t.exec('DELETE FROM sales WHERE id = ?', late.id);
    await expectExact();
    const hourly = await t.query<{ n: number }>('SELECT sum(sales_count) AS n FROM report_sales_hourly');
    expect(Number(hourly[0]!.n)).toBe(3); // the till's sale, 10:45 and the moved one; the void and the deleted are gone
  });
});
