import type { Migration } from 'kysely';
import {
  type AddRows,
  addOnConflict,
  columnsOf,
  fromClause,
  groupBy,
  insertedBody,
  REPORT_SUMMARY_BACKFILL,
  refreshFunction,
  SUMMARIES,
  type Summary,
  triggerFunction,
} from './0019_report_summaries';
import { runStatements, type Statement } from './run-statements';

/**
 * The report summaries of migration 0019 without a hot row (PostgreSQL only). A sale no longer upserts this
 * hour's organisation-wide rows, which every till's push updated and held locked until its commit: the INSERT
 * triggers append their grouped rows to `T_delta` (same columns, no key: plain inserts that lock nothing
 * another writer needs), central folds the deltas into `T` every few seconds (report_fold_deltas, called by
 * modules/reports/summaries.ts), and readers read the view `T_all` = T UNION ALL T_delta, exact at every
 * moment before or after a fold. The refresh of an update or delete recomputes T over its hours and days and
 * drops their deltas.
 */

/**
 * Fold and refresh both write T and remove deltas; they take this transaction-scoped advisory lock, so they
 * never interleave (a refresh dropping deltas a fold has already moved into T, or recomputing an hour the fold
 * then adds its deltas to, would count a sale twice). The fold only tries it (a refresh is rare and the next
 * fold follows in seconds); writers of sales never take it.
 */
const FOLD_LOCK = 7_301_003;

const delta = (s: Summary) => `${s.table}_delta`;
const all = (s: Summary) => `${s.table}_all`;
const columns = (s: Summary) => columnsOf(s).join(', ');

/** The INSERT path: the rows' sums appended to the summary's deltas. */
const appendRows: AddRows = (s, sources, select = s.select) =>
  `INSERT INTO ${delta(s)} (${columns(s)})
    SELECT ${select} FROM ${fromClause(s, sources)} WHERE s.is_deleted = 0 GROUP BY ${groupBy(s)};`;

const overwrite = (s: Summary) =>
  [...s.sums, ...(s.maxes ?? [])].map((c) => `${c} = excluded.${c}`).join(', ');

/** A summary's rows summed per key: the SELECT list over `T_delta` or `T_all` (key, sums, maxes). */
const totals = (s: Summary) =>
  [...s.key, ...s.sums.map((c) => `sum(${c})`), ...(s.maxes ?? []).map((c) => `max(${c})`)].join(', ');

/**
 * The deltas removed and added to T in one statement (one snapshot: exactly the rows deleted are added), so a
 * reader of T_all sees a sale in the deltas or in T, never both.
 */
const foldInto = (s: Summary) => `  WITH moved AS (DELETE FROM ${delta(s)} RETURNING ${columns(s)})
  INSERT INTO ${s.table} AS t (${columns(s)}) SELECT ${totals(s)} FROM moved GROUP BY ${groupBy(s)}
    ${addOnConflict(s)};`;

const FOLD = `CREATE FUNCTION report_fold_deltas() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_try_advisory_xact_lock(${FOLD_LOCK}) THEN RETURN false; END IF;
${SUMMARIES.map(foldInto).join('\n')}
  RETURN true;
END $$`;

/**
 * The refresh drops the deltas of the keys it recomputes in the statement that recomputes them: one snapshot,
 * so a sale committed meanwhile is either in both (dropped and recomputed) or in neither (its delta stays).
 * The lock is taken after the caller's first statement: a REPEATABLE READ or SERIALIZABLE caller's snapshot
 * may predate a fold that committed while it waited, and then a row of T or of the deltas that fold changed
 * or added is one PostgreSQL refuses to overwrite unseen (the ON CONFLICT: a serialization failure, retried
 * like any conflict, rather than a unique violation). Under READ COMMITTED each statement sees the fold.
 */
const REFRESH = refreshFunction(
  'CREATE OR REPLACE FUNCTION',
  (p) => `  DELETE FROM ${p.s.table} WHERE ${p.keyCol} = ANY(${p.keys});
  WITH cleared AS (DELETE FROM ${delta(p.s)} WHERE ${p.keyCol} = ANY(${p.keys}))
  ${p.recompute}
    ON CONFLICT (${p.s.key.join(', ')}) DO UPDATE SET ${overwrite(p.s)};`,
  [`  PERFORM pg_advisory_xact_lock(${FOLD_LOCK});`],
);

/** Each summary's rows as readers see them (T and its deltas, summed per key), in 0019's column order. */
export const REPORT_SUMMARY_TOTALS: ReadonlyArray<{ table: string; columns: string[]; select: string }> =
  SUMMARIES.map((s) => ({
    table: s.table,
    columns: columnsOf(s),
    select: `SELECT ${totals(s)} FROM ${all(s)} GROUP BY ${groupBy(s)}`,
  }));

/**
 * The summaries rebuilt from the tables after a bulk load that wrote sales, lines and payments with the INSERT
 * triggers disabled (bench/generate-sales.ts): per summary, its rows and deltas emptied, then migration 0019's
 * backfill: what the triggers would have written. One transaction (the "owner") first takes `lock`: the fold
 * lock (no fold or refresh interleaves) and the three tables locked against writers until it commits, having
 * enabled the triggers again, so a sale written meanwhile waits and is then counted by them. Summaries may be
 * rebuilt by other transactions started after that lock was granted (they see every sale stored, and no write
 * can follow until the owner commits), each committing before the owner enables the triggers. Every
 * transaction first runs `settings`.
 */
export const REPORT_SUMMARY_REBUILD = {
  lock: [
    `SELECT pg_advisory_xact_lock(${FOLD_LOCK})`,
    'LOCK TABLE sales, sale_lines, sale_payments IN SHARE MODE',
  ],
  // As the backfill of migration 0019: a whole history grouped in memory.
  settings: ["SET LOCAL work_mem = '256MB'"],
  summaries: SUMMARIES.map((s, i) => ({
    table: s.table,
    statements: [`TRUNCATE ${s.table}, ${delta(s)}`, REPORT_SUMMARY_BACKFILL[i]!],
  })),
};

const postgres: Statement = {
  sqlite: null,
  postgres: [
    // Same columns and NOT NULLs, no key: the refresh and the fold scan a few seconds of deltas.
    ...SUMMARIES.map((s) => `CREATE TABLE ${delta(s)} (LIKE ${s.table})`),
    ...SUMMARIES.map(
      (s) =>
        `CREATE VIEW ${all(s)} AS SELECT ${columns(s)} FROM ${s.table} UNION ALL SELECT ${columns(s)} FROM ${delta(s)}`,
    ),
    REFRESH,
    FOLD,
    ...(['sales', 'sale_lines', 'sale_payments'] as const).map((table) =>
      triggerFunction('CREATE OR REPLACE FUNCTION', table, 'INSERT', insertedBody(table, appendRows)),
    ),
  ],
};

export const reportSummaryDeltas: Migration = {
  async up(db) {
    await runStatements(db, [postgres]);
  },
};
