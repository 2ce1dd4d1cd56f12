/**
 * Lays down a realistic sales history for reports and benchmarks:
 *
 *   npm run generate:sales -- --sales 1000000 --branches 20 --years 2 --data-dir ./data-bench
 *   npm run generate:sales -- --sales 10000000 --branches 200 --database-url postgres://…   (or DATABASE_URL=…)
 *   npm run generate:sales -- --sales 10000000 --branches 200 --local-pg ./data-central/pg
 *
 * Opens the database as the server does (migrating and seeding when new; an existing one grows), adds branches,
 * sellers, categories, suppliers, medicines, batches with their purchase movements, then `--sales` finished
 * sales (1-5 lines, cash / card / mobile money payments) spread over the last `--years` years during opening
 * hours. Deterministic for a given --seed: the same values whatever the target, since every row is computed
 * once and only its writer differs (bench/row-sink.ts: SQLite prepared statements in large transactions, or
 * PostgreSQL COPY). `--local-pg <dir>` starts (creating it if needed) the persistent local cluster that
 * `npm run central:pg` serves from DATA_DIR/pg, on --pg-port (54329), and fills its `pharmacy` database.
 */
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseConfig } from '../packages/server/src/config';
import { requireSqlite } from '../packages/server/src/db/connection';
import { ensureDatabase, startLocalPostgres } from '../packages/server/src/db/local-postgres';
import { newId } from '../packages/server/src/lib/ids';
import {
  SYNTHETIC_COLUMNS,
  SYNTHETIC_TABLES,
  type RowValues,
  type SyntheticLine,
  syntheticSaleRows,
} from '../packages/server/src/modules/reports/synthetic-sales';
import { getSettings } from '../packages/server/src/modules/settings/service';
import { createServer, type PharmacyServer } from '../packages/server/src/server';
import { postgresCopySink, type RowSink, sqliteSink } from './row-sink';

export interface GenerateOptions {
  sales: number;
  branches: number;
  years: number;
  /** The server data folder (its pharmacy.db, unless databaseUrl names a PostgreSQL database). */
  dataDir: string;
  databaseUrl?: string;
  medicines: number;
  seed: number;
  log?: (line: string) => void;
}

/** mulberry32: a small seeded generator, so two runs with one seed give the same history. */
function rng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
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
const ZONE_OFFSET_HOURS = 3;
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
  log: (line: string) => void,
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
  const total = ref.branches.length * ref.medicines.length * 2;
  const progress = progressReporter('batches', total, log);
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
        if (++n % 50_000 === 0) await sink.flush();
        if (n % 1000 === 0) progress.tick(n);
      }
    }
  }
  progress.tick(total);
  await sink.flush();
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

const BATCH = 20_000;

/** Sales, oldest first (sequential index inserts), during 08:00-21:00 local time; returns the line count. */
async function addSales(
  server: PharmacyServer,
  sink: RowSink,
  o: GenerateOptions,
  ref: Reference,
  r: Random,
) {
  const progress = progressReporter('sales', o.sales, o.log ?? console.log);
  const currency = (await getSettings(server.context)).base_currency_code;
  const devices = await devicesOf(server, ref.branches);
  const spanMs = o.years * 365 * 86_400_000;
  const now = Date.now();
  const openMs = 13 * 3_600_000;
  const days = Math.max(1, Math.round(spanMs / 86_400_000));
  const firstDay = Math.floor(now / 86_400_000) - days + 1;
  const popular = ref.medicines.slice(0, Math.max(1, Math.floor(ref.medicines.length / 5)));
  let lines = 0;
  for (let k = 0; k < o.sales; k++) {
    const day = firstDay + Math.floor((k * days) / o.sales);
    const soldMs = day * 86_400_000 + (8 - ZONE_OFFSET_HOURS) * 3_600_000 + Math.floor(r.random() * openMs);
    if (soldMs <= now) {
      const branch = r.pick(ref.branches);
      const device = devices.get(branch)!;
      const count = r.int(1, 5);
      const saleLines: SyntheticLine[] = [];
      const used = new Set<string>();
      for (let j = 0; j < count; j++) {
        const m = r.random() < 0.6 ? r.pick(popular) : r.pick(ref.medicines);
        if (used.has(m.medicineId)) continue;
        used.add(m.medicineId);
        saleLines.push({ ...m, quantity: r.random() < 0.7 ? 1 : r.int(2, 6) });
      }
      const total = saleLines.reduce((a, l) => a + l.quantity * l.unitPrice, 0);
      const payments = paymentsOf(total, r.random());
      const rows = syntheticSaleRows({
        branchId: branch,
        userId: r.pick(ref.users.get(branch)!),
        deviceId: device.id,
        icv: ++device.icv,
        soldAt: new Date(soldMs).toISOString(),
        currency,
        lines: saleLines,
        payments,
      });
      for (const table of SYNTHETIC_TABLES)
        for (const values of rows[table]) sink.add(table, SYNTHETIC_COLUMNS[table], values);
      lines += saleLines.length;
    }
    const done = k + 1;
    if (done % BATCH === 0 || done === o.sales) await sink.flush();
    if (done % 1000 === 0 || done === o.sales) progress.tick(done);
  }
  return lines;
}

