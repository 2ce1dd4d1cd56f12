import type { Sqlite } from '../../db/connection';
import { randomBytes } from 'node:crypto';
import { mulberry32 } from '../../lib/random';
import { slugify } from '../../lib/slug';
import { barcodeKey } from '../medicines/service';
import { addDays } from '@pharmacy/contracts/time';

/**
 * A large, realistic demo catalogue written straight through prepared statements in one transaction (100k
 * medicines in seconds): categories, suppliers, medicines with generic names, strengths, forms and valid
 * EAN-13 barcodes, extra branches, and batches with spread expiries, each with its purchase movement so the
 * ledger balances. Bulk demo data is local: it writes no change_log rows (a till would not push it).
 */
export interface DemoSize {
  medicines: number;
  batches: number;
  /** Branches holding the batches, Main Branch included (extra ones are created as DEMO02…). */
  branches: number;
  suppliers: number;
  seed: number;
}

export const DEMO_SIZES: Record<'small' | 'medium' | 'large', DemoSize> = {
  small: { medicines: 1_000, batches: 3_000, branches: 2, suppliers: 20, seed: 1 },
  medium: { medicines: 20_000, batches: 60_000, branches: 5, suppliers: 100, seed: 1 },
  large: { medicines: 100_000, batches: 300_000, branches: 15, suppliers: 300, seed: 1 },
};

const GENERICS: Array<[string, string[], string[], string]> = [
  ['Paracetamol', ['500 mg', '1 g', '120 mg/5 ml'], ['tablet', 'suspension'], 'Analgesics'],
  ['Ibuprofen', ['200 mg', '400 mg', '100 mg/5 ml'], ['tablet', 'suspension'], 'Analgesics'],
  ['Diclofenac', ['50 mg', '75 mg/3 ml'], ['tablet', 'injection'], 'Analgesics'],
  ['Amoxicillin', ['250 mg', '500 mg', '125 mg/5 ml'], ['capsule', 'suspension'], 'Antibiotics'],
  ['Azithromycin', ['250 mg', '500 mg'], ['tablet'], 'Antibiotics'],
  ['Ciprofloxacin', ['250 mg', '500 mg'], ['tablet'], 'Antibiotics'],
  ['Ceftriaxone', ['1 g', '500 mg'], ['injection'], 'Antibiotics'],
  ['Doxycycline', ['100 mg'], ['capsule'], 'Antibiotics'],
  ['Metronidazole', ['200 mg', '400 mg'], ['tablet'], 'Antibiotics'],
  ['Artemether + Lumefantrine', ['20/120 mg', '80/480 mg'], ['tablet'], 'Antimalarials'],
  ['Quinine', ['300 mg'], ['tablet', 'injection'], 'Antimalarials'],
  ['Amlodipine', ['5 mg', '10 mg'], ['tablet'], 'Cardiovascular'],
  ['Lisinopril', ['5 mg', '10 mg', '20 mg'], ['tablet'], 'Cardiovascular'],
  ['Atorvastatin', ['10 mg', '20 mg', '40 mg'], ['tablet'], 'Cardiovascular'],
  ['Losartan', ['50 mg', '100 mg'], ['tablet'], 'Cardiovascular'],
  ['Furosemide', ['40 mg'], ['tablet', 'injection'], 'Cardiovascular'],
  ['Metformin', ['500 mg', '850 mg', '1000 mg'], ['tablet'], 'Diabetes'],
  ['Glibenclamide', ['5 mg'], ['tablet'], 'Diabetes'],
  ['Insulin glargine', ['100 IU/ml'], ['injection'], 'Diabetes'],
  ['Salbutamol', ['100 mcg/dose', '4 mg'], ['inhaler', 'tablet'], 'Respiratory'],
  ['Cetirizine', ['10 mg', '5 mg/5 ml'], ['tablet', 'syrup'], 'Respiratory'],
  ['Loratadine', ['10 mg'], ['tablet'], 'Respiratory'],
  ['Omeprazole', ['20 mg', '40 mg'], ['capsule'], 'Gastrointestinal'],
  ['Loperamide', ['2 mg'], ['capsule'], 'Gastrointestinal'],
  ['Ondansetron', ['4 mg', '8 mg'], ['tablet', 'injection'], 'Gastrointestinal'],
  ['Ascorbic acid', ['500 mg', '1000 mg'], ['tablet', 'effervescent tablet'], 'Vitamins & Supplements'],
  ['Ferrous sulphate', ['200 mg'], ['tablet'], 'Vitamins & Supplements'],
  ['Folic acid', ['5 mg'], ['tablet'], 'Vitamins & Supplements'],
  ['Clotrimazole', ['1 %', '100 mg'], ['cream', 'pessary'], 'Dermatology'],
  ['Hydrocortisone', ['1 %'], ['cream', 'ointment'], 'Dermatology'],
  ['Morphine', ['10 mg', '10 mg/ml'], ['tablet', 'injection'], 'Controlled Drugs'],
  ['Tramadol', ['50 mg'], ['capsule'], 'Controlled Drugs'],
  ['Diazepam', ['5 mg', '10 mg/2 ml'], ['tablet', 'injection'], 'Controlled Drugs'],
  ['Chlorhexidine', ['0.5 %'], ['solution'], 'First Aid'],
];

