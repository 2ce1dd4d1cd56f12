import type { RawBuilder } from 'kysely';
import type { Db } from '../../db/connection';
import { isPostgres } from '../../db/dialect';
import { postgresReportStore } from './store.postgres';
import { sqliteReportStore } from './store.sqlite';

/**
 * The SQL reports write differently on each engine (docs/ARCHITECTURE.md, "Two databases, one server"): the
 * implementations are `store.sqlite.ts` and `store.postgres.ts`; reportStore picks one for a database, and a
 * report window carries it (window.ts), so report queries never ask which engine they run on.
 */
export interface ReportStore {
  /** `sales s` as a report over all branches (`oneBranch` false) or one branch reads it. */
  salesFrom(oneBranch: boolean): RawBuilder<unknown>;
  /**
   * SQL of the UTC hour ('YYYY-MM-DDTHH') of an ISO-8601 timestamp column shifted by whole minutes: text
   * slicing when there is no shift, the engine's date arithmetic otherwise.
   */
  hourBucket(column: string, shiftMinutes: number): string;
  /**
   * Whether the database keeps the report summaries (migrations 0019 and 0020: PostgreSQL only; a till
   * never carries them), which summaries.ts reads where they answer exactly.
   */
  readonly summaries: boolean;
}

const chosen = new WeakMap<Db, ReportStore>();

/** The report store of a database, chosen once per Kysely instance. */
export function reportStore(db: Db): ReportStore {
  let store = chosen.get(db);
  if (!store) {
    store = isPostgres(db) ? postgresReportStore : sqliteReportStore;
    chosen.set(db, store);
  }
  return store;
}
