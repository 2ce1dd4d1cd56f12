/**
 * npm run bench:pull [-- --seconds 10 --connections 16 --changes 1000 --devices 200]
 *
 * What a till's pull costs central on PostgreSQL, with and without a read replica (DATABASE_REPLICA_URL): a
 * local primary and a hot standby streaming from it (db/local-replica.ts, fsync on), central as its own
 * process, autocannon on loopback, each request from the next of --devices tills (a pull records the device's
 * last_pull_revision on the primary: one till's pulls would queue on its row).
 * - idle pull: since = head (nothing new), what every till sends every SYNC_INTERVAL_MS (15 s) all day;
 * - catch-up pull: since = 0, a page of 500 changes (a till back from a day offline).
 * A till polls every 15 s, so central carries (idle pulls/s x 15) tills' polling. Primary, standby, central and
 * load generator share this machine's cores: the replica adds no capacity here, it shows the routing's cost.
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { query, tempClusterDir } from '../packages/server/src/db/local-postgres';
import { startReplicaPair, waitForReplay } from '../packages/server/src/db/local-replica';
import { BENCH_ADMIN, type LoadResult, load, printTable, spawnTs, tempDataDir } from './lib';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '10' },
    connections: { type: 'string', default: '16' },
    changes: { type: 'string', default: '1000' },
    devices: { type: 'string', default: '200' },
  },
});
const seconds = Number(values.seconds);
const connections = Number(values.connections);

async function api<T>(url: string, path: string, init: { token?: string; body?: unknown } = {}): Promise<T> {
  const res = await fetch(`${url}/api/v1${path}`, {
    method: init.body === undefined ? 'GET' : 'POST',
    headers: {
      'content-type': 'application/json',
      ...(init.token && { authorization: `Bearer ${init.token}` }),
    },
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  if (!res.ok) throw new Error(`${path}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

async function main(): Promise<void> {
  const pair = await startReplicaPair(tempClusterDir(), { durable: true });
  const dataDir = tempDataDir('pull');
  const results: LoadResult[] = [];
  try {
    await query(pair.primary.adminUrl, 'CREATE DATABASE bench');
    const env = {
      PHARMACY_MODE: 'central',
      DATA_DIR: dataDir,
      DATABASE_URL: pair.primary.urlOf('bench'),
    };
    let central = await spawnTs('apps/central/src/main.ts', env);
    const admin = (await api<{ access_token: string }>(central.url, '/auth/login', { body: BENCH_ADMIN }))
      .access_token;
    const devices: Array<{ device_id: string; device_token: string }> = [];
    for (let i = 0; i < Number(values.devices); i++)
      devices.push(
        await api(central.url, '/sync/devices/register', { token: admin, body: { name: `Bench till ${i}` } }),
      );
    for (let i = 0; i < Number(values.changes); i++)
      await api(central.url, '/medicines', {
        token: admin,
        body: { name: `Bench medicine ${i}`, selling_price: 2.5 },
      });
    const [head] = await query<{ r: number }>(
      pair.primary.urlOf('bench'),
      'SELECT max(revision) AS r FROM change_log',
    );
    let next = 0;
    /** Each request from the next device: its id in the query, its token in the header. */
    const rotating = (since: number) => (req: { headers?: Record<string, string> }) => {
      const device = devices[next++ % devices.length]!;
      return {
        ...req,
        path: `/api/v1/sync/pull?device_id=${device.device_id}&since=${since}&limit=500`,
        headers: { ...req.headers, 'x-device-token': device.device_token },
      };
    };
    const pulls = async (label: string, url: string) => {
      const run = (name: string, since: number) =>
        load(name, { url: `${url}/api/v1/health`, connections, seconds, setupRequest: rotating(since) });
      results.push(await run(`idle pull, ${label}`, Number(head?.r)));
      results.push(await run(`catch-up pull (500 changes), ${label}`, 0));
    };
    await pulls('primary only', central.url);
    await central.stop();
    central = await spawnTs('apps/central/src/main.ts', {
      ...env,
      DATABASE_REPLICA_URL: pair.standby.urlOf('bench'),
    });
    await waitForReplay(pair);
    await pulls('feed on the replica', central.url);
    await central.stop();
  } finally {
    await pair.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  printTable(`Pulls, ${connections} connections, ${seconds} s each (PostgreSQL 18, fsync on)`, results);
  const idle = results.find((r) => r.name === 'idle pull, primary only');
  if (idle)
    console.log(`\nTills whose 15 s polling one central carries: ~${(idle.rps * 15).toLocaleString()}`);
}

await main();
