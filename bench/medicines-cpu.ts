import fs from 'node:fs';
import { benchAdminToken, load, type Spawned, spawnTs } from './lib';

/**
 * Server CPU time per request (user + system, from /proc) of the Medicines table page, pages 1..40 of 50 with
 * the branch's stock, against the bare Express floor and `auth/me` (the request path alone): unlike req/s,
 * these hardly move with the load generator's share of the 2 cores. The page cache is off
 * (PHARMACY_LIST_PAGE_CACHE=off): every page is built afresh, as after any sale or receipt.
 * `BENCH_DATA_DIR=./data tsx bench/medicines-cpu.ts` on a seeded folder (npm run seed:demo -- --size large).
 * `BENCH_PROF=DIR` writes the server's CPU profile; `BENCH_LIST_CACHE=cold` also drops the rows' cached text.
 */
function cpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1_000_000) / 100;
}

const dataDir = process.env.BENCH_DATA_DIR;
if (!dataDir) throw new Error('Set BENCH_DATA_DIR to a seeded data folder.');
const floor = await spawnTs('bench/floor-server.ts', {});
const server = await spawnTs('apps/central/src/main.ts', {
  DATA_DIR: dataDir,
  PHARMACY_LIST_PAGE_CACHE: 'off',
});
try {
  const auth = { authorization: `Bearer ${await benchAdminToken(server.url)}` };
  const branches = (await (
    await fetch(`${server.url}/api/v1/branches?page_size=2`, { headers: auth })
  ).json()) as {
    items: Array<{ id: string }>;
  };
  const branchId = branches.items.at(-1)!.id;
  let i = 0;
  const page = () => `/api/v1/medicines?page=${(i++ % 40) + 1}&page_size=50&branch_id=${branchId}`;
  const sort = () =>
    `/api/v1/medicines?page=${(i++ % 40) + 1}&page_size=50&branch_id=${branchId}&sort=stock_quantity&order=desc`;
  const targets: [string, Spawned, string, Record<string, string>, (() => string)?][] = [
    ['floor', floor, '/floor', {}],
    ['auth/me', server, '/api/v1/auth/me', auth],
    ['medicines page', server, '/api/v1/medicines', auth, page],
    ['by stock', server, '/api/v1/medicines', auth, sort],
    ['by stock asc', server, '/api/v1/medicines', auth, () => sort().replace('order=desc', 'order=asc')],
  ];
  // BENCH_TARGETS=floor,by stock: only those (e.g. with BENCH_PROF for one target's profile).
  const only = process.env.BENCH_TARGETS?.split(',');
  if (only) targets.splice(0, targets.length, ...targets.filter(([name]) => only.includes(name)));
  const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
  const best = new Map<string, number>();
  for (let round = 0; round < rounds; round++)
    for (const [name, s, path, headers, next] of targets) {
      const amount = name.startsWith('by stock') ? 300 : 3000;
      const setupRequest = next && ((req: { body?: string; path?: string }) => ({ ...req, path: next() }));
      const before = cpuMicros(s.child.pid!);
      await load(name, { url: `${s.url}${path}`, headers, amount, ...(setupRequest && { setupRequest }) });
      const per = (cpuMicros(s.child.pid!) - before) / amount;
      if (per < (best.get(name) ?? Number.POSITIVE_INFINITY)) best.set(name, per);
    }
  for (const [name, per] of best)
    console.log(`${name.padEnd(16)} ${per.toFixed(0).padStart(6)} µs CPU/request`);
} finally {
  await floor.stop();
  await server.stop();
}
