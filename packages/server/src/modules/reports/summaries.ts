import { addDays } from '@pharmacy/contracts/time';
import { type RawBuilder, sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { repeatInBackground } from '../../lib/background';
import { reportStore } from './store';
import type { ReportWindow } from './window';

/**
 * Organisation-wide reports on PostgreSQL read the summaries of migrations 0019 and 0020 (kept exact by
 * triggers in the transaction of every sales write, which append to the `_delta` tables that central folds
 * into the summaries in the background) through the `_all` views (summary plus deltas), instead of every sale
 * and line of the window. They answer only what they
 * can answer exactly: the whole organisation (a branch's window stays live: one branch's share is small), UTC
 * hours when both ends of the window fall on a whole hour (the hour buckets of a whole-hour time zone are
 * then the summary's own hours), UTC days for window totals, with the partial days at either end read live.
 * SQLite (a till, a small central) always reads the tables.
 */

const WHOLE_HOUR = /^\d{4}-\d\d-\d\dT\d\d:00:00(\.000)?Z$/;

/** The window as a range of UTC hour keys ('YYYY-MM-DDTHH', end excluded), or null to read live. */
export function summaryHours(w: ReportWindow): { from: string; to: string } | null {
  if (!w.store.summaries || w.branchId) return null;
  if (!WHOLE_HOUR.test(w.startIso) || !WHOLE_HOUR.test(w.endIso)) return null;
  return { from: w.startIso.slice(0, 13), to: w.endIso.slice(0, 13) };
}

const nextDay = (day: string) => addDays(day, 1);
const midnight = (day: string) => `${day}T00:00:00.000Z`;

/**
 * The whole UTC days inside the window ('YYYY-MM-DD', end excluded) and the live parts before and after them;
 * null (read it all live) on SQLite, for a branch, or when the window holds no whole UTC day.
 */
export function summaryDays(w: ReportWindow): { from: string; to: string; edges: ReportWindow[] } | null {
  if (!w.store.summaries || w.branchId) return null;
  const first =
    WHOLE_HOUR.test(w.startIso) && w.startIso.slice(11, 13) === '00'
      ? w.startIso.slice(0, 10)
      : nextDay(w.startIso.slice(0, 10));
  const last = w.endIso.slice(0, 10);
  if (first >= last) return null;
  const edges = [
    { ...w, endIso: midnight(first) },
    { ...w, startIso: midnight(last) },
  ].filter((e) => e.startIso < e.endIso);
  return { from: first, to: last, edges };
}

/**
 * Rows of a window-total query: the summary's rows over the whole days plus the live query over the edges, or
 * the live query alone. Rows of one key are merged by the caller as the live query's own groups would be.
 */
export async function overDays<R>(
  w: ReportWindow,
  live: (w: ReportWindow) => Promise<R[]>,
  summary: (from: string, to: string) => Promise<R[]>,
): Promise<R[]> {
  const days = summaryDays(w);
  if (!days) return live(w);
  const parts = await Promise.all([summary(days.from, days.to), ...days.edges.map(live)]);
  return parts.flat();
}

/** Sums rows of the same key (numeric fields) and keeps the greatest of the `max` fields. */
export function mergeRows<R extends object>(
  rows: R[],
  key: (r: R) => string,
  sums: ReadonlyArray<keyof R>,
  maxes: ReadonlyArray<keyof R> = [],
): R[] {
  const merged = new Map<string, R>();
  for (const r of rows) {
    const k = key(r);
    const m = merged.get(k);
    if (!m) {
      merged.set(k, { ...r });
      continue;
    }
    const acc = m as Record<keyof R, unknown>;
    for (const f of sums) acc[f] = Number(m[f]) + Number(r[f]);
    for (const f of maxes) if (String(r[f]) > String(m[f])) acc[f] = r[f];
  }
  return [...merged.values()];
}

/**
 * Rows of a summary and of its deltas, each queried on its own (summed per key if it groups), in one
 * statement (one snapshot: between two statements a fold would move rows from one to the other). Not grouped
 * over the `_all` view: the planner cannot count the groups of a UNION ALL, and sorted a year's 180,000
 * medicine-days to disk where hashing 500 groups took half the time. A key may come several times; the caller
 * adds them up (mergeRows, or its own buckets).
 */
export async function summaryAndDeltas<R>(
  app: AppContext,
  table: string,
  query: (from: RawBuilder<unknown>) => RawBuilder<R>,
): Promise<R[]> {
  const { rows } =
    await sql<R>`${query(sql.table(table))} UNION ALL ${query(sql.table(`${table}_delta`))}`.execute(app.db);
  return rows;
}

/** Sales totals per UTC hour from the summary and its deltas (an hour may come twice: callers add them up). */
export function hourlySales(app: AppContext, h: { from: string; to: string }) {
  return summaryAndDeltas(
    app,
    'report_sales_hourly',
    (t) => sql<{ bucket: string; n: number; revenue: number; vat: number; change: number }>`
    SELECT hour AS bucket, sales_count AS n, revenue, vat, change_amount AS change FROM ${t}
    WHERE hour >= ${h.from} AND hour < ${h.to}`,
  );
}

/** Moves the deltas into the summaries; false when a refresh held the lock (the next fold takes them). */
export async function foldSummaryDeltas(app: AppContext): Promise<boolean> {
  const { rows } = await sql<{ folded: boolean }>`SELECT report_fold_deltas() AS folded`.execute(app.db);
  return rows[0]?.folded ?? false;
}

/**
 * Called once by createServer: central on PostgreSQL folds every REPORT_FOLD_INTERVAL_MS (one fold at a time;
 * close() waits for the one running). Readers are exact without it; it keeps the deltas a few seconds long.
 */
export function startSummaryFolding(app: AppContext): void {
  if (app.config.mode !== 'central' || !reportStore(app.db).summaries) return;
  repeatInBackground(app, app.config.reportFoldIntervalMs, 'reports: folding the summary deltas failed', () =>
    foldSummaryDeltas(app),
  );
}
