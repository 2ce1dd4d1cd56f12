import fs from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import pg from 'pg';
import { generateSales } from './generate-sales';
import { benchAdminToken, spawnTs, tempDataDir } from './lib';

/**
 * Reports and dashboard on a large sales history (default 1,000,000 sales, 20 branches, 2 years):
 * each endpoint is timed sequentially (one warm-up, then BENCH_BACKOFFICE_RUNS runs) through HTTP against the
 * central server, for one branch and the whole organisation, over the default 30 days and over a year.
 * Targets: every report and the dashboard summary < 1 s, the branch comparison < 500 ms.
 *
 *   BENCH_BACKOFFICE=1 npm run bench                     (generates into a temporary folder, then deletes it)
 *   BENCH_BACKOFFICE_DATA_DIR=./data-bench tsx bench/backoffice.ts   (reuses or fills that folder, keeps it)
 *   BENCH_BACKOFFICE_DATABASE_URL=postgres://… tsx bench/backoffice.ts   (central on PostgreSQL: that database,
 *     filled by generate:sales first when it holds no sale; see docs/SCALING.md)
 */
export interface TimedRoute {
  name: string;
  /** The first (cold) call, before the timed runs. */
  first: number;
  median: number;
  max: number;
  target: number;
  bytes: number;
}

export async function runBackofficeBench(): Promise<TimedRoute[]> {
  const sales = Number(process.env.BENCH_BACKOFFICE_SALES ?? 1_000_000);
  const runs = Number(process.env.BENCH_BACKOFFICE_RUNS ?? 5);
  const keep = process.env.BENCH_BACKOFFICE_DATA_DIR;
  const databaseUrl = process.env.BENCH_BACKOFFICE_DATABASE_URL;
  const dataDir = keep ? path.resolve(keep) : tempDataDir('backoffice');
  const hasData = databaseUrl
    ? await hasSales(databaseUrl)
    : fs.existsSync(path.join(dataDir, 'pharmacy.db'));
  if (!hasData)
    await generateSales({ sales, branches: 20, years: 2, medicines: 500, seed: 42, dataDir, databaseUrl });
  const server = await spawnTs(
    'apps/central/src/main.ts',
    databaseUrl
      ? { DATA_DIR: dataDir, DATABASE_URL: databaseUrl, PHARMACY_MODE: 'central' }
      : { DATA_DIR: dataDir },
  );
  try {
    const token = await benchAdminToken(server.url);
    const get = async (url: string) => {
      const res = await fetch(`${server.url}/api/v1${url}`, {
        headers: { authorization: `Bearer ${token}` },
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`${url}: ${res.status} ${text.slice(0, 300)}`);
      return text;
    };
    const branches = JSON.parse(await get('/branches?page_size=200')) as {
      items: Array<{ id: string; code: string }>;
    };
    const branch = branches.items.find((b) => b.code !== 'MAIN')?.id ?? branches.items[0]!.id;
    const yearAgo = new Date(Date.now() - 364 * 86_400_000).toISOString().slice(0, 10);
    const routes: Array<[string, string, number]> = [];
    for (const [scope, q] of [
      ['organisation', ''],
      ['one branch', `branch_id=${branch}`],
    ] as const) {
      for (const [window, w] of [
        ['30 days', ''],
        ['1 year', `from_date=${yearAgo}`],
      ] as const) {
        const query = [q, w].filter(Boolean).join('&');
        const url = (path: string) => (query ? `${path}?${query}` : path);
        routes.push(
          [`reports/sales (${scope}, ${window})`, url('/reports/sales'), 1000],
          [`reports/sales/by-pharmacist (${scope}, ${window})`, url('/reports/sales/by-pharmacist'), 1000],
          [`reports/vat (${scope}, ${window})`, url('/reports/vat'), 1000],
          [`reports/purchases (${scope}, ${window})`, url('/reports/purchases'), 1000],
        );
      }
      const only = q ? `?${q}` : '';
      routes.push(
        [`reports/inventory (${scope})`, `/reports/inventory${only}`, 1000],
        [`dashboard/summary (${scope})`, `/dashboard/summary${only}`, 1000],
      );
    }
    routes.push(
      [
        'reports/sales csv top_selling (org., 30 days)',
        '/reports/sales?format=csv&section=top_selling',
        1000,
      ],
      ['dashboard/branch-comparison (30 days)', '/dashboard/branch-comparison', 500],
      ['dashboard/branch-comparison (1 year)', `/dashboard/branch-comparison?from_date=${yearAgo}`, 500],
    );
    const rows: TimedRoute[] = [];
    for (const [name, url, target] of routes) {
      const t0 = performance.now();
      const bytes = (await get(url)).length;
      const first = performance.now() - t0;
      const times: number[] = [];
      for (let i = 0; i < runs; i++) {
        const start = performance.now();
        await get(url);
        times.push(performance.now() - start);
      }
      times.sort((a, b) => a - b);
      rows.push({
        name,
        first,
        median: times[Math.floor(times.length / 2)]!,
        max: times.at(-1)!,
        target,
        bytes,
      });
    }
    const counts = JSON.parse(
      await get(
        `/dashboard/branch-comparison?from_date=${new Date(Date.now() - 3 * 365 * 86_400_000).toISOString().slice(0, 10)}`,
      ),
    ) as {
      items: Array<{ sales_count: number }>;
    };
    const total = counts.items.reduce((a, b) => a + b.sales_count, 0);
    console.log(
      `\nBack office on ${total} sales in ${counts.items.length} branches, ${databaseUrl ? 'PostgreSQL' : 'SQLite'} (${runs} runs each, sequential)`,
    );
    console.log(
      `${'route'.padEnd(52)} ${'first ms'.padStart(9)} ${'median ms'.padStart(10)} ${'max ms'.padStart(8)} ${'target'.padStart(7)}  ok`,
    );
    for (const r of rows) {
      console.log(
        `${r.name.padEnd(52)} ${r.first.toFixed(1).padStart(9)} ${r.median.toFixed(1).padStart(10)} ${r.max.toFixed(1).padStart(8)} ${`<${r.target}`.padStart(7)}  ${r.max < r.target ? 'yes' : 'NO'}`,
      );
    }
    return rows;
  } finally {
    await server.stop();
    if (!keep) fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function hasSales(url: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const found = await client.query("SELECT 1 FROM information_schema.tables WHERE table_name = 'sales'");
    return found.rowCount !== 0 && (await client.query('SELECT 1 FROM sales LIMIT 1')).rowCount !== 0;
  } finally {
    await client.end();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runBackofficeBench();