/** The syllables brand names are made of (the catalogue bench types their prefixes). */
export const DEMO_SYLLABLES = [
  'ka',
  'lo',
  'mi',
  'ra',
  'ne',
  'to',
  'vi',
  'sa',
  'du',
  'fe',
  'gra',
  'pro',
  'zen',
  'tor',
  'lex',
  'cor',
  'max',
  'vel',
  'bri',
  'sol',
];
const SUFFIXES = ['in', 'ol', 'ex', 'an', 'ix', 'ium', 'ene', 'ora', 'id', 'ate'];

/** A valid EAN-13 from 12 digits. */
export function ean13(body: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += Number(body[i]) * (i % 2 ? 3 : 1);
  return body + ((10 - (sum % 10)) % 10);
}

/**
 * UUIDv7s for bulk loads: the same layout as lib/ids (48-bit millisecond time, version 7, variant 10, random
 * bits), with randomness drawn from one buffer instead of a system call per id (8 µs -> 0.3 µs).
 */
function bulkIds(): () => string {
  let pool = randomBytes(0);
  let offset = 0;
  let seq = 0;
  return () => {
    if (offset + 10 > pool.length) {
      pool = randomBytes(1 << 20);
      offset = 0;
    }
    const ms = Date.now();
    const hex = ms.toString(16).padStart(12, '0');
    const r = pool.subarray(offset, offset + 10);
    offset += 10;
    seq = (seq + 1) & 0xfff;
    const randA = (seq ^ ((r[0]! << 4) & 0xfff)).toString(16).padStart(3, '0');
    const variant = ((r[1]! & 0x3f) | 0x80).toString(16).padStart(2, '0');
    const rest = r.subarray(2, 9).toString('hex');
    return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-7${randA}-${variant}${rest.slice(0, 2)}-${rest.slice(2, 14)}`;
  };
}

/** Secondary indexes and the FTS insert trigger of the bulk-loaded tables: dropped for the load, rebuilt after. */
function suspendIndexes(sqlite: Sqlite): () => void {
  const objects = sqlite
    .prepare(
      `SELECT type, name, sql FROM sqlite_master
       WHERE sql IS NOT NULL AND ((type = 'index' AND tbl_name IN ('batches', 'stock_movements', 'medicines'))
         OR (type = 'trigger' AND name = 'medicines_fts_insert'))`,
    )
    .all() as Array<{ type: string; name: string; sql: string }>;
  for (const o of objects) sqlite.exec(`DROP ${o.type === 'index' ? 'INDEX' : 'TRIGGER'} "${o.name}"`);
  return () => {
    for (const o of objects) sqlite.exec(o.sql);
    sqlite.exec("INSERT INTO medicines_fts(medicines_fts) VALUES ('rebuild')");
  };
}

export interface DemoResult {
  medicines: number;
  batches: number;
  branches: string[];
  ms: number;
}

/** What every step of the generator shares: the connection, the seeded random source, ids and the time. */
interface DemoContext {
  sqlite: Sqlite;
  size: DemoSize;
  rand: () => number;
  pick: <T>(xs: readonly T[]) => T;
  newId: () => string;
  at: string;
  today: string;
}

/** The Main Branch and size.branches - 1 demo branches (kept when they exist), their ids. */
function demoBranches(
  c: DemoContext,
  main: { id: string; currency_code: string; timezone: string },
): string[] {
  const { sqlite, newId, at } = c;
  const branches = [main.id];
  const insertBranch = sqlite.prepare(
    `INSERT INTO branches (id, name, code, address, phone, vat_number, currency_code, timezone, is_active, created_at, updated_at)
     VALUES (?, ?, ?, '', '', '', ?, ?, 1, ?, ?) ON CONFLICT(code) DO NOTHING`,
  );
  for (let i = 2; i <= c.size.branches; i++) {
    const code = `DEMO${String(i).padStart(2, '0')}`;
    insertBranch.run(newId(), `Demo Branch ${i}`, code, main.currency_code, main.timezone, at, at);
    branches.push((sqlite.prepare('SELECT id FROM branches WHERE code = ?').get(code) as { id: string }).id);
  }
  return branches;
}

function demoCategories(c: DemoContext): void {
  const insertCategory = c.sqlite.prepare(
    'INSERT INTO categories (id, slug, name, created_at, updated_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
  );
  for (const name of new Set(GENERICS.map((g) => g[3])))
    insertCategory.run(c.newId(), slugify(name), name, c.at, c.at);
}

function demoSuppliers(c: DemoContext): string[] {
  const { rand, pick, at } = c;
  const insertSupplier = c.sqlite.prepare(
    `INSERT INTO suppliers (id, name, tax_number, supplier_type, lead_time_days, reliability_score, contact_person, phone, email, address, notes, is_active, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, '', ?, '', '', '', 1, ?, ?)`,
  );
  const suppliers: string[] = [];
  for (let i = 0; i < c.size.suppliers; i++) {
    const id = c.newId();
    const name = `${pick(DEMO_SYLLABLES).toUpperCase()}${pick(DEMO_SYLLABLES)} ${pick(['Pharma', 'Medical', 'Health', 'Distributors', 'Life Sciences'])} ${i + 1}`;
    insertSupplier.run(
      id,
      name,
      `DEMO-TIN-${100000 + i}`,
      pick(['distributor', 'wholesaler', 'manufacturer']),
      2 + Math.floor(rand() * 20),
      60 + Math.floor(rand() * 41),
      `+255 700 ${String(i).padStart(6, '0')}`,
      at,
      at,
    );
    suppliers.push(id);
  }
  return suppliers;
}

function demoMedicines(c: DemoContext): Array<{ id: string; price: number }> {
  const { rand, pick, at } = c;
  const insertMedicine = c.sqlite.prepare(
    `INSERT INTO medicines (id, name, generic_name, barcode, barcode_key, category, form, strength, unit, selling_price, max_public_price,
       low_stock_threshold, requires_prescription, is_controlled, requires_cold_chain, is_active, vat_category, regulator_registration_no,
       image_key, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, NULL, ?, ?)`,
  );
  const medicines: Array<{ id: string; price: number }> = [];
  for (let i = 0; i < c.size.medicines; i++) {
    const [generic, strengths, forms, category] = pick(GENERICS);
    const brand = `${pick(DEMO_SYLLABLES)}${pick(DEMO_SYLLABLES)}${pick(SUFFIXES)}`;
    const strength = pick(strengths);
    const form = pick(forms);
    const name = `${brand[0]!.toUpperCase()}${brand.slice(1)} ${strength}`;
    const barcode = ean13(`62${String(i).padStart(10, '0')}`);
    const controlled = category === 'Controlled Drugs';
    const price = 50 + Math.floor(rand() * 5000);
    const id = c.newId();
    insertMedicine.run(
      id,
      name,
      generic,
      barcode,
      barcodeKey(barcode),
      slugify(category),
      form,
      strength,
      pick(['box', 'strip of 10', 'bottle', 'pack']),
      price,
      rand() < 0.3 ? price + Math.floor(rand() * 500) : null,
      5 + Math.floor(rand() * 20),
      controlled || rand() < 0.4 ? 1 : 0,
      controlled ? 1 : 0,
      form === 'injection' && rand() < 0.3 ? 1 : 0,
      rand() < 0.7 ? 'zero' : 'standard',
      `DEMO/${1000000 + i}`,
      at,
      at,
    );
    medicines.push({ id, price });
  }
  return medicines;
}

/** size.batches batches spread over the branches, each received by a `purchase` movement; their count. */
function demoBatches(
  c: DemoContext,
  branches: readonly string[],
  suppliers: readonly string[],
  medicines: ReadonlyArray<{ id: string; price: number }>,
): number {
  const { sqlite, rand, pick, newId, at } = c;
  const insertBatch = sqlite.prepare(
    `INSERT INTO batches (id, medicine_id, branch_id, batch_number, expiry_date, qty_received, qty_on_hand, unit_cost, supplier_id,
       regulator_status, received_at, received_by, created_at, updated_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?)`,
  );
  const insertMovement = sqlite.prepare(
    `INSERT INTO stock_movements (id, batch_id, branch_id, medicine_id, type, quantity, reference_type, reference_id, user_id, reason, created_at)
     VALUES (?, ?, ?, ?, 'purchase', ?, 'demo_catalogue', ?, NULL, 'demo catalogue', ?)`,
  );
  const reference = newId();
  let batches = 0;
  for (let i = 0; i < c.size.batches && medicines.length > 0; i++) {
    const branchId = branches[i % branches.length]!;
    const m = medicines[Math.floor(rand() * medicines.length)]!;
    const qty = 1 + Math.floor(rand() * 200);
    const r = rand();
    const status = r < 0.01 ? 'recalled' : r < 0.03 ? 'quarantined' : 'active';
    const id = newId();
    // Expiries from 60 days ago to ~2.5 years ahead: some expired, some expiring, most fine.
    insertBatch.run(
      id,
      m.id,
      branchId,
      `L${String(i).padStart(7, '0')}`,
      addDays(c.today, -60 + Math.floor(rand() * 960)),
      qty,
      qty,
      Math.max(1, Math.floor(m.price * (0.5 + rand() * 0.3))),
      suppliers.length ? pick(suppliers) : null,
      status,
      at,
      at,
      at,
    );
    insertMovement.run(newId(), id, branchId, m.id, qty, reference, at);
    batches++;
  }
  return batches;
}

export function generateDemoCatalogue(sqlite: Sqlite, size: DemoSize): DemoResult {
  const started = performance.now();
  const rand = mulberry32(size.seed);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)]!;
  const at = new Date().toISOString();
  const today = at.slice(0, 10);
  const main = sqlite.prepare("SELECT id, currency_code, timezone FROM branches WHERE code = 'MAIN'").get() as
    | { id: string; currency_code: string; timezone: string }
    | undefined;
  if (!main) throw new Error('the database has no Main Branch; start the server once to seed it');

  // A bulk load: a big page cache so index pages are not spilled and rewritten, and no fsync until the end
  // (a crash half-way rolls the whole transaction back anyway). Restored afterwards.
  const cacheSize = sqlite.pragma('cache_size', { simple: true }) as number;
  const synchronous = sqlite.pragma('synchronous', { simple: true }) as number;
  sqlite.pragma('cache_size = -1000000');
  sqlite.pragma('synchronous = OFF');
  const c: DemoContext = { sqlite, size, rand, pick, newId: bulkIds(), at, today };
  const run = sqlite.transaction(() => {
    const restore = suspendIndexes(sqlite);
    const branches = demoBranches(c, main);
    demoCategories(c);
    const suppliers = demoSuppliers(c);
    const medicines = demoMedicines(c);
    const batches = demoBatches(c, branches, suppliers, medicines);
    restore();
    return { branches, batches };
  });
  let out: { branches: string[]; batches: number };
  try {
    out = run();
  } finally {
    sqlite.pragma(`cache_size = ${cacheSize}`);
    sqlite.pragma(`synchronous = ${synchronous}`);
  }
  const { branches, batches } = out;
  sqlite.pragma('wal_checkpoint(TRUNCATE)');
  sqlite.pragma('optimize');
  return { medicines: size.medicines, batches, branches, ms: Math.round(performance.now() - started) };
}
