import { sql } from 'kysely';

/** Reports on SQLite (a till, a small central), as reportStore (store.ts) picks them. */
export const sqliteReportStore = {
  /**
   * Pinned to the covering report index of migration 0004 (branch-first with a branch, time-first without):
   * SQLite's planner sometimes prefers a narrower index for a window over all branches and reads every sale row.
   */
  salesFrom: (oneBranch: boolean) =>
    sql.raw(`sales s INDEXED BY ${oneBranch ? 'sales_report_branch' : 'sales_report_sold'}`),
  hourBucket(column: string, shiftMinutes: number): string {
    if (shiftMinutes === 0) return `substr(${column}, 1, 13)`;
    return `strftime('%Y-%m-%dT%H', ${column}, '+${Math.trunc(shiftMinutes)} minutes')`;
  },
  /** No summaries: a till's history is its own branch's, small enough to read live. */
  summaries: false,
};
