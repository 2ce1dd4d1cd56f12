import type { Migration } from 'kysely';
import { runStatements, type Statement } from './run-statements';

/**
 * Organisation-wide report totals on PostgreSQL (issue 20: reports over 10,000,000 sales in under a second).
 * A report over the whole organisation and a year reads 5,000,000 sales and 15,000,000 lines; these tables hold
 * the same sums per UTC hour (sales, payments, VAT: every local day and month of a whole-hour time zone is a
 * run of UTC hours) or per UTC day (medicines, sellers: window totals, the partial days at a window's ends
 * read live). Exact by construction: statement-level triggers keep them in the transaction of every write to
 * sales, sale_lines and sale_payments, whatever writes (POST /sales, a till's push, a return, the generator's
 * COPY: ENABLE ALWAYS, so they fire under session_replication_role = replica too; a bulk generate:sales
 * load drops the INSERT triggers and rebuilds the summaries with REPORT_SUMMARY_BACKFILL). An insert adds its
 * sums; an update or delete of a summed column recomputes the hours and days it touched. Lines or payments
 * stored before their sale (deferred foreign keys) are counted when the sale arrives. Tills (SQLite) neither
 * keep nor read them. Every concurrent writer of the same hour or day updates the same rows (see docs/SCALING.md).
 */
const HOUR = 'substr(s.sold_at, 1, 13)';
const DAY = 'substr(s.sold_at, 1, 10)';

/** One summary: its table, key and summed columns, and the SELECT of its rows from sales `s` (+ l or p). */
export interface Summary {
  table: string;
  key: string[];
  sums: string[];
  /** max() instead of sum() (a name), never subtracted. */
  maxes?: string[];
  /** SELECT list in key, sums, maxes order; FROM and grouping are added per use. */
  select: string;
  from: 'sales' | 'lines' | 'payments';
  /** hour or day: the column the refresh filters on. */
  grain: 'hour' | 'day';
}

export const SUMMARIES: Summary[] = [
  {
    table: 'report_sales_hourly',
    key: ['hour'],
    sums: ['sales_count', 'revenue', 'vat', 'change_amount'],
    select: `${HOUR}, count(*), sum(s.base_total_amount), sum(s.base_vat_amount), sum(s.base_change_amount)`,
    from: 'sales',
    grain: 'hour',
  },
  {
    table: 'report_sellers_daily',
    key: ['day', 'branch_id', 'user_id'],
    sums: ['sales_count', 'revenue', 'vat'],
    select: `${DAY}, s.branch_id, s.user_id, count(*), sum(s.base_total_amount), sum(s.base_vat_amount)`,
    from: 'sales',
    grain: 'day',
  },
  {
    table: 'report_vat_hourly',
    key: ['hour', 'vat_rate', 'vat_category', 'currency_code', 'fx_rate_to_base'],
    sums: ['net', 'vat', 'gross'],
    select: `${HOUR}, l.vat_rate, l.vat_category, s.currency_code, s.fx_rate_to_base,
      sum(l.net_amount), sum(l.vat_amount), sum(l.line_total)`,
    from: 'lines',
    grain: 'hour',
  },
  {
    table: 'report_medicines_daily',
    key: ['day', 'medicine_id', 'currency_code', 'fx_rate_to_base'],
    sums: ['quantity', 'gross', 'net', 'cost'],
    maxes: ['medicine_name'],
    select: `${DAY}, l.medicine_id, s.currency_code, s.fx_rate_to_base,
      sum(l.quantity), sum(l.line_total), sum(l.net_amount), sum(l.cost_amount), max(l.medicine_name)`,
    from: 'lines',
    grain: 'day',
  },
  {
    table: 'report_payments_hourly',
    key: ['hour', 'method'],
    sums: ['sales_count', 'amount'],
    select: `${HOUR}, p.method, count(DISTINCT p.sale_id), sum(p.base_amount)`,
    from: 'payments',
    grain: 'hour',
  },
];

export const columnsOf = (s: Summary) => [...s.key, ...s.sums, ...(s.maxes ?? [])];

