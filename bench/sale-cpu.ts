import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import {
  benchAdminToken,
  benchApi,
  load,
  mainThreadCpuMicros as cpuMicros,
  median,
  spawnTs,
  stockedMedicines,
  tempDataDir,
} from './lib';

/**
 * `npx tsx bench/sale-cpu.ts`: the server's main-thread CPU time (from /proc/PID/schedstat, in nanoseconds) per 200-line sale and per
 * 5-line sale, with the 200-line sale's wall time, median and slowest of BENCH_SALES (30) sales. CPU time
 * hardly moves with what the other tenants of the VM do, so it shows what a change to the sale's write path
 * saves where bench/selling.ts's single 200-line figure and its sales/s swing with the machine's load.
 * BENCH_PROF=DIR writes the server's CPU profile (--cpu-prof) there.
 */
const dataDir = tempDataDir('sale-cpu');
const server = await spawnTs('apps/central/src/main.ts', { DATA_DIR: dataDir });
try {
  const token = await benchAdminToken(server.url);
  const api = benchApi(() => server.url, token);
  const meds = await stockedMedicines(api, 200, () => 1_000_000);
  await api('POST', '/sessions/open', { opening_float: 100 });
  const big = meds.map((medicine_id) => ({ medicine_id, quantity: 1 }));
  const five = big.slice(0, 5);
  const pid = server.child.pid!;
  const n = Number(process.env.BENCH_SALES ?? 30);
  // Warm-up: the JIT and SQLite's page cache.
  for (let i = 0; i < 10; i++) await api('POST', '/sales', { items: big, client_mutation_id: randomUUID() });
  const wall: number[] = [];
  const cpu: number[] = [];
  for (let i = 0; i < n; i++) {
    const c0 = cpuMicros(pid);
    const t0 = performance.now();
    await api('POST', '/sales', { items: big, client_mutation_id: randomUUID() });
    wall.push(performance.now() - t0);
    cpu.push((cpuMicros(pid) - c0) / 1000);
  }
  const amount = 1000;
  const c0 = cpuMicros(pid);
  const r = await load('5-line', {
    url: `${server.url}/api/v1/sales`,
    method: 'POST',
    connections: 10,
    amount,
    headers: { authorization: `Bearer ${token}` },
    setupRequest: (req) => ({
      ...req,
      body: JSON.stringify({ items: five, client_mutation_id: randomUUID() }),
    }),
  });
  const per5 = (cpuMicros(pid) - c0) / amount;
  const fmt = (xs: number[]) =>
    `median ${median(xs).toFixed(1)} ms, slowest ${Math.max(...xs).toFixed(1)} ms`;
  console.log(`200-line sale, ${n} sales: wall ${fmt(wall)}; server CPU ${fmt(cpu)}`);
  console.log(
    `5-line sale, ${amount} at 10 conn: ${per5.toFixed(0)} µs server CPU/sale, ${r.rps} sales/s, p99 ${r.p99} ms`,
  );
} finally {
  await server.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
}
