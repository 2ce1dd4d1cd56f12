import {
  type RowValues,
  type SyntheticLine,
  type SyntheticTable,
  syntheticSaleRows,
} from '../packages/server/src/modules/reports/synthetic-sales';
import { mulberry32 } from '../packages/server/src/lib/random';

/** The generator every stream draws from: the same numbers from one seed on any thread. */
export const rng = mulberry32;

/** murmur3's finaliser: spreads a 32-bit value over all 32 bits. */
function fmix(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}

/** The seed of one stream of one block: a function of the run's seed, the block's number and the stream's. */
const seedOf = (seed: number, block: number, stream: number) =>
  fmix((fmix(fmix(seed) ^ block) + stream) >>> 0);

const TWO = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));
const THREE = Array.from({ length: 1000 }, (_, i) => String(i).padStart(3, '0'));

/** toISOString of whole milliseconds, the day's part made once a day (a Date per sale was a tenth of its CPU). */
export function isoClock(): (ms: number) => string {
  let day = Number.NaN;
  let prefix = '';
  return (ms: number): string => {
    const d = Math.floor(ms / 86_400_000);
    if (d !== day) {
      day = d;
      prefix = new Date(d * 86_400_000).toISOString().slice(0, 11);
    }
    const t = ms - d * 86_400_000;
    const h = Math.floor(t / 3_600_000);
    const m = Math.floor(t / 60_000) % 60;
    return `${prefix}${TWO[h]}:${TWO[m]}:${TWO[Math.floor(t / 1000) % 60]}.${THREE[t % 1000]}Z`;
  };
}

/** The generated branches' time zone (Africa/Dar_es_Salaam) as an offset: sales are made 08:00-21:00 there. */
const ZONE_OFFSET_HOURS = 3;
const OPEN_MS = 13 * 3_600_000;

/**
 * Sales made from one pair of seeded streams: the unit of generate:sales' determinism. A run's sales are
 * numbered 0…N-1, oldest first; block b holds sales b·BLOCK… and draws its numbers from streams seeded by
 * (seed, b), so a block's sales are the same whoever makes it and whatever was made before it: on the main
 * thread or in any number of workers, in any order.
 */
export const BLOCK = 250;

/** What every block needs (structured-clonable: a sales worker receives it once). */
export interface SalesPlan {
  seed: number;
  /** Sales in the run. */
  sales: number;
  /** The run's "now" (ms): a sale that would fall after it (today, after this hour) is not made. */
  now: number;
  days: number;
  /** The first day of the period, in days since the epoch. */
  firstDay: number;
  currency: string;
  branches: readonly string[];
  /** The generated till of each branch (index as branches). */
  devices: readonly string[];
  /** The sellers of each branch (index as branches). */
  users: ReadonlyArray<readonly string[]>;
  medicines: readonly SyntheticLine[];
  /** The first `popular` medicines sell in 60 % of lines. */
  popular: number;
}

export const blockCount = (plan: SalesPlan): number => Math.ceil(plan.sales / BLOCK);

/** The sales numbers of block b: [first, end). */
const blockRange = (plan: SalesPlan, block: number) =>
  [block * BLOCK, Math.min(plan.sales, (block + 1) * BLOCK)] as const;

export const blockSales = (plan: SalesPlan, block: number): number => {
  const [first, end] = blockRange(plan, block);
  return end - first;
};

/**
 * The skeleton stream of a block: when each sale is made and at which branch (two draws a sale, made or
 * not), so the invoice counters of a block's tills are known without making its sales.
 */
function skeleton(plan: SalesPlan, block: number) {
  const s = rng(seedOf(plan.seed, block, 1));
  const dayBase = (8 - ZONE_OFFSET_HOURS) * 3_600_000;
  return (k: number) => {
    const day = plan.firstDay + Math.floor((k * plan.days) / plan.sales);
    const soldMs = day * 86_400_000 + dayBase + Math.floor(s() * OPEN_MS);
    const branch = Math.floor(s() * plan.branches.length);
    return soldMs <= plan.now ? { soldMs, branch } : undefined;
  };
}

/** Adds to `icv` (one counter per branch) the sales block b makes at each branch. */
export function countBlock(plan: SalesPlan, block: number, icv: Int32Array): void {
  const [first, end] = blockRange(plan, block);
  const next = skeleton(plan, block);
  for (let k = first; k < end; k++) {
    const sale = next(k);
    if (sale) icv[sale.branch]!++;
  }
}

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

/**
 * Makes block b's sales (1-5 lines of distinct medicines, cash / card / mobile money payments), handing each
 * row to `emit`, parents first. `icv` holds each branch's last invoice counter before the block and is advanced
 * past it. Returns the lines made.
 */
export function makeBlock(
  plan: SalesPlan,
  block: number,
  icv: Int32Array,
  ids: () => string,
  iso: (ms: number) => string,
  emit: (table: SyntheticTable, values: RowValues) => void,
): number {
  const [first, end] = blockRange(plan, block);
  const next = skeleton(plan, block);
  const d = rng(seedOf(plan.seed, block, 2));
  const pick = <T>(xs: readonly T[], n = xs.length): T => xs[Math.floor(d() * n)]!;
  const int = (lo: number, hi: number) => lo + Math.floor(d() * (hi - lo + 1));
  let lines = 0;
  for (let k = first; k < end; k++) {
    const sale = next(k);
    if (!sale) continue;
    const count = int(1, 5);
    const userId = pick(plan.users[sale.branch]!);
    const saleLines: SyntheticLine[] = [];
    for (let j = 0; j < count; j++) {
      const m = d() < 0.6 ? pick(plan.medicines, plan.popular) : pick(plan.medicines);
      if (saleLines.some((l) => l.medicineId === m.medicineId)) continue;
      saleLines.push({ ...m, quantity: d() < 0.7 ? 1 : int(2, 6) });
    }
    const total = saleLines.reduce((a, l) => a + l.quantity * l.unitPrice, 0);
    const rows = syntheticSaleRows(
      {
        branchId: plan.branches[sale.branch]!,
        userId,
        deviceId: plan.devices[sale.branch]!,
        icv: ++icv[sale.branch]!,
        soldAt: iso(sale.soldMs),
        currency: plan.currency,
        lines: saleLines,
        payments: paymentsOf(total, d()),
      },
      ids,
    );
    for (const values of rows.sales) emit('sales', values);
    for (const values of rows.sale_lines) emit('sale_lines', values);
    for (const values of rows.sale_payments) emit('sale_payments', values);
    lines += saleLines.length;
  }
  return lines;
}