function createTable(s: Summary): string {
  const cols = [
    ...s.key.map((k) => `${k} TEXT NOT NULL`),
    ...s.sums.map((c) => `${c} BIGINT NOT NULL`),
    ...(s.maxes ?? []).map((c) => `${c} TEXT NOT NULL`),
  ];
  return `CREATE TABLE ${s.table} (${cols.join(', ')}, PRIMARY KEY (${s.key.join(', ')}))`;
}

/** The sales, lines and payments a summary's rows are read from: a transition table or the table. */
export type Sources = { sales: string; lines: string; payments: string };

/** FROM clause of a summary's rows: its sales, lines and payments sources. */
export function fromClause(s: Summary, sources: Sources): string {
  if (s.from === 'sales') return `${sources.sales} s`;
  if (s.from === 'lines') return `${sources.lines} l JOIN ${sources.sales} s ON s.id = l.sale_id`;
  return `${sources.payments} p JOIN ${sources.sales} s ON s.id = p.sale_id`;
}

export const groupBy = (s: Summary) => s.key.map((_, i) => i + 1).join(', ');

/** The ON CONFLICT clause of an insert into the summary `t`: adds the sums, keeps the greatest of the maxes. */
export function addOnConflict(s: Summary): string {
  const set = [
    ...s.sums.map((c) => `${c} = t.${c} + excluded.${c}`),
    ...(s.maxes ?? []).map((c) => `${c} = greatest(t.${c}, excluded.${c})`),
  ];
  return `ON CONFLICT (${s.key.join(', ')}) DO UPDATE SET ${set.join(', ')}`;
}

/** Adds the rows' sums to the summary (the INSERT path), keys in order so concurrent writers lock alike. */
function addRows(s: Summary, sources: Sources, select = s.select) {
  return `INSERT INTO ${s.table} AS t (${columnsOf(s).join(', ')})
    SELECT ${select} FROM ${fromClause(s, sources)} WHERE s.is_deleted = 0 GROUP BY ${groupBy(s)} ORDER BY ${groupBy(s)}
    ${addOnConflict(s)};`;
}

export const TABLES = { sales: 'sales', lines: 'sale_lines', payments: 'sale_payments' };

/**
 * A payment adds its sale to the method's count only if no earlier payment of that sale used the method
 * (count(DISTINCT sale_id), as the live report counts).
 */
const NEW_PAYMENT_SELECT = `${HOUR}, p.method,
  count(DISTINCT p.sale_id) FILTER (WHERE NOT EXISTS (SELECT 1 FROM sale_payments o
    WHERE o.sale_id = p.sale_id AND o.method = p.method AND o.id NOT IN (SELECT id FROM new_rows))),
  sum(p.base_amount)`;

/** One summary's part of a refresh: its key column, the keys recomputed ('hours' or 'days'), the INSERT. */
export interface RefreshPart {
  s: Summary;
  keyCol: string;
  keys: string;
  /** INSERT INTO the summary of its rows recomputed from the tables over the keys (no semicolon). */
  recompute: string;
}

function refreshPart(s: Summary): RefreshPart {
  const keyCol = s.grain === 'hour' ? 'hour' : 'day';
  const keyOf = s.grain === 'hour' ? HOUR : DAY;
  const set = s.grain === 'hour' ? 'hours' : 'days';
  const range =
    s.grain === 'hour'
      ? 's.sold_at >= low AND s.sold_at < high'
      : "s.sold_at >= substr(low, 1, 10) AND s.sold_at < to_char(CAST(substr(high, 1, 10) AS date) + 1, 'YYYY-MM-DD')";
  const recompute = `INSERT INTO ${s.table} (${columnsOf(s).join(', ')})
    SELECT ${s.select} FROM ${fromClause(s, TABLES)}
    WHERE s.is_deleted = 0 AND ${range} AND ${keyOf} = ANY(${set}) GROUP BY ${groupBy(s)}`;
  return { s, keyCol, keys: set, recompute };
}

