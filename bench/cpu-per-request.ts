import fs from 'node:fs';
import { benchAdminToken, load, type Spawned, spawnTs, tempDataDir } from './lib';

/**
 * npm run bench:cpu — server CPU time per request (user + system, from /proc) for the floor, a public route,
 * an authenticated single-row read, a cached read and the users list: unlike req/s, these figures hardly move
 * with the load generator's share of the 2 cores, so they show what a change to the request path saves.
 */
function cpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  const ticks = Number(fields[11]) + Number(fields[12]);
  return (ticks * 1_000_000) / 100;
}

const dataDir = tempDataDir('cpu');
const floor = await spawnTs('bench/floor-server.ts', {});
const server = await spawnTs('apps/central/src/main.ts', { DATA_DIR: dataDir });
const token = await benchAdminToken(server.url);
const auth = { authorization: `Bearer ${token}` };
const targets: [string, Spawned, string, Record<string, string>][] = [
  ['floor', floor, '/floor', {}],
  ['health', server, '/health', {}],
  ['auth/me', server, '/api/v1/auth/me', auth],
  ['settings', server, '/api/v1/settings', auth],
  ['users', server, '/api/v1/users?page_size=20', auth],
];
// Rounds interleave the targets and the least CPU per target is reported: on a shared VM, another tenant's
// burst inflates a round's figures, never deflates them.
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const best = new Map<string, { per: number; rps: number; p99: number }>();
for (let round = 0; round < rounds; round++) {
  for (const [name, s, path, headers] of targets) {
    if (round === 0) await load(name, { url: `${s.url}${path}`, headers, amount: 3000 });
    const before = cpuMicros(s.child.pid!);
    const r = await load(name, { url: `${s.url}${path}`, headers, amount: 10000 });
    const per = (cpuMicros(s.child.pid!) - before) / 10000;
    const prev = best.get(name);
    if (!prev || per < prev.per) best.set(name, { per, rps: r.rps, p99: r.p99 });
  }
}
for (const [name, { per, rps, p99 }] of best) {
  console.log(`${name.padEnd(10)} ${per.toFixed(0).padStart(4)} µs CPU/request  ${rps} req/s  p99 ${p99} ms`);
}
await floor.stop();
await server.stop();
fs.rmSync(dataDir, { recursive: true, force: true });