/**
 * A progress line every 2 seconds whatever the speed (and at the end): rows done, rate, time so far and the
 * time left at the rate so far, so a 10-million-sale run says from its first seconds how long it will take.
 */
export function progressReporter(label: string, total: number, log: (line: string) => void, everyMs = 2000) {
  const started = performance.now();
  let last = started;
  return {
    tick(done: number) {
      const now = performance.now();
      if (now - last < everyMs && done < total) return;
      last = now;
      const seconds = (now - started) / 1000;
      const rate = done / Math.max(seconds, 0.001);
      const left = Math.round((total - done) / Math.max(rate, 1));
      const pct = ((100 * done) / total).toFixed(1);
      log(
        `${label}: ${done.toLocaleString('en')}/${total.toLocaleString('en')} (${pct} %), ${Math.round(rate).toLocaleString('en')}/s, ${clock(seconds)} so far, ${clock(left)} left`,
      );
    },
  };
}

const clock = (seconds: number) => {
  const s = Math.round(seconds);
  return s < 60
    ? `${s} s`
    : s < 3600
      ? `${Math.floor(s / 60)} min ${s % 60} s`
      : `${Math.floor(s / 3600)} h ${Math.floor((s % 3600) / 60)} min`;
};

function paymentsOf(total: number, r: number): Array<{ method: string; amount: number }> {
  if (r < 0.65) return [{ method: 'cash', amount: Math.ceil(total / 1000) * 1000 }];
  if (r < 0.85) return [{ method: 'card', amount: total }];
  if (r < 0.95) return [{ method: 'mobile_money', amount: total }];
  const half = Math.floor(total / 2);
  return [
    { method: 'card', amount: half },
    { method: 'cash', amount: total - half },
  ];
}

export async function generateSales(
  o: GenerateOptions,
): Promise<{ sales: number; lines: number; seconds: number }> {
  const log = o.log ?? ((line: string) => console.log(line));
  const started = performance.now();
  log(
    `opening the database (${o.databaseUrl ? 'PostgreSQL' : `SQLite in ${o.dataDir}`}), migrating when new…`,
  );
  const server = await createServer(
    parseConfig({
      dataDir: o.dataDir,
      ...(o.databaseUrl && { databaseUrl: o.databaseUrl, mode: 'central' as const }),
      logLevel: 'silent',
      jwtSecret: randomBytes(32).toString('hex'),
      seed: {},
    }),
  );
  let sink: RowSink;
  if (o.databaseUrl) sink = await postgresCopySink(o.databaseUrl, log);
  else {
    const sqlite = requireSqlite(server.context, 'generate:sales');
    sqlite.pragma('synchronous = OFF');
    sqlite.pragma('cache_size = -262144');
    sink = sqliteSink(sqlite);
  }
  try {
    const r = randomTools(o.seed);
    const ref = await addReference(server, sink, o, r);
    const elapsed = () => Math.round(performance.now() - started);
    log(
      `reference data: ${ref.branches.length} branches, ${ref.medicines.length} medicines (${elapsed()} ms)`,
    );
    await addStock(sink, ref, o.years * 365 * 86_400_000, Date.now(), r, log);
    log(`stock: ${ref.branches.length * ref.medicines.length * 2} batches (${elapsed()} ms)`);
    await sink.deferIndexes(['sales', 'sale_lines', 'sale_payments']);
    const lines = await addSales(server, sink, o, ref, r);
    log('statistics: ANALYZE (PostgreSQL: VACUUM ANALYZE)');
    await sink.finish(['sales', 'sale_lines', 'sale_payments', 'batches', 'stock_movements']);
    const seconds = Math.round((performance.now() - started) / 100) / 10;
    log(`done: ${o.sales} sales, ${lines} lines in ${seconds} s (time zone of generated branches: ${ZONE})`);
    return { sales: o.sales, lines, seconds };
  } finally {
    server.context.sqlite?.pragma('synchronous = FULL');
    await server.close();
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
  const num = (name: string, fallback: number) => {
    const v = args.has(name) ? Number(args.get(name)) : fallback;
    if (!Number.isSafeInteger(v) || v < 1) throw new Error(`--${name} must be a positive whole number`);
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
    dataDir,
    databaseUrl,
    localPg,
    pgPort: num('pg-port', 54329),
  };
}

async function main(o: CliOptions): Promise<void> {
  if (!o.localPg) {
    await generateSales(o);
    return;
  }
  const local = await startLocalPostgres(path.resolve(o.localPg), {
    port: o.pgPort,
    persistent: true,
    serverMemory: true, // as central:pg starts the same cluster
  });
  try {
    await ensureDatabase(local.adminUrl, 'pharmacy');
    console.log(`PostgreSQL cluster in ${o.localPg} on port ${o.pgPort}, database pharmacy`);
    await generateSales({ ...o, databaseUrl: local.urlOf('pharmacy') });
  } finally {
    await local.stop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  await main(parseArgs(process.argv.slice(2), process.env));
