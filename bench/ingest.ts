/**
 * npm run bench:ingest [-- --tills 20 --sales 500 --pg --pool 20]
 *
 * Twenty tills push their offline sales to central at once. Central runs as its own process (`npm run
 * central`), on SQLite, or on PostgreSQL with `--pg` (a throwaway local cluster, fsync ON, as a real central)
 * or `BENCH_DATABASE_URL=postgres://…` (an empty database).
 *
 * 1. Each till is a real till server (in this process) registered on central with its own branch, cashier and
 *    device credentials; its branch's delivery is received at head office, the till bootstraps from central's
 *    snapshot, opens a cash session and makes --sales real sales (1-3 lines, FEFO movements, fiscal chain)
 *    while offline.
 * 2. Each till's outbox is read into push batches (200 changes / 900 KB, as the replicator sends them) before
 *    the clock starts, so the tills' own work does not share the measurement's cores.
 * 3. Timed: every till pushes its batches one after another, all tills at once, as their replicators would
 *    after a network outage. Reported: aggregate sales/s, and p50/p99/max of a push batch's round trip.
 * 4. Checked: central holds every sale exactly once, and a batch pushed again is answered from the stored
 *    results without applying anything twice.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { SyncChange } from '../packages/contracts/src/index';
import { BENCH_ADMIN, benchAdminToken, median, spawnTs, tempDataDir } from './lib';

const { bootstrappedTill, sellOffline } = await import('./offline-till');
const { CentralClient } = await import('../packages/sync/src/index');
const { startLocalPostgres, ensureDatabase } = await import('../packages/server/src/db/local-postgres');
const pg = (await import('pg')).default;

const { values } = parseArgs({
  options: {
    tills: { type: 'string', default: '20' },
    sales: { type: 'string', default: '500' },
    medicines: { type: 'string', default: '50' },
    // central's PostgreSQL connections (DATABASE_POOL_SIZE): pushes beyond it queue in central
    pool: { type: 'string', default: '20' },
    pg: { type: 'boolean', default: false },
  },
});
const TILLS = Number(values.tills);
const SALES = Number(values.sales);
const MEDICINES = Number(values.medicines);

interface Central {
  url: string;
  token: string;
  countSales(): Promise<number>;
  cpuSeconds(): number;
  stop(): Promise<void>;
}

/** Central as its own process, on SQLite or on the PostgreSQL of `databaseUrl`. */
async function startCentral(databaseUrl: string | undefined): Promise<Central> {
  const dataDir = tempDataDir('ingest-central');
  const proc = await spawnTs('apps/central/src/main.ts', {
    PHARMACY_MODE: 'central',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(32).toString('hex'),
    ...(databaseUrl && { DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: values.pool }),
  });
  const pid = proc.child.pid!;
  const token = await benchAdminToken(proc.url);
  const pool = databaseUrl ? new pg.Pool({ connectionString: databaseUrl, max: 1 }) : null;
  return {
    url: proc.url,
    token,
    async countSales() {
      if (pool) return Number((await pool.query('SELECT count(*) AS n FROM sales')).rows[0].n);
      const { default: Database } = await import('better-sqlite3');
      const db = new Database(path.join(dataDir, 'pharmacy.db'), { readonly: true });
      try {
        return (db.prepare('SELECT count(*) AS n FROM sales').get() as { n: number }).n;
      } finally {
        db.close();
      }
    },
    cpuSeconds: () => processCpuSeconds(pid),
    async stop() {
      await pool?.end();
      await proc.stop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

async function api<T>(central: Central, method: string, route: string, body?: unknown): Promise<T> {
  const res = await fetch(`${central.url}/api/v1${route}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${central.token}` },
    ...(body !== undefined && { body: JSON.stringify(body) }),
  });
  if (!res.ok) throw new Error(`${method} ${route}: ${res.status} ${await res.text()}`);
  return (await res.json()) as T;
}

interface Till {
  client: InstanceType<typeof CentralClient>;
  batches: SyncChange[][];
  sales: number;
}

/** A till of its own branch: registered, bootstrapped, stocked, then `SALES` sales made offline. */
async function offlineTill(
  central: Central,
  index: number,
  medicineIds: string[],
  supplierId: string,
): Promise<Till> {
  const branch = await api<{ id: string }>(central, 'POST', '/branches', {
    name: `Ingest branch ${index}`,
    code: `ING${index}`,
  });
  const reg = await api<{ device_id: string; device_token: string }>(
    central,
    'POST',
    '/sync/devices/register',
    {
      name: `Ingest till ${index}`,
      branch_id: branch.id,
    },
  );
  const cashier = await api<{ id: string; email: string; full_name: string }>(central, 'POST', '/users', {
    email: `cashier${index}@ingest.local`,
    password: BENCH_ADMIN.password,
    full_name: `Ingest cashier ${index}`,
    role: 'cashier',
    branch_id: branch.id,
  });
  // The branch's delivery, received at head office before the till starts: it arrives with the snapshot, and
  // the till's outbox holds what an offline selling day makes (a session, sales, their stock movements).
  for (const [i, medicineId] of medicineIds.entries())
    await api(central, 'POST', '/purchases', {
      medicine_id: medicineId,
      supplier_id: supplierId,
      branch_id: branch.id,
      batch_number: `ING-${index}-${i}`,
      expiry_date: '2099-12-31',
      qty_received: 1_000_000,
      unit_cost: 1,
    });
  const till = await bootstrappedTill(central.url, { id: reg.device_id, token: reg.device_token });
  // A cash session is one per user: each till sells as its own branch's cashier (replicated by the snapshot).
  const user = {
    id: cashier.id,
    role: 'cashier' as const,
    branchId: branch.id,
    email: cashier.email,
    fullName: cashier.full_name,
  };
  await sellOffline(till, user, medicineIds, SALES, index);
  const batches: SyncChange[][] = [];
  for (;;) {
    const batch = await till.store.outbox(200, 900_000);
    if (batch.length === 0) break;
    batches.push(batch.map((b) => b.change));
    // Marked answered locally only so the next outbox() call moves on; central has seen nothing yet.
    await till.store.recordPushResult(batch, {
      accepted: batch.map((b) => ({
        client_mutation_id: b.change.client_mutation_id,
        id: b.change.entity_id ?? '',
        revision: 0,
      })),
      rejected: [],
    });
  }
  await till.close();
  return { client: till.client, batches, sales: SALES };
}

/** One till's replicator after an outage: its batches in order, each resent from retry_from if central asks. */
async function pushAll(till: Till, latencies: number[]): Promise<{ accepted: number; retries: number }> {
  let accepted = 0;
  let retries = 0;
  for (let batch of till.batches) {
    for (;;) {
      const t0 = performance.now();
      const res = await till.client.push(batch).catch((err: unknown) => {
        // Central busy (503) or too slow to answer (the client's 30 s timeout), as the replicator sees it:
        // back off and send the batch again (answered from the stored results if it was applied meanwhile).
        if (!['TEMPORARY', 'OFFLINE'].includes(String((err as { code?: string }).code))) throw err;
        return null;
      });
      latencies.push(performance.now() - t0);
      if (!res) {
        retries++;
        await new Promise((r) => setTimeout(r, 100));
        continue;
      }
      if (res.rejected.length) throw new Error(`rejected: ${JSON.stringify(res.rejected[0])}`);
      accepted += res.accepted.length;
      if (res.retry_from === undefined) break;
      retries++;
      batch = batch.slice(batch.findIndex((c) => c.client_mutation_id === res.retry_from));
    }
  }
  return { accepted, retries };
}

/** CPU seconds of a process from /proc (user + system). */
function processCpuSeconds(pid: number): number {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0; // gone since it was listed
  }
}