/**
 * report_refresh(hours): recomputes every summary over the given UTC hours (and their days) from the tables,
 * `first` then each summary's `part`.
 */
export function refreshFunction(create: string, part: (p: RefreshPart) => string, first: string[] = []) {
  return `${create} report_refresh(hours TEXT[]) RETURNS void LANGUAGE plpgsql AS $$
DECLARE
  days TEXT[] := ARRAY(SELECT DISTINCT substr(h, 1, 10) FROM unnest(hours) h);
  low TEXT := (SELECT min(h) FROM unnest(hours) h);
  high TEXT := (SELECT max(h) FROM unnest(hours) h) || ';';
BEGIN
  IF low IS NULL THEN RETURN; END IF;
${[...first, ...SUMMARIES.map((s) => part(refreshPart(s)))].join('\n')}
END $$`;
}

const REFRESH = refreshFunction(
  'CREATE FUNCTION',
  (p) => `  DELETE FROM ${p.s.table} WHERE ${p.keyCol} = ANY(${p.keys});
  ${p.recompute};`,
);

const SALE_COLUMNS =
  's.sold_at, s.is_deleted, s.branch_id, s.user_id, s.base_total_amount, s.base_vat_amount, s.base_change_amount, s.currency_code, s.fx_rate_to_base';
const LINE_COLUMNS =
  's.sale_id, s.medicine_id, s.medicine_name, s.quantity, s.line_total, s.net_amount, s.vat_amount, s.cost_amount, s.vat_rate, s.vat_category';
const PAYMENT_COLUMNS = 's.sale_id, s.method, s.base_amount';

/** The hours an update or delete touched: of the changed rows (summed columns differ), old and new. */
function touchedHours(table: SummaryTable, event: 'UPDATE' | 'DELETE'): string {
  const columns = table === 'sales' ? SALE_COLUMNS : table === 'sale_lines' ? LINE_COLUMNS : PAYMENT_COLUMNS;
  const saleOf = (rows: string) =>
    table === 'sales'
      ? `SELECT s.sold_at FROM ${rows} s`
      : `SELECT x.sold_at FROM ${rows} s JOIN sales x ON x.id = s.sale_id`;
  if (event === 'DELETE') return `SELECT substr(sold_at, 1, 13) FROM (${saleOf('old_rows')}) d`;
  const changed = (rows: string, other: string) =>
    `${saleOf(rows)} WHERE NOT EXISTS (SELECT 1 FROM ${other} o WHERE o.id = s.id AND (${columns.replaceAll('s.', 'o.')}) IS NOT DISTINCT FROM (${columns}))`;
  return `SELECT substr(sold_at, 1, 13) FROM (${changed('old_rows', 'new_rows')} UNION ${changed('new_rows', 'old_rows')}) d`;
}

export type SummaryTable = 'sales' | 'sale_lines' | 'sale_payments';

/** The tables the summaries are kept from, and their statement-level INSERT triggers (ENABLE ALWAYS). */
export const SUMMARY_INSERT_TRIGGERS: ReadonlyArray<{ table: SummaryTable; trigger: string }> = (
  ['sales', 'sale_lines', 'sale_payments'] as const
).map((table) => ({ table, trigger: `report_${table}_insert` }));

/** What a write of `sources` adds to summary `s`: its grouped rows (`select`: the SELECT list to use). */
export type AddRows = (s: Summary, sources: Sources, select?: string) => string;

/** The body of a table's INSERT trigger: what its inserted rows add to each summary, written by `add`. */
export function insertedBody(table: SummaryTable, add: AddRows): string {
  const kind = table === 'sales' ? 'sales' : table === 'sale_lines' ? 'lines' : 'payments';
  const own = SUMMARIES.filter((s) => s.from === kind);
  return table === 'sales'
    ? // The sale's own sums, then lines and payments already stored before it (deferred foreign keys).
      SUMMARIES.map((s) => add(s, { ...TABLES, sales: 'new_rows' })).join('\n')
    : own
        .map((s) =>
          add(s, { ...TABLES, [kind]: 'new_rows' }, kind === 'payments' ? NEW_PAYMENT_SELECT : s.select),
        )
        .join('\n');
}

