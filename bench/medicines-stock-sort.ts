import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { benchAdminToken, mainThreadCpuMicros, median, spawnTs } from './lib';

/**
 * Issue 30.6: the Medicines table sorted by the branch's stock, `GET /medicines?sort=stock_quantity`, one
 * request at a time (a person clicking the column), each page asked once so none is served from the server's
 * page cache: pages 1-3, 10 and 40 and four deep pages, both orders, all medicines (is_active=all), with a
 * search typed (a short prefix matching thousands), and with each stock filter (low_stock, out_of_stock: first,
 * middle and last pages). Target: every request <= 150 ms over 100,000 medicines. Given the server's pid (a
 * SQLite server: its queries run on its main thread), each request's server CPU time is shown beside its wall time:
 * on 2 cores shared with other work, wall time swings with the machine's load, CPU time hardly does.
 *
 * Runs inside `npm run bench` on the catalogue bench's generated data (100,000 medicines, SQLite); alone:
 *   BENCH_DATA_DIR=./data tsx bench/medicines-stock-sort.ts            (a seeded SQLite data folder)
 *   BENCH_DATA_DIR=./data-central BENCH_CENTRAL_PG=1 tsx bench/medicines-stock-sort.ts
 *     (central on the PostgreSQL cluster that `npm run central:pg` serves from DATA_DIR/pg, e.g. filled by
 *     `npm run generate:sales -- --medicines 100000 --branches 2 --sales 2000 --local-pg ./data-central/pg`)
 */
export interface StockSortFigures {
  medianMs: number;
  maxMs: number;
  rows: Array<{ name: string; ms: number; cpuMs?: number }>;
  /** The server's main-thread CPU per request, when its pid was given. */
  cpu?: { medianMs: number; maxMs: number };
}

export async function runStockSortBench(
  serverUrl: string,
  token: string,
  branchId: string,
  serverPid?: number,
): Promise<StockSortFigures> {
  const headers = { authorization: `Bearer ${token}` };
  const api = `${serverUrl}/api/v1/medicines?page_size=50&branch_id=${branchId}&sort=stock_quantity`;
  const get = async (query: string) => {
    const cpu0 = serverPid ? mainThreadCpuMicros(serverPid) : 0;
    const started = performance.now();
    const res = await fetch(`${api}&${query}`, { headers });
    const body = (await res.json()) as { total: number; items: unknown[] };
    const ms = performance.now() - started;
    const cpuMs = serverPid ? (mainThreadCpuMicros(serverPid) - cpu0) / 1000 : undefined;
    if (!res.ok) throw new Error(`${query}: ${res.status} ${JSON.stringify(body).slice(0, 300)}`);
    return { ms, cpuMs, total: body.total };
  };
  const { total } = await get('order=desc&page=9999');
  const lastPage = Math.max(1, Math.ceil(total / 50));
  const deep = [Math.ceil(lastPage / 4), Math.ceil(lastPage / 2), Math.ceil((lastPage * 3) / 4), lastPage];
  const queries: string[] = [];
  for (const order of ['desc', 'asc'])
    for (const page of [1, 2, 3, 10, 40, ...deep]) queries.push(`order=${order}&page=${page}`);
  for (const order of ['desc', 'asc']) queries.push(`order=${order}&page=5&is_active=all`);
  for (const search of ['a', 'ka', 'para', 'amox 5'])
    for (const order of ['desc', 'asc'])
      for (const page of [1, 3])
        queries.push(`order=${order}&page=${page}&search=${encodeURIComponent(search)}`);
  // The stock filters with the stock sort: first pages, the middle and the last.
  for (const filter of ['low_stock=true', 'low_stock=false', 'out_of_stock=true', 'out_of_stock=false']) {
    const last = Math.max(1, Math.ceil((await get(`order=desc&page=9999&${filter}`)).total / 50));
    for (const order of ['desc', 'asc'])
      for (const page of new Set([1, 2, Math.ceil(last / 2), last]))
        queries.push(`order=${order}&page=${page}&${filter}`);
  }
  const tenth = (n: number) => Math.round(n * 10) / 10;
  const rows: StockSortFigures['rows'] = [];
  for (const q of queries) {
    const { ms, cpuMs } = await get(q);
    rows.push({ name: q, ms: tenth(ms), ...(cpuMs !== undefined && { cpuMs: tenth(cpuMs) }) });
  }
  const times = rows.map((r) => r.ms);
  const cpus = rows.flatMap((r) => (r.cpuMs === undefined ? [] : [r.cpuMs]));
  const figures: StockSortFigures = {
    medianMs: tenth(median(times)),
    maxMs: Math.max(...times),
    rows,
    ...(cpus.length > 0 && { cpu: { medianMs: tenth(median(cpus)), maxMs: Math.max(...cpus) } }),
  };
  console.log(
    `\nMedicines sorted by stock (${total} active medicines), one request at a time, each page once`,
  );
  console.table(
    rows.map((r) => ({
      request: r.name,
      ms: r.ms,
      ...(r.cpuMs !== undefined && { 'server CPU ms': r.cpuMs }),
    })),
  );
  console.log(
    `${figures.maxMs <= 150 ? 'ok  ' : 'MISS'} sorted by stock: median ${figures.medianMs} ms, slowest ${figures.maxMs} ms of ${rows.length} (target <= 150 ms)`,
  );
  if (figures.cpu)
    console.log(
      `     server CPU per request: median ${figures.cpu.medianMs} ms, slowest ${figures.cpu.maxMs} ms (main thread, /proc/PID/schedstat)`,
    );
  return figures;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const dataDir = process.env.BENCH_DATA_DIR;
  if (!dataDir)
    throw new Error('Set BENCH_DATA_DIR to a seeded data folder (npm run seed:demo -- --size large).');
  const onPostgres = process.env.BENCH_CENTRAL_PG === '1';
  const server = await spawnTs(onPostgres ? 'apps/central/src/central-pg.ts' : 'apps/central/src/main.ts', {
    DATA_DIR: path.resolve(dataDir),
    PHARMACY_LIST_PAGE_CACHE: 'off',
  });
  try {
    const token = await benchAdminToken(server.url);
    const branches = (await (
      await fetch(`${server.url}/api/v1/branches?page_size=2`, {
        headers: { authorization: `Bearer ${token}` },
      })
    ).json()) as { items: Array<{ id: string }> };
    await runStockSortBench(
      server.url,
      token,
      branches.items.at(-1)!.id,
      onPostgres ? undefined : server.child.pid,
    );
  } finally {
    await server.stop();
  }
}
