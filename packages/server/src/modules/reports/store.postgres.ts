import { sql } from 'kysely';

/** Reports on PostgreSQL (central), as reportStore (store.ts) picks them. */
export const postgresReportStore = {
  /** PostgreSQL's planner chooses the covering report index of migration 0004 itself. */
  salesFrom: (_oneBranch: boolean) => sql.raw('sales s'),
  hourBucket(column: string, shiftMinutes: number): string {
    if (shiftMinutes === 0) return `substr(${column}, 1, 13)`;
    return `to_char(CAST(${column} AS timestamptz) AT TIME ZONE 'UTC' + interval '${Math.trunc(shiftMinutes)} minutes', 'YYYY-MM-DD"T"HH24')`;
  },
  /** The summaries of migrations 0019 and 0020, kept by triggers in every sales write. */
  summaries: true,
};
