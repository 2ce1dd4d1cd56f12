/**
 * Lays down a realistic sales history for reports and benchmarks:
 *
 *   npm run generate:sales -- --sales 1000000 --branches 20 --years 2 --data-dir ./data-bench
 *
 * Opens (migrating and seeding when new) the database of --data-dir, adds branches, sellers, categories,
 * suppliers, medicines, batches with their purchase movements, then `--sales` finished sales (1-5 lines, cash /
 * card / mobile money payments) spread over the last `--years` years during opening hours, written with
 * prepared statements in large transactions. Deterministic for a given --seed.
 */
import { randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { parseConfig } from '../packages/server/src/config';
import { newId } from '../packages/server/src/lib/ids';
import { type SyntheticLine, saleWriter } from '../packages/server/src/modules/reports/synthetic-sales';
import { getSettings } from '../packages/server/src/modules/settings/service';
import { createServer } from '../packages/server/src/server';
import { requireSqlite } from '../packages/server/src/db/connection';

export interface GenerateOptions {
  sales: number;
  branches: number;
  years: number;
  dataDir: string;
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

export async function generateSales(
  o: GenerateOptions,
): Promise<{ sales: number; lines: number; seconds: number }> {
  const log = o.log ?? ((line: string) => console.log(line));
  const started = performance.now();
  const server = await createServer(
    parseConfig({
      dataDir: o.dataDir,
      logLevel: 'silent',
      jwtSecret: randomBytes(32).toString('hex'),
      seed: {},
    }),
  );
  const sqlite = requireSqlite(server.context, 'generate:sales (a PostgreSQL target comes with issue 20)');
  const random = rng(o.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(random() * (hi - lo + 1));
  sqlite.pragma('synchronous = OFF');
  sqlite.pragma('cache_size = -262144');
  const at = new Date().toISOString();
  const currency = (await getSettings(server.context)).base_currency_code;

  // Reference data: branches (the seeded Main Branch plus the rest), sellers, catalogue, suppliers.
  const branches = (sqlite.prepare('SELECT id FROM branches').all() as Array<{ id: string }>).map(
    (b) => b.id,
  );
  const branchCurrency = (
    sqlite.prepare('SELECT currency_code AS c FROM branches LIMIT 1').get() as { c: string }
  ).c;
  const users = new Map<string, string[]>();
  const reference = sqlite.transaction(() => {
    const addBranch = sqlite.prepare(
      `INSERT INTO branches (id, name, code, currency_code, timezone, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, ?, 1, ?, ?)`,
    );
    for (let i = branches.length; i < o.branches; i++) {
      const id = newId();
      addBranch.run(
        id,
        `Generated Branch ${i + 1}`,
        `G${String(i + 1).padStart(3, '0')}`,
        branchCurrency,
        ZONE,
        at,
        at,
      );
      branches.push(id);
    }
    const addUser = sqlite.prepare(
      `INSERT INTO users (id, branch_id, email, password_hash, full_name, role, is_active, token_version, must_change_password, created_at, updated_at)
       VALUES (?, ?, ?, 'generated:cannot-log-in', ?, ?, 1, 0, 0, ?, ?)`,
    );
    branches.forEach((b, bi) => {
      const ids: string[] = [];
      for (let k = 0; k < 4; k++) {
        const id = newId();
        const role = k === 0 ? 'pharmacist' : 'cashier';
        addUser.run(
          id,
          b,
          `gen.${bi}.${k}.${id.slice(-8)}@bench.local`,
          `Seller ${bi + 1}-${k + 1}`,
          role,
          at,
          at,
        );
        ids.push(id);
      }
      users.set(b, ids);
    });
    const addCategory = sqlite.prepare(
      'INSERT OR IGNORE INTO categories (id, slug, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?)',
    );
    for (const name of CATEGORIES)
      addCategory.run(newId(), name.toLowerCase().replace(/[^a-z0-9]+/g, '-'), name, at, at);
    const suppliers: string[] = [];
    const addSupplier = sqlite.prepare(
      'INSERT INTO suppliers (id, name, lead_time_days, reliability_score, is_active, created_at, updated_at) VALUES (?, ?, ?, ?, 1, ?, ?)',
    );
    for (let i = 0; i < 20; i++) {
      const id = newId();
      addSupplier.run(id, `Generated Supplier ${i + 1}`, int(2, 21), int(60, 100), at, at);
      suppliers.push(id);
    }
    const addMedicine = sqlite.prepare(
      `INSERT INTO medicines (id, name, category, form, strength, selling_price, low_stock_threshold, vat_category, is_active, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?)`,
    );
    const medicines: Array<SyntheticLine & { supplier: string }> = [];
    for (let i = 0; i < o.medicines; i++) {
      const id = newId();
      const price = int(5, 500) * 10;
      const vat = random() < 0.8 ? 'standard' : random() < 0.75 ? 'zero' : 'exempt';
      const form = pick(FORMS);
      const name = `Generated ${form} ${i + 1}`;
      addMedicine.run(
        id,
        name,
        pick(CATEGORIES)
          .toLowerCase()
          .replace(/[^a-z0-9]+/g, '-'),
        form,
        `${int(1, 100) * 5} mg`,
        price,
        int(5, 50),
        vat,
        at,
        at,
      );
      medicines.push({
        medicineId: id,
        name,
        quantity: 1,
        unitPrice: price,
        vatRate: vat === 'standard' ? 18 : 0,
        vatCategory: vat,
        unitCost: Math.round(price * (0.45 + random() * 0.3)),
        supplier: pick(suppliers),
      });
    }
    return medicines;
  });
  const medicines = reference();
  log(
    `reference data: ${branches.length} branches, ${medicines.length} medicines (${Math.round(performance.now() - started)} ms)`,
  );

  // Stock: two batches per branch and medicine, each with its purchase movement, received over the period.
  const spanMs = o.years * 365 * 86_400_000;
  const now = Date.now();
  const stock = sqlite.transaction(() => {
    const addBatch = sqlite.prepare(
      `INSERT INTO batches (id, medicine_id, branch_id, batch_number, expiry_date, qty_received, qty_on_hand, unit_cost, supplier_id,
        regulator_status, received_at, received_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`,
    );
    const addMovement = sqlite.prepare(
      `INSERT INTO stock_movements (id, batch_id, branch_id, medicine_id, type, quantity, reference_type, reference_id, user_id, reason, created_at)
       VALUES (?, ?, ?, ?, 'purchase', ?, 'purchase_receipt', ?, NULL, '', ?)`,
    );
    for (const b of branches) {
      for (const m of medicines) {
        for (let k = 0; k < 2; k++) {
          const id = newId();
          const received = new Date(now - random() * spanMs).toISOString();
          const expiry = new Date(now + (random() * 900 - 60) * 86_400_000).toISOString().slice(0, 10);
          const qty = int(20, 400);
          const status = random() < 0.01 ? 'quarantined' : 'active';
          addBatch.run(
            id,
            m.medicineId,
            b,
            `GB-${id.slice(-10)}`,
            expiry,
            qty,
            int(0, qty),
            m.unitCost,
            m.supplier,
            status,
            received,
            received,
            received,
          );
          addMovement.run(newId(), id, b, m.medicineId, qty, newId(), received);
        }
      }
    }
  });
  stock();
  log(
    `stock: ${branches.length * medicines.length * 2} batches (${Math.round(performance.now() - started)} ms)`,
  );

  // Sales, oldest first (sequential index inserts), during 08:00-21:00 local time.
  const write = saleWriter(sqlite);
  const devices = new Map(branches.map((b) => [b, { id: `gen-device-${b.slice(-12)}`, icv: 0 }]));
  const openMs = 13 * 3_600_000;
  const days = Math.max(1, Math.round(spanMs / 86_400_000));
  const firstDay = Math.floor(now / 86_400_000) - days + 1;
  const popular = medicines.slice(0, Math.max(1, Math.floor(medicines.length / 5)));
  let lines = 0;
  const BATCH = 20_000;
  for (let done = 0; done < o.sales; ) {
    const n = Math.min(BATCH, o.sales - done);
    sqlite.transaction(() => {
      for (let i = 0; i < n; i++) {
        const k = done + i;
        const day = firstDay + Math.floor((k * days) / o.sales);
        const soldMs = day * 86_400_000 + (8 - ZONE_OFFSET_HOURS) * 3_600_000 + Math.floor(random() * openMs);
        if (soldMs > now) continue;
        const branch = pick(branches);
        const device = devices.get(branch)!;
        const count = int(1, 5);
        const saleLines: SyntheticLine[] = [];
        const used = new Set<string>();
        for (let j = 0; j < count; j++) {
          const m = random() < 0.6 ? pick(popular) : pick(medicines);
          if (used.has(m.medicineId)) continue;
          used.add(m.medicineId);
          saleLines.push({ ...m, quantity: random() < 0.7 ? 1 : int(2, 6) });
        }
        const total = saleLines.reduce((a, l) => a + l.quantity * l.unitPrice, 0);
        const r = random();
        const payments =
          r < 0.65
            ? [{ method: 'cash', amount: Math.ceil(total / 1000) * 1000 }]
            : r < 0.85
              ? [{ method: 'card', amount: total }]
              : r < 0.95
                ? [{ method: 'mobile_money', amount: total }]
                : [
                    { method: 'card', amount: Math.floor(total / 2) },
                    { method: 'cash', amount: total - Math.floor(total / 2) },
                  ];
        write({
          branchId: branch,
          userId: pick(users.get(branch)!),
          deviceId: device.id,
          icv: ++device.icv,
          soldAt: new Date(soldMs).toISOString(),
          currency,
          lines: saleLines,
          payments,
        });
        lines += saleLines.length;
      }
    })();
    done += n;
    if (done % 100_000 < BATCH)
      log(`sales: ${done}/${o.sales} (${Math.round((performance.now() - started) / 1000)} s)`);
  }
  sqlite.exec('ANALYZE');
  sqlite.pragma('synchronous = FULL');
  await server.close();
  const seconds = Math.round((performance.now() - started) / 100) / 10;
  log(`done: ${o.sales} sales, ${lines} lines in ${seconds} s (time zone of generated branches: ${ZONE})`);
  return { sales: o.sales, lines, seconds };
}

function parseArgs(argv: string[]): GenerateOptions {
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
  const dataDir = args.get('data-dir');
  if (!dataDir) throw new Error('--data-dir is required (the server data folder to fill)');
  return {
    sales: num('sales', 1_000_000),
    branches: num('branches', 20),
    years: num('years', 2),
    medicines: num('medicines', 500),
    seed: num('seed', 42),
    dataDir,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) await generateSales(parseArgs(process.argv.slice(2)));
