import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { performance } from 'node:perf_hooks';
import Database from 'better-sqlite3';
import pg from 'pg';
import { validate, version } from 'uuid';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { createTestDatabase, dropTestDatabase, query } from '../packages/server/src/db/local-postgres';
import { REPORT_SUMMARY_SOURCES } from '../packages/server/src/db/migrations/0019_report_summaries';
import { REPORT_SUMMARY_TOTALS } from '../packages/server/src/db/migrations/0020_report_summary_deltas';
import {
  SYNTHETIC_COLUMNS,
  SYNTHETIC_TABLES,
  type SyntheticTable,
} from '../packages/server/src/modules/reports/synthetic-sales';
import { type GenerateOptions, generateSales } from './generate-sales';
import { bulkIds } from './bulk-ids';
import { plainLine } from './copy-text';
import { copyLine } from './row-sink';
import { bundleEntry, CACHED_BUNDLE } from '../packages/server/src/testing/server-bundle';
import { RunProgress } from './run-progress';
import { blockCount, isoClock, makeBlock, type SalesPlan } from './sales-maker';
import { makeInWorkers } from './sales-worker';

/**
 * generate:sales on the run's dialect: SQLite by default, a database of the run's cluster by COPY on the
 * PostgreSQL run (PHARMACY_TEST_DB=postgres), where a load as large as the history is written the bulk way
 * (plain indexes built after it, the summaries' INSERT triggers dropped and the summaries rebuilt with
 * migration 0019's backfill) and everything it changed must be back after it, whether it ends, fails or is
 * killed.
 */
const onPostgres = process.env.PHARMACY_TEST_DB === 'postgres';
const dir = mkdtempSync(path.join(tmpdir(), 'generate-sales-'));
const database = `generate_sales_${process.pid}`;
/** A database loaded while empty, killed, then put back by the next run (the keys it drops). */
const emptyDatabase = `${database}_empty`;
const databaseUrl = (name = database) => {
  const url = new URL(inject('postgresAdminUrl'));
  url.pathname = `/${name}`;
  return url.toString();
};

beforeAll(async () => {
  if (onPostgres) {
    await createTestDatabase(inject('postgresAdminUrl'), database);
    await createTestDatabase(inject('postgresAdminUrl'), emptyDatabase);
  }
});

afterAll(async () => {
  rmSync(dir, { recursive: true, force: true });
  if (onPostgres) {
    await dropTestDatabase(inject('postgresAdminUrl'), database);
    await dropTestDatabase(inject('postgresAdminUrl'), emptyDatabase);
  }
});

const options = (o: Partial<GenerateOptions>): GenerateOptions => ({
  sales: 1000,
  branches: 2,
  years: 1,
  medicines: 30,
  seed: 7,
  dataDir: dir,
  ...(onPostgres && { databaseUrl: databaseUrl() }),
  ...o,
});

type Held = { n: number; lines: number };

async function held(): Promise<Held> {
  const count = 'SELECT (SELECT COUNT(*) FROM sales) AS n, (SELECT COUNT(*) FROM sale_lines) AS lines';
  if (onPostgres) {
    const [row] = await query<{ n: string; lines: string }>(databaseUrl(), count);
    return { n: Number(row!.n), lines: Number(row!.lines) };
  }
  const db = new Database(path.join(dir, 'pharmacy.db'), { readonly: true });
  const row = db.prepare(count).get() as Held;
  db.close();
  return row;
}

/** What a load may change on PostgreSQL: the indexes, the summaries' INSERT triggers (and whether they fire always). */
async function schema(url = databaseUrl()) {
  const indexes = await query<{ name: string }>(
    url,
    `SELECT indexname AS name FROM pg_indexes WHERE schemaname = 'public'
      AND tablename IN ('sales', 'sale_lines', 'sale_payments', 'batches', 'stock_movements') ORDER BY 1`,
  );
  const triggers = await query<{ name: string; enabled: string }>(
    url,
    "SELECT tgname AS name, tgenabled AS enabled FROM pg_trigger WHERE tgname LIKE 'report\\_%' ORDER BY 1",
  );
  // Keys of the sales tables and the foreign keys to them (a load into empty tables drops and re-adds them).
  const constraints = await query<{ name: string; type: string; validated: boolean }>(
    url,
    `SELECT r.relname || '.' || k.conname AS name, k.contype AS type, k.convalidated AS validated
       FROM pg_constraint k JOIN pg_class r ON r.oid = k.conrelid
      WHERE r.relname IN ('sales', 'sale_lines', 'sale_payments')
         OR k.confrelid IN (SELECT oid FROM pg_class WHERE relname IN ('sales', 'sale_lines', 'sale_payments'))
      ORDER BY 1`,
  );
  const pending = await query<{ t: string | null }>(url, "SELECT to_regclass('generate_sales_pending') AS t");
  return { indexes: indexes.map((i) => i.name), constraints, triggers, pending: pending[0]!.t };
}