/** A trigger function of the summaries (`create`: CREATE FUNCTION or CREATE OR REPLACE FUNCTION). */
export const triggerFunction = (create: string, table: SummaryTable, event: string, body: string) =>
  `${create} report_${table}_${event.toLowerCase()}()
    RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN ${body} RETURN NULL; END $$`;

function triggers(table: SummaryTable): string[] {
  const inserted = insertedBody(table, addRows);
  const fn = (event: string, body: string) => triggerFunction('CREATE FUNCTION', table, event, body);
  const refresh = (event: 'UPDATE' | 'DELETE') =>
    `PERFORM report_refresh(ARRAY(SELECT DISTINCT h FROM (${touchedHours(table, event)}) t(h) WHERE h IS NOT NULL));`;
  const create = (event: string, referencing: string) => [
    `CREATE TRIGGER report_${table}_${event.toLowerCase()} AFTER ${event} ON ${table}
      REFERENCING ${referencing} FOR EACH STATEMENT EXECUTE FUNCTION report_${table}_${event.toLowerCase()}()`,
    `ALTER TABLE ${table} ENABLE ALWAYS TRIGGER report_${table}_${event.toLowerCase()}`,
  ];
  return [
    fn('INSERT', inserted),
    fn('UPDATE', refresh('UPDATE')),
    fn('DELETE', refresh('DELETE')),
    ...create('INSERT', 'NEW TABLE AS new_rows'),
    ...create('UPDATE', 'OLD TABLE AS old_rows NEW TABLE AS new_rows'),
    ...create('DELETE', 'OLD TABLE AS old_rows'),
  ];
}

/** Each summary's rows computed from the tables, in its column order (the backfill; tests compare with it). */
export const REPORT_SUMMARY_SOURCES: ReadonlyArray<{ table: string; columns: string[]; select: string }> =
  SUMMARIES.map((s) => ({
    table: s.table,
    columns: columnsOf(s),
    select: `SELECT ${s.select} FROM ${fromClause(s, TABLES)} WHERE s.is_deleted = 0 GROUP BY ${groupBy(s)}`,
  }));

/**
 * The backfill: each summary filled from the sales already stored, one INSERT per summary (in SUMMARIES order).
 * Run here on a central upgraded with its history, and into emptied summaries after a bulk load written with
 * the INSERT triggers disabled (bench/generate-sales.ts, through REPORT_SUMMARY_REBUILD of migration 0020).
 */
export const REPORT_SUMMARY_BACKFILL: readonly string[] = REPORT_SUMMARY_SOURCES.map(
  (s) => `INSERT INTO ${s.table} (${s.columns.join(', ')}) ${s.select}`,
);

const postgres: Statement = {
  sqlite: null,
  postgres: [
    // The backfill groups a whole history: sort and hash in memory.
    "SET LOCAL work_mem = '256MB'",
    ...SUMMARIES.map(createTable),
    // Branch comparison over the window's days.
    'CREATE INDEX report_sellers_daily_branch ON report_sellers_daily(day, branch_id) INCLUDE (sales_count, revenue)',
    REFRESH,
    ...triggers('sales'),
    ...triggers('sale_lines'),
    ...triggers('sale_payments'),
    ...REPORT_SUMMARY_BACKFILL,
    // A sale has a few lines and about one payment. ANALYZE's block sample sees a sale's lines side by side and
    // guessed ~85 lines per sale on 30,000,000 lines, so a branch's year of sales was joined to its lines
    // by a scan of every line (6.3 s) instead of an index probe per sale (0.3 s).
    'ALTER TABLE sale_lines ALTER COLUMN sale_id SET (n_distinct = -0.3)',
    'ALTER TABLE sale_payments ALTER COLUMN sale_id SET (n_distinct = -0.9)',
    'ANALYZE sale_lines, sale_payments',
  ],
};

export const reportSummaries: Migration = {
  async up(db) {
    await runStatements(db, [postgres]);
  },
};
