import { hash as digest } from 'node:crypto';
import type { Sqlite } from '../../db/connection';
import { newId } from '../../lib/ids';
import { mulDivRound } from '../../lib/money';

/**
 * Finished sales (with lines and payments) as the rows of the selling tables: report tests and the sales
 * generator (bench/generate-sales.ts) use them to lay down history quickly. The rows are what POST /sales would
 * store for a sale in the base currency with VAT-inclusive prices, without the stock movements, fiscal chain or
 * change log (history, not live selling). `syntheticSaleRows` computes them (the one rule); a writer only
 * stores them: `saleWriter` with SQLite prepared statements, the generator with PostgreSQL's COPY, the test
 * harness through t.exec.
 */
export interface SyntheticLine {
  medicineId: string;
  name: string;
  quantity: number;
  /** Minor units, VAT included. */
  unitPrice: number;
  /** Percent, e.g. 18 or 0. */
  vatRate: number;
  vatCategory: string;
  /** Minor units per unit (the FEFO batch cost). */
  unitCost: number;
}

export interface SyntheticSale {
  id?: string;
  branchId: string;
  userId: string;
  deviceId: string;
  icv: number;
  soldAt: string;
  currency: string;
  lines: SyntheticLine[];
  /** Default: one cash payment of the total. Cash may exceed the total (change is given back). */
  payments?: Array<{ method: string; amount: number }>;
}

/** The columns each table's rows give values for, in order (the rest take their defaults). */
export const SYNTHETIC_COLUMNS = {
  sales: [
    'id',
    'branch_id',
    'user_id',
    'session_id',
    'device_id',
    'invoice_number',
    'uuid',
    'icv',
    'client_mutation_id',
    'payload_hash',
    'sync_status',
    'subtotal_amount',
    'vat_amount',
    'total_amount',
    'paid_amount',
    'change_amount',
    'currency_code',
    'base_currency_code',
    'fx_rate_to_base',
    'base_total_amount',
    'base_vat_amount',
    'base_change_amount',
    'vat_breakdown',
    'prices_include_vat',
    'payment_method',
    'fiscal_xml',
    'fiscal_hash',
    'previous_hash',
    'sold_at',
    'created_at',
  ],
  sale_lines: [
    'id',
    'sale_id',
    'line_no',
    'medicine_id',
    'medicine_name',
    'quantity',
    'unit_price',
    'catalogue_price',
    'net_amount',
    'vat_amount',
    'line_total',
    'vat_rate',
    'vat_category',
    'cost_amount',
    'batches',
  ],
  sale_payments: ['id', 'sale_id', 'line_no', 'method', 'amount', 'base_amount', 'reference'],
} as const;

export type SyntheticTable = keyof typeof SYNTHETIC_COLUMNS;
/** One row's values, in the order of its table's SYNTHETIC_COLUMNS. */
export type RowValues = Array<string | number | null>;

export interface SyntheticSaleRows {
  id: string;
  sales: RowValues[];
  sale_lines: RowValues[];
  sale_payments: RowValues[];
}

/**
 * The rows of one sale, parents first: amounts, VAT by rate, change and the payment method computed once. Its
 * ids come from `ids` (lib/ids.ts' newId; the sales generator passes a faster maker of the same UUIDv7 text).
 */
export function syntheticSaleRows(s: SyntheticSale, ids: () => string = newId): SyntheticSaleRows {
  const newId = ids;
  const id = s.id ?? newId();
  let total = 0;
  let vat = 0;
  const byRate = new Map<number, { rate: string; taxable: number; vat: number }>();
  const lines = s.lines.map((l, i): RowValues => {
    const gross = l.quantity * l.unitPrice;
    const lineVat = mulDivRound(gross, BigInt(l.vatRate), BigInt(100 + l.vatRate));
    total += gross;
    vat += lineVat;
    const b = byRate.get(l.vatRate) ?? { rate: String(l.vatRate), taxable: 0, vat: 0 };
    b.taxable += gross - lineVat;
    b.vat += lineVat;
    byRate.set(l.vatRate, b);
    return [
      newId(),
      id,
      i + 1,
      l.medicineId,
      l.name,
      l.quantity,
      l.unitPrice,
      l.unitPrice,
      gross - lineVat,
      lineVat,
      gross,
      String(l.vatRate),
      l.vatCategory,
      l.quantity * l.unitCost,
      '[]',
    ];
  });
  const payments = (s.payments ?? [{ method: 'cash', amount: total }]).filter((p) => p.amount > 0);
  const paid = payments.reduce((a, p) => a + p.amount, 0);
  const change = Math.max(0, paid - total);
  // crypto.hash: a third of createHash's cost (no Hash object), which the sales generator felt.
  const hash = digest('sha256', id, 'hex');
  const sale: RowValues = [
    id,
    s.branchId,
    s.userId,
    null,
    s.deviceId,
    `INV-${s.deviceId.slice(0, 8)}-${s.icv}`,
    newId(),
    s.icv,
    newId(),
    hash,
    'synced',
    total - vat,
    vat,
    total,
    paid,
    change,
    s.currency,
    s.currency,
    '1',
    total,
    vat,
    change,
    JSON.stringify([...byRate.values()]),
    1,
    payments.length > 1 ? 'split' : (payments[0]?.method ?? 'cash'),
    '',
    hash,
    '',
    s.soldAt,
    s.soldAt,
  ];
  return {
    id,
    sales: [sale],
    sale_lines: lines,
    sale_payments: payments.map((p, i) => [newId(), id, i + 1, p.method, p.amount, p.amount, '']),
  };
}

/** INSERT of one row of a table's synthetic columns, with ? placeholders. */
export const syntheticInsertSql = (table: SyntheticTable): string =>
  `INSERT INTO ${table} (${SYNTHETIC_COLUMNS[table].join(', ')}) VALUES (${SYNTHETIC_COLUMNS[table].map(() => '?').join(', ')})`;

export const SYNTHETIC_TABLES: readonly SyntheticTable[] = ['sales', 'sale_lines', 'sale_payments'];

/** Writes sales through SQLite prepared statements (the caller's transaction, if any); returns the sale id. */
export function saleWriter(sqlite: Sqlite) {
  const statements = SYNTHETIC_TABLES.map(
    (table) => [table, sqlite.prepare(syntheticInsertSql(table))] as const,
  );
  return (s: SyntheticSale): string => {
    const rows = syntheticSaleRows(s);
    for (const [table, statement] of statements) for (const r of rows[table]) statement.run(...r);
    return rows.id;
  };
}