/** CPU seconds of a local cluster: its postmaster and every process it started (backends, WAL writer…). */
function clusterCpuSeconds(dir: string): number {
  const postmaster = Number(fs.readFileSync(path.join(dir, 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = fs
    .readdirSync('/proc')
    .filter((p) => /^\d+$/.test(p))
    .filter((p) => {
      try {
        return (
          fs.readFileSync(`/proc/${p}/stat`, 'utf8').split(') ')[1]!.split(' ')[1] === String(postmaster)
        );
      } catch {
        return false;
      }
    });
  return [postmaster, ...children.map(Number)].reduce((n, pid) => n + processCpuSeconds(pid), 0);
}

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;

async function main(): Promise<void> {
  let databaseUrl = process.env.BENCH_DATABASE_URL;
  let stopPostgres: (() => Promise<void>) | undefined;
  let postgresCpu = () => Number.NaN;
  if (values.pg && !databaseUrl) {
    const dir = tempDataDir('ingest-pg');
    postgresCpu = () => clusterCpuSeconds(dir);
    const local = await startLocalPostgres(dir, { persistent: true });
    await ensureDatabase(local.adminUrl, 'ingest');
    databaseUrl = local.urlOf('ingest');
    stopPostgres = async () => {
      await local.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    };
  }
  const central = await startCentral(databaseUrl);
  try {
    const medicineIds: string[] = [];
    for (let i = 0; i < MEDICINES; i++)
      medicineIds.push(
        (
          await api<{ id: string }>(central, 'POST', '/medicines', {
            name: `Ingest medicine ${i}`,
            selling_price: 2.5 + (i % 10),
          })
        ).id,
      );
    const t0Sales = performance.now();
    const tills: Till[] = [];
    const supplier = await api<{ id: string }>(central, 'POST', '/suppliers', { name: 'Ingest distributor' });
    for (let i = 0; i < TILLS; i++) tills.push(await offlineTill(central, i, medicineIds, supplier.id));
    const changes = tills.reduce((n, t) => n + t.batches.reduce((m, b) => m + b.length, 0), 0);
    const batches = tills.reduce((n, t) => n + t.batches.length, 0);
    console.log(
      `${TILLS} tills made ${TILLS * SALES} real sales offline in ${((performance.now() - t0Sales) / 1000).toFixed(1)} s: ${changes} changes in ${batches} push batches; central on ${databaseUrl ? 'PostgreSQL' : 'SQLite'}`,
    );

    const latencies: number[] = [];
    const cpu0 = central.cpuSeconds();
    const pgCpu0 = postgresCpu();
    const benchCpu0 = process.cpuUsage();
    const started = performance.now();
    const results = await Promise.all(tills.map((t) => pushAll(t, latencies)));
    const seconds = (performance.now() - started) / 1000;
    const cpu = central.cpuSeconds() - cpu0;
    const pgCpu = postgresCpu() - pgCpu0;
    const benchCpuUsage = process.cpuUsage(benchCpu0);
    const benchCpu = (benchCpuUsage.user + benchCpuUsage.system) / 1e6;

    const expected = TILLS * SALES;
    const onCentral = await central.countSales();
    if (onCentral !== expected) throw new Error(`central holds ${onCentral} sales, expected ${expected}`);
    const replay = await tills[0]!.client.push(tills[0]!.batches[0]!);
    if (replay.accepted.length !== tills[0]!.batches[0]!.length || (await central.countSales()) !== expected)
      throw new Error('a batch pushed again was applied again');

    const sorted = latencies.sort((a, b) => a - b);
    const accepted = results.reduce((n, r) => n + r.accepted, 0);
    const retries = results.reduce((n, r) => n + r.retries, 0);
    console.log(
      `ingest: ${expected} sales (${accepted} changes) from ${TILLS} tills at once in ${seconds.toFixed(2)} s = ${Math.round(expected / seconds)} sales/s (target 1,000); each sale applied once (replay checked); ${retries} batches resent (retry_from or busy)`,
    );
    console.log(
      `push batch round trip: p50 ${median(sorted).toFixed(0)} ms, p99 ${percentile(sorted, 99).toFixed(0)} ms, max ${sorted.at(-1)!.toFixed(0)} ms over ${sorted.length} batches`,
    );
    const perSale = (s: number) => `${s.toFixed(1)} s (${((s / expected) * 1000).toFixed(2)} ms per sale)`;
    console.log(
      `CPU while pushing: central process ${perSale(cpu)}${Number.isNaN(pgCpu) ? '' : `, PostgreSQL ${perSale(pgCpu)}`}, the pushing tills ${perSale(benchCpu)}`,
    );
  } finally {
    await central.stop();
    await stopPostgres?.();
  }
}

await main();
process.exit(0);