const sorted = (rows: object[]) => rows.map((r) => JSON.stringify(Object.values(r))).sort();

/** Every summary as readers read it (the summary and its deltas, summed per key), table by table. */
async function storedSummaries(client: pg.Client) {
  const out: Record<string, string[]> = {};
  for (const [i, s] of REPORT_SUMMARY_SOURCES.entries())
    out[s.table] = sorted(
      (
        await client.query(
          `SELECT * FROM (${REPORT_SUMMARY_TOTALS[i]!.select}) AS x(${s.columns.join(', ')})`,
        )
      ).rows,
    );
  return out;
}

/** Every summary computed from the tables now, with migration 0019's backfill SELECTs. */
async function backfillSummaries(client: pg.Client) {
  const out: Record<string, string[]> = {};
  for (const s of REPORT_SUMMARY_SOURCES)
    out[s.table] = sorted(
      (await client.query(`SELECT * FROM (${s.select}) AS x(${s.columns.join(', ')})`)).rows,
    );
  return out;
}

/**
 * The summaries the INSERT triggers write for the same rows: in a transaction rolled back afterwards, the sales
 * tables and summaries emptied and the rows inserted again (sales, then lines, then payments, as a sale is
 * written), so the triggers build the summaries from nothing.
 */
async function triggerSummaries(client: pg.Client) {
  const tables = ['sales', 'sale_lines', 'sale_payments'];
  await client.query('BEGIN');
  try {
    for (const t of tables)
      await client.query(`CREATE TEMP TABLE copy_${t} ON COMMIT DROP AS SELECT * FROM ${t}`);
    await client.query(`TRUNCATE ${tables.join(', ')} CASCADE`);
    for (const s of REPORT_SUMMARY_SOURCES) await client.query(`TRUNCATE ${s.table}, ${s.table}_delta`);
    for (const t of tables) await client.query(`INSERT INTO ${t} SELECT * FROM copy_${t}`);
    return await storedSummaries(client);
  } finally {
    await client.query('ROLLBACK');
  }
}

async function withClient<T>(work: (client: pg.Client) => Promise<T>, url = databaseUrl()): Promise<T> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

async function expectSummariesExact(url = databaseUrl()) {
  await withClient(async (client) => {
    const stored = await storedSummaries(client);
    expect(Object.values(stored).flat().length).toBeGreaterThan(0);
    expect(stored).toEqual(await backfillSummaries(client));
  }, url);
}

/**
 * generate:sales as a process: its CommonJS bundle (bundleEntry, rebuilt when a source changed, else reused),
 * which starts on a fraction of the CPU tsx takes to compile the server again in every process.
 */
let generator: string | undefined;

/**
 * Runs generate:sales as its own process on `url` and kills it (SIGKILL) in its sales phase, once a progress
 * line counts past its first batch (so that batch was handed to the database). Batches of 2,000 sales rather
 * than the load's 20,000: the kill needs one stored and the run far from its end, which 60,000 planned leaves
 * it (the workers make at most four batches ahead), not the 40,000 rows or more a 20,000-sale batch had the
 * workers make and the next run index and summarise again. `workers`: the threads making the sales (0: the
 * main thread), each of which starts on the whole bundle (about a second of CPU).
 */
