import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { type LoadResult, load, loginToken, printTable, spawnTs, tempDataDir } from './lib';

/**
 * Selling: a 5-line sale through POST /api/v1/sales against its floor (bench/selling-floor.ts: the same SQL as
 * raw prepared statements in a bare Express route), at 10 and 1 connections, synchronous=FULL; a 200-line sale;
 * the Z-report of a session with 2,000 sales.
 */
export async function runSellingBench(
  seconds = Number(process.env.BENCH_SECONDS ?? 5),
): Promise<LoadResult[]> {
  const dataDir = tempDataDir('selling');
  const server = await spawnTs('apps/central/src/main.ts', { DATA_DIR: dataDir });
  let stopped = false;
  try {
    const token = await loginToken(server.url, 'admin@pharmacy.local', 'Admin#12345');
    const api = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${server.url}/api/v1${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const json = (await res.json()) as Record<string, unknown>;
      if (res.status >= 300) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(json)}`);
      return json;
    };
    const supplier = await api('POST', '/suppliers', { name: 'Bench Supplier' });
    const meds: string[] = [];
    for (let i = 0; i < 200; i++) {
      const m = await api('POST', '/medicines', {
        name: `Bench medicine ${i}`,
        selling_price: 2.5 + i,
        vat_category: 'standard',
      });
      meds.push(String(m.id));
      await api('POST', '/purchases', {
        medicine_id: m.id,
        supplier_id: supplier.id,
        batch_number: `BENCH-${i}`,
        expiry_date: '2099-12-31',
        qty_received: i < 5 ? 1_000_000 : 100_000,
        unit_cost: 1,
      });
    }
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
    const rows: LoadResult[] = [];
    rows.push(await saleLoad(`${server.url}/api/v1/sales`, 10, 'POST /sales, 5 lines, 10 conn'));
    rows.push(await saleLoad(`${server.url}/api/v1/sales`, 1, 'POST /sales, 5 lines, 1 conn'));

    // A 200-line sale, and the Z-report of a session with 2,000 sales.
    const big = meds.map((medicine_id) => ({ medicine_id, quantity: 1 }));
    let t0 = performance.now();
    await api('POST', '/sales', { items: big, client_mutation_id: randomUUID() });
    const bigMs = performance.now() - t0;
    await api('POST', '/sessions/open', { opening_float: 100 });
    const session = (await api('GET', '/sessions/current')) as { id: string };
    for (let i = 0; i < 2000; i += 20)
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

    await server.stop();
    stopped = true;
    const floor = await spawnTs('bench/selling-floor.ts', { DATA_DIR: dataDir });
    try {
      rows.push(await saleLoad(`${floor.url}/sale`, 10, 'floor: raw statements, 5 lines, 10 conn', false));
      rows.push(await saleLoad(`${floor.url}/sale`, 1, 'floor: raw statements, 5 lines, 1 conn', false));
    } finally {
      await floor.stop();
    }
    printTable('Selling, loopback, synchronous=FULL', rows);
    const [real10, real1, floor10] = rows;
    if (real10 && real1 && floor10) {
      console.log(
        `sale/floor at 10 conn = ${(real10.rps / floor10.rps).toFixed(2)} (target >= 0.40, and >= 300/s: ${real10.rps}/s); p99 ${real10.p99} ms vs floor ${floor10.p99} ms (target <= 2x); 1-conn p99 ${real1.p99} ms (target < 15 ms)`,
      );
    }
    console.log(
      `200-line sale: ${bigMs.toFixed(1)} ms (target < 100 ms); Z-report of ${z.sales_count} sales: ${zMs.toFixed(1)} ms (target < 200 ms)`,
    );
    return rows;
  } finally {
    if (!stopped) await server.stop().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await runSellingBench();
