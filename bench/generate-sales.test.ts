import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, query } from '../packages/server/src/db/local-postgres';
import { generateSales, progressReporter } from './generate-sales';

/** On the PostgreSQL run (PHARMACY_TEST_DB=postgres) the rows go to a database of the run's cluster by COPY. */
const onPostgres = process.env.PHARMACY_TEST_DB === 'postgres';
const dir = mkdtempSync(path.join(tmpdir(), 'generate-sales-'));
const database = `generate_sales_${process.pid}`;
const databaseUrl = () => {
  const url = new URL(inject('postgresAdminUrl'));
  url.pathname = `/${database}`;
  return url.toString();
};

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (onPostgres) await dropTestDatabase(inject('postgresAdminUrl'), database);
});

type Held = { n: number; lines: number; indexes: number };

async function held(): Promise<Held> {
  const count = `SELECT COUNT(*) AS n, (SELECT COUNT(*) FROM sale_lines) AS lines FROM sales WHERE device_id LIKE 'gen-device-%'`;
  if (onPostgres) {
    const [row] = await query<{ n: string; lines: string }>(databaseUrl(), count);
    const [ix] = await query<{ n: string }>(
      databaseUrl(),
      "SELECT COUNT(*) AS n FROM pg_indexes WHERE tablename IN ('sales', 'sale_lines', 'sale_payments')",
    );
    return { n: Number(row!.n), lines: Number(row!.lines), indexes: Number(ix!.n) };
  }
  const db = new Database(path.join(dir, 'pharmacy.db'), { readonly: true });
  const row = db.prepare(count).get() as { n: number; lines: number };
  db.close();
  return { ...row, indexes: -1 };
}

describe('generate:sales', () => {
  it('says what it does from the first second and ends at 100 %, with the rows it reports and every index', async () => {
    let indexesBefore = -1;
    if (onPostgres) {
      await createTestDatabase(inject('postgresAdminUrl'), database);
      indexesBefore = (await held()).indexes;
    }
    const lines: string[] = [];
    const done = await generateSales({
      sales: 3000,
      branches: 2,
      years: 1,
      medicines: 30,
      seed: 7,
      dataDir: dir,
      ...(onPostgres && { databaseUrl: databaseUrl() }),
      log: (line) => lines.push(line),
    });
    expect(lines[0]).toMatch(/^opening the database/);
    expect(lines).toContainEqual(expect.stringMatching(/^batches: 120\/120 \(100\.0 %\)/));
    expect(lines).toContainEqual(
      expect.stringMatching(/^sales: 3,000\/3,000 \(100\.0 %\), [\d,]+\/s, .* 0 s left$/),
    );
    const after = await held();
    expect(after.lines).toBe(done.lines);
    expect(after.n).toBeGreaterThan(2900);
    expect(after.n).toBeLessThanOrEqual(3000);
    if (onPostgres) {
      expect(lines).toContainEqual(
        expect.stringMatching(/secondary indexes of sales, sale_lines, sale_payments deferred/),
      );
      expect(after.indexes).toBe(indexesBefore);
    }
  });

  it('reports at most every interval, and always the last row', () => {
    const lines: string[] = [];
    const progress = progressReporter('rows', 10, (l) => lines.push(l), 60_000);
    for (let i = 1; i <= 10; i++) progress.tick(i);
    expect(lines).toEqual([expect.stringMatching(/^rows: 10\/10 \(100\.0 %\)/)]);
  });
});