async function killDuringSales(url: string, workers: number): Promise<void> {
  generator ??= await bundleEntry('generate-sales', 'bench/generate-sales.ts');
  const child = spawn(
    process.execPath,
    [CACHED_BUNDLE, generator, '--database-url', url].concat(
      ['--sales', '60000', '--branches', '2', '--medicines', '30', '--years', '1', '--seed', '11'],
      ['--batch-sales', '2000', '--workers', String(workers), '--progress-every-ms', '100'],
    ),
    { cwd: fileURLToPath(new URL('..', import.meta.url)), stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise((resolve) => child.once('exit', resolve));
  let output = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk: Buffer) => {
      output += chunk.toString();
      // A progress line of the sales phase past its first batch: indexes and triggers are gone, rows stored.
      const made = [...output.matchAll(/\] sales: ([\d,]+)\//g)].map((m) => Number(m[1]!.replace(/,/g, '')));
      if (made.some((n) => n > 2_000)) resolve();
    });
    child.once('exit', () => reject(new Error(`generate:sales ended before its sales:\n${output}`)));
  });
  child.kill('SIGKILL');
  await exited;
}

describe('generate:sales', () => {
  it('says what every phase does from its first second, ends each one, and stores the rows it reports', async () => {
    const before = onPostgres ? await schema() : undefined;
    const lines: string[] = [];
    // 1,000 sales: four blocks of 250, each a progress line; the history the tests below grow starts small.
    const done = await generateSales(options({ sales: 1000, progressEveryMs: 0, log: (l) => lines.push(l) }));
    expect(lines[0]).toMatch(/^generating 1,000 sales over 1 year\(s\) into /);
    const phases = onPostgres
      ? ['migrations', 'catalogue', 'batches', 'sales', 'indexes', 'VACUUM ANALYZE', 'summaries']
      : ['migrations', 'catalogue', 'batches', 'sales', 'ANALYZE'];
    for (const [i, phase] of phases.entries()) {
      const at = `[${i + 1}/${phases.length}] ${phase}: `;
      const started = lines.findIndex((l) => l.startsWith(`${at}started`));
      const ended = lines.findIndex((l) => l.startsWith(at) && / in \d+ s[,;]/.test(l));
      expect(started, phase).toBeGreaterThanOrEqual(0);
      expect(ended, phase).toBeGreaterThan(started);
    }
    expect(lines).toContainEqual(expect.stringMatching(/^\[3\/\d\] batches: 120\/120 \(100\.0 %\)/));
    expect(lines).toContainEqual(
      expect.stringMatching(
        /^\[4\/\d\] sales: 1,000\/1,000 \(100\.0 %\), [\d,]+ sales\/s, .*, 0 s left; run /,
      ),
    );
    expect(lines.at(-1)).toMatch(/^done: 1,000 sales, [\d,]+ lines in [\d.]+ s \([\d,]+ sales\/s overall/);
    const after = await held();
    expect(after.lines).toBe(done.lines);
    // The newest sales may fall after now (today's later hours) and are left out.
    expect(after.n).toBeGreaterThan(950);
    expect(after.n).toBeLessThanOrEqual(1000);
    if (before) {
      expect(lines).toContainEqual(
        expect.stringMatching(
          /20 plain indexes of sales, sale_lines, sale_payments, batches, stock_movements deferred to the end of the load; loaded empty, sales, sale_lines, sale_payments without their 6 keys and the 4 foreign keys to them until after it/,
        ),
      );
      // 19 plain indexes and sales_device_icv (unique, no constraint); the keys built, the foreign keys validated.
      expect(lines).toContainEqual(
        expect.stringMatching(/^\[5\/7\] indexes: 20 indexes, 6 keys, 4 foreign keys in /),
      );
      expect(before.constraints.length).toBeGreaterThan(10);
      expect(before.constraints.every((c) => c.validated)).toBe(true);
      expect(lines).toContainEqual(expect.stringMatching(/^\[6\/7\] VACUUM ANALYZE: 8 tables in /));
      // The catalogue and its kept stock too, which the batches' triggers fill: statistics for the stock sort.
      const unvacuumed = await query<{ relname: string }>(
        databaseUrl(),
        `SELECT relname FROM pg_stat_user_tables
          WHERE relname IN ('medicines', 'medicine_stock', 'medicine_stock_counts', 'sales')
            AND (last_vacuum IS NULL OR last_analyze IS NULL)`,
      );
      expect(unvacuumed).toEqual([]);
      expect(lines).toContainEqual(expect.stringMatching(/^\[7\/7\] summaries: 5 summaries rebuilt/));
      expect(await schema()).toEqual(before);
      await expectSummariesExact();
    }
  }, 120_000);

  it.skipIf(!onPostgres)(
    'grows a history the bulk way and with triggers on, and its summaries equal what the triggers write, row for row',
    async () => {
      const before = await schema();
      const bulk: string[] = [];
      // 1,500 sales are at least as many as are stored (1,000 from the test above): a bulk load over that history.
      await generateSales(options({ sales: 1500, seed: 8, log: (l) => bulk.push(l) }));
      expect(bulk).toContainEqual(
        expect.stringMatching(/INSERT triggers dropped, the summaries rebuilt after it/),
      );
      // 500 onto 2,500 or more: the sales written with their indexes and the summaries' triggers in place.
      const small: string[] = [];
      await generateSales(options({ sales: 500, seed: 9, log: (l) => small.push(l) }));
      expect(small).not.toContainEqual(
        expect.stringMatching(/sales, sale_lines, sale_payments|triggers dropped/),
      );
      expect(small).toContainEqual(expect.stringMatching(/summaries: kept by their triggers/));
      expect(await schema()).toEqual(before);
      await withClient(async (client) => {
        const stored = await storedSummaries(client);
        expect(stored).toEqual(await backfillSummaries(client));
        expect(stored).toEqual(await triggerSummaries(client));
      });
    },
    180_000,
  );

  it('stopped halfway (Ctrl-C), keeps the batches it stored and puts back every index, trigger and summary', async () => {
    const before = onPostgres ? await schema() : undefined;
    const stored = await held();
    const stop = new AbortController();
    const lines: string[] = [];
    const run = generateSales(
      options({
        // Batches of 2,000 (the load's are 20,000): one stored and the next under way is the point, and the
        // index builds, summaries and checks after it cost what was stored.
        sales: 20_000,
        batchSales: 2000,
        seed: 10,
        progressEveryMs: 0,
        signal: stop.signal,
        log: (l) => {
          lines.push(l);
          // Counted in order (the batches stored, then the part of the next one made): past 2,500, one batch was
          // handed to the database and the second is not complete (made by the main thread, or by two workers).
          const made = /^\[4\/\d\] sales: ([\d,]+)\//.exec(l)?.[1];
          if (made && Number(made.replace(/,/g, '')) >= 2_500) stop.abort(new Error('stopped by the test'));
        },
      }),
    );
    await expect(run).rejects.toThrow('stopped by the test');
    expect(lines).toContainEqual(expect.stringMatching(/^failed: stopped by the test; putting back/));
    const after = await held();
    // The first 2,000-sale batch was stored before the stop; the one being made was not.
    expect(after.n - stored.n).toBeGreaterThan(1_900);
    expect(after.n - stored.n).toBeLessThanOrEqual(2_000);
    if (before) {
      expect(await schema()).toEqual(before);
      await expectSummariesExact();
    }
  }, 240_000);

  it.skipIf(!onPostgres)(
    'killed in the middle of its sales, leaves what the next run puts back before anything else',
    async () => {
      const before = await schema();
      // With its two worker threads, as a load runs (started on the bundle, they are tested nowhere else).
      await killDuringSales(databaseUrl(), 2);
      const killed = await schema();
      expect(killed.pending).toBe('generate_sales_pending');
      expect(killed.indexes.length).toBeLessThan(before.indexes.length);
      expect(killed.triggers.map((t) => t.name)).not.toContain('report_sales_insert');

      const lines: string[] = [];
      await generateSales(options({ sales: 300, seed: 12, log: (l) => lines.push(l) }));
      expect(lines).toContainEqual(expect.stringMatching(/a stopped run left generate_sales_pending/));
      expect(await schema()).toEqual(before);
      await expectSummariesExact();
    },
    240_000,
  );

  it.skipIf(!onPostgres)(
    'killed while loading an empty database without its keys, the next run builds the keys and validates the foreign keys',
    async () => {
      // The database of the tests above holds the same migrations: its schema is what a finished load leaves.
      const expected = await schema();
      const url = databaseUrl(emptyDatabase);
      // The sales made on the main thread: what this test holds is the keys, and the threads cost their start.
      await killDuringSales(url, 0);
      const killed = await schema(url);
      expect(killed.pending).toBe('generate_sales_pending');
      const keys = (s: typeof killed) => s.constraints.filter((c) => c.type !== 'c').map((c) => c.name);
      expect(keys(killed)).not.toContain('sales.sales_pkey');
      expect(keys(killed)).not.toContain('sale_lines.sale_lines_sale_id_fkey');
      expect(killed.indexes).not.toContain('sales_device_icv');

      const lines: string[] = [];
      await generateSales(options({ sales: 300, seed: 12, databaseUrl: url, log: (l) => lines.push(l) }));
      expect(lines).toContainEqual(expect.stringMatching(/a stopped run left generate_sales_pending/));
      expect(lines).toContainEqual(expect.stringMatching(/indexes: 20 indexes, 6 keys, 4 foreign keys in /));
      expect(await schema(url)).toEqual(expected);
      await expectSummariesExact(url);
    },
    240_000,
  );
});

describe('the progress of a run', () => {
  it('prints a tick at most every interval, and always the end of a phase with its rate', () => {
    const lines: string[] = [];
    const progress = new RunProgress((l) => lines.push(l), ['rows'], 60_000);
    progress.begin('rows', { total: 10, unit: 'rows' });
    for (let i = 1; i <= 10; i++) progress.tick(i);
    progress.end();
    progress.close();
    expect(lines).toEqual([
      expect.stringMatching(/^\[1\/1\] rows: started \(10 rows\), 0 s into the run$/),
      expect.stringMatching(/^\[1\/1\] rows: 10 rows in 0 s, [\d,]+ rows\/s; run 0 s so far$/),
    ]);
  });

  it('prints a line every interval while a phase waits on the database, with what its poll says', async () => {
    const lines: string[] = [];
    const progress = new RunProgress((l) => lines.push(l), ['load', 'indexes'], 40);
    progress.begin('indexes', {
      total: 200,
      unit: 'pages',
      poll: async () => ({ done: 50, detail: 'building x' }),
    });
    const started = performance.now();
    while (performance.now() - started < 400) await new Promise((r) => setTimeout(r, 20));
    progress.end('1 index');
    progress.close();
    const beats = lines.filter((l) => l.startsWith('[2/2] indexes: 50/200 (25.0 %)'));
    expect(beats.length).toBeGreaterThanOrEqual(3);
    expect(beats[0]).toMatch(/pages\/s, building x, 0 s so far, 0 s left; run 0 s$/);
    expect(lines.at(-1)).toMatch(/^\[2\/2\] indexes: 1 index in 0 s/);
  });
});

describe('rows as COPY text', () => {
  it('separates values by tabs, writes NULL as \\N and escapes backslashes, tabs, newlines and returns', () => {
    expect(copyLine(['a', 1, null, ''])).toBe('a\t1\t\\N\t\n');
    expect(copyLine(['x\ty', 'back\\slash', 'two\nlines\r'])).toBe('x\\ty\tback\\\\slash\ttwo\\nlines\\r\n');
  });

  it("writes a time as toISOString writes it, the day's part reused", () => {
    const iso = isoClock();
    const start = Date.UTC(2024, 1, 28, 20);
    for (let ms = start; ms < start + 3 * 86_400_000; ms += 999_983)
      expect(iso(ms)).toBe(new Date(ms).toISOString());
    for (const ms of [0, Date.UTC(2025, 11, 31, 23, 59, 59, 999), Date.UTC(2026, 0, 1)])
      expect(iso(ms)).toBe(new Date(ms).toISOString());
  });
});

// No database: run once, in the SQLite run.
describe.skipIf(onPostgres)('the sales made in worker threads', () => {
  const plan: SalesPlan = {
    seed: 5,
    sales: 7_300,
    now: Date.UTC(2026, 5, 1, 12),
    days: 30,
    firstDay: Math.floor(Date.UTC(2026, 5, 1) / 86_400_000) - 29,
    currency: 'TZS',
    branches: ['branch-a', 'branch-b', 'branch-c'],
    devices: ['till-a', 'till-b', 'till-c'],
    users: [['ua1', 'ua2'], ['ub1'], ['uc1', 'uc2', 'uc3']],
    medicines: Array.from({ length: 12 }, (_, i) => ({
      medicineId: `med-${i}`,
      name: `Medicine ${i}`,
      quantity: 1,
      unitPrice: 100 * (i + 1),
      vatRate: i % 3 === 0 ? 0 : 18,
      vatCategory: i % 3 === 0 ? 'exempt' : 'standard',
      unitCost: 60 * (i + 1),
    })),
    popular: 3,
  };
  /** The generator's own ids (UUIDv7) and the hashes made of them differ from run to run: the rest may not. */
  const withoutIds = (text: string) =>
    text
      .replace(/[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'ID')
      .replace(/\b[0-9a-f]{64}\b/g, 'HASH');
  const decode = new TextDecoder();

  it('are the sales the main thread makes for the seed, row for row but the ids, with every till counting 1, 2, 3 … without a gap', async () => {
    const perTask = 4; // 1,000 sales a batch, the last one short (7,300)
    const onMain: Record<SyntheticTable, string[]> = { sales: [], sale_lines: [], sale_payments: [] };
    const icv = new Int32Array(plan.branches.length).fill(40);
    const tasks: Array<{ firstBlock: number; blocks: number; icv: Int32Array }> = [];
    const ids = bulkIds();
    const iso = isoClock();
    for (let first = 0; first < blockCount(plan); first += perTask) {
      const n = Math.min(perTask, blockCount(plan) - first);
      tasks.push({ firstBlock: first, blocks: n, icv: icv.slice() });
      for (let b = first; b < first + n; b++)
        makeBlock(plan, b, icv, ids, iso, (table, values) => onMain[table].push(plainLine(values)));
    }
    const inWorkers: Record<SyntheticTable, string[]> = { sales: [], sale_lines: [], sale_payments: [] };
    const progress: number[] = [];
    const lines = await makeInWorkers(plan, {
      workers: 2,
      tasks,
      progress: (done) => progress.push(done),
      async store(batch) {
        for (const { table, chunks } of batch.tables)
          inWorkers[table].push(chunks.map((c) => decode.decode(c)).join(''));
      },
    });
    expect(tasks.length).toBe(8);
    for (const table of SYNTHETIC_TABLES) {
      expect(withoutIds(inWorkers[table].join(''))).toBe(withoutIds(onMain[table].join('')));
    }
    expect(lines).toBe(onMain.sale_lines.length);
    expect(progress.at(-1)).toBe(plan.sales);
    // Counted in order: never backwards.
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
    const counters = new Map<string, number[]>();
    for (const line of inWorkers.sales.join('').trimEnd().split('\n')) {
      const v = line.split('\t');
      const till = v[SYNTHETIC_COLUMNS.sales.indexOf('device_id')]!;
      counters.set(till, [...(counters.get(till) ?? []), Number(v[SYNTHETIC_COLUMNS.sales.indexOf('icv')])]);
    }
    expect([...counters.keys()].sort()).toEqual([...plan.devices]);
    for (const [till, n] of counters) {
      expect(n, till).toEqual(n.map((_, i) => 41 + i));
    }
  }, 60_000);

  it('stop when asked, after the batch being stored, and end their threads', async () => {
    const stop = new AbortController();
    const stored: number[] = [];
    const tasks = Array.from({ length: 8 }, (_, t) => ({
      firstBlock: 2 * t,
      blocks: 2,
      icv: new Int32Array(plan.branches.length),
    }));
    const run = makeInWorkers(plan, {
      workers: 2,
      tasks,
      signal: stop.signal,
      progress: (done) => {
        if (done >= 600) stop.abort(new Error('stopped by the test'));
      },
      async store(batch) {
        stored.push(batch.task);
      },
    });
    await expect(run).rejects.toThrow('stopped by the test');
    expect(stored).toEqual([0]);
  }, 60_000);
});

describe('the generated rows’ ids', () => {
  it('are UUIDv7 text as uuid writes it, distinct and in the order they were made', () => {
    const next = bulkIds();
    const made = Array.from({ length: 20_000 }, () => next());
    for (const id of made.filter((_, i) => i % 997 === 0)) {
      expect(validate(id)).toBe(true);
      expect(version(id)).toBe(7);
    }
    expect(new Set(made).size).toBe(made.length);
    expect([...made].sort()).toEqual(made);
    // The first 48 bits are the time it was made, in milliseconds.
    const ms = Number.parseInt(made.at(-1)!.replace(/-/g, '').slice(0, 12), 16);
    expect(Math.abs(ms - Date.now())).toBeLessThan(60_000);
  });
});
