import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import path from 'node:path';
import {
  benchAdminToken,
  benchApi,
  load,
  type LoadResult,
  median,
  printTable,
  type Spawned,
  spawnTs,
  stockedMedicines,
  tempDataDir,
} from './lib';

/**
 * Sales made to warm each process, and in the Z-report's session: `npm run bench:smoke`, which only checks the
 * bench still runs, makes fewer (its figures are not the targets' anyway: 1-second loads, one round).
 */
const WARM_UP_SALES = Number(process.env.BENCH_WARM_UP_SALES ?? 500);
const Z_REPORT_SALES = Number(process.env.BENCH_Z_REPORT_SALES ?? 2000);

/**
 * Selling: a 5-line sale through POST /api/v1/sales against its floor (bench/selling-floor.ts: the same SQL as
 * raw prepared statements in a bare Express route, on a copy of the same database), at 10 and 1 connections,
 * synchronous=FULL; a 200-line sale; the Z-report of a session with 2,000 sales (BENCH_Z_REPORT_SALES). At 10
 * connections the endpoint and its floor alternate over BENCH_ROUNDS (3) rounds, compared per round: this VM's
 * disk and CPU swing by a third between runs a minute apart.
 */
export async function runSellingBench(
  seconds = Number(process.env.BENCH_SECONDS ?? 5),
): Promise<LoadResult[]> {
  const dataDir = tempDataDir('selling');
  const floorDir = tempDataDir('selling-floor');
  let server: Spawned = await spawnTs('apps/central/src/main.ts', { DATA_DIR: dataDir });
  let floor: Spawned | undefined;
  try {
    const token = await benchAdminToken(server.url);
    const api = benchApi(() => server.url, token);
    const meds = await stockedMedicines(api, 200, (i) => (i < 5 ? 1_000_000 : 100_000));
    const five = meds.slice(0, 5).map((medicine_id) => ({ medicine_id, quantity: 1 }));
    const saleLoad = (url: string, connections: number, name: string, auth = true) =>
      load(name, {
        url,
        method: 'POST',
        connections,
        seconds,
        headers: auth ? { authorization: `Bearer ${token}` } : {},
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ items: five, client_mutation_id: randomUUID() }),
        }),
      });
    // Every sale is made in an open cash session, whoever sells (issue 28.5): the loads sell in this one.
    await api('POST', '/sessions/open', { opening_float: 100 });
    // The floor runs on a copy of the catalogue and stock just made (and of the device id the first sale
    // creates); both serve from here on.
    await api('POST', '/sales', { items: five, client_mutation_id: randomUUID() });
    await server.stop();
    for (const file of ['pharmacy.db', 'pharmacy.db-wal'])
      if (fs.existsSync(path.join(dataDir, file)))
        fs.copyFileSync(path.join(dataDir, file), path.join(floorDir, file));
    server = await spawnTs('apps/central/src/main.ts', { DATA_DIR: dataDir });
    floor = await spawnTs('bench/selling-floor.ts', { DATA_DIR: floorDir });
    // Both processes just started: a few hundred sales each first, so that no round measures the JIT at work.
    for (const url of [`${server.url}/api/v1/sales`, `${floor.url}/sale`])
      await load('warm-up', {
        url,
        method: 'POST',
        connections: 10,
        amount: WARM_UP_SALES,
        headers: { authorization: `Bearer ${token}` },
        setupRequest: (req) => ({
          ...req,
          body: JSON.stringify({ items: five, client_mutation_id: randomUUID() }),
        }),
      });
    const rows: LoadResult[] = [];
    const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
    const ratio: number[] = [];
    const real10: LoadResult[] = [];
    const floor10: LoadResult[] = [];
    for (let round = 1; round <= rounds; round++) {
      const r = await saleLoad(`${server.url}/api/v1/sales`, 10, `POST /sales, 10 conn (round ${round})`);
      const f = await saleLoad(`${floor.url}/sale`, 10, `floor, 10 conn (round ${round})`, false);
      rows.push(r, f);
      real10.push(r);
      floor10.push(f);
      ratio.push(r.rps / f.rps);
    }
    const real1 = await saleLoad(`${server.url}/api/v1/sales`, 1, 'POST /sales, 1 conn');
    const floor1 = await saleLoad(`${floor.url}/sale`, 1, 'floor, 1 conn', false);
    rows.push(real1, floor1);

    // A 200-line sale, and the Z-report of a session with Z_REPORT_SALES sales.
    const big = meds.map((medicine_id) => ({ medicine_id, quantity: 1 }));
    let t0 = performance.now();
    await api('POST', '/sales', { items: big, client_mutation_id: randomUUID() });
    const bigMs = performance.now() - t0;
    await api('POST', '/sessions/close', { counted_cash: 0 });
    await api('POST', '/sessions/open', { opening_float: 100 });
    const session = (await api('GET', '/sessions/current')) as { id: string };
    for (let i = 0; i < Z_REPORT_SALES; i += 20)
      await Promise.all(
        Array.from({ length: 20 }, () =>
          api('POST', '/sales', { items: five.slice(0, 2), client_mutation_id: randomUUID() }),
        ),
      );
    await api('POST', '/sessions/close', { counted_cash: 0 });
    await api('GET', `/sessions/${session.id}/z-report`);
    t0 = performance.now();
    const z = await api('GET', `/sessions/${session.id}/z-report`);
    const zMs = performance.now() - t0;

    printTable('Selling, 5-line sales, loopback, synchronous=FULL', rows);
    const list = (xs: number[]) => xs.map((x) => x.toFixed(0)).join(', ');
    console.log(
      `sale/floor at 10 conn = ${median(ratio).toFixed(2)}, median of rounds ${ratio.map((r) => r.toFixed(2)).join(', ')} (target >= 0.40); ${median(real10.map((r) => r.rps))} sales/s, rounds ${list(real10.map((r) => r.rps))} (target >= 300/s); p99 ${median(real10.map((r) => r.p99))} ms vs floor ${median(floor10.map((r) => r.p99))} ms (target <= 2x); 1-conn p99 ${real1.p99} ms, floor ${floor1.p99} ms (target < 15 ms)`,
    );
    console.log(
      `200-line sale: ${bigMs.toFixed(1)} ms (target < 100 ms); Z-report of ${z.sales_count} sales: ${zMs.toFixed(1)} ms (target < 200 ms)`,
    );
    return rows;
  } finally {
    await server.stop().catch(() => undefined);
    await floor?.stop().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
    fs.rmSync(floorDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runSellingBench();
