import BetterSqlite3 from 'better-sqlite3';
import type { AppContext } from '../../app-context';
import { repeatInBackground } from '../../lib/background';

/** The tables a sale writes: a corrupt page in any of them loses or garbles sales (issue 26 L2). */
export const SALE_TABLES = [
  'sales',
  'sale_lines',
  'sale_payments',
  'batches',
  'stock_movements',
  'customer_ledger',
  'coupon_redemptions',
  'change_log',
  'audit_log',
] as const;

/** How often the till checks them: PRAGMA quick_check reads every page, so never per request. */
const CHECK_EVERY_MS = 10 * 60_000;

/** What the last check found: undefined while nothing is known to be wrong. */
const problems = new WeakMap<AppContext, string>();

/** The corruption the last check found in the tables a sale writes, or undefined. */
export const integrityProblem = (app: AppContext): string | undefined => problems.get(app);

/**
 * Runs PRAGMA quick_check on each table a sale writes, on a read-only connection of its own (it reads the
 * file's pages, not this connection's cache), and records what it finds for /health. SQLite only: PostgreSQL
 * checks its own pages (data checksums) and answers errors on the query itself.
 */
export function checkSaleTables(app: AppContext): string | undefined {
  const sqlite = app.sqlite;
  if (!sqlite) return undefined;
  const reader = new BetterSqlite3(sqlite.name, { readonly: true, fileMustExist: true });
  try {
    reader.pragma('busy_timeout = 5000');
    const found: string[] = [];
    for (const table of SALE_TABLES) {
      let rows: Array<{ quick_check: string }>;
      try {
        rows = reader.pragma(`quick_check("${table}")`) as Array<{ quick_check: string }>;
      } catch (err) {
        rows = [{ quick_check: err instanceof Error ? err.message : String(err) }];
      }
      const bad = rows.map((r) => r.quick_check).filter((r) => r !== 'ok');
      if (bad.length > 0) found.push(`${table}: ${bad.slice(0, 3).join('; ')}`);
    }
    const problem = found.length > 0 ? `The database file is damaged (${found.join(' | ')})` : undefined;
    if (problem) problems.set(app, problem);
    else problems.delete(app);
    return problem;
  } finally {
    reader.close();
  }
}

/** Checks the sale tables every CHECK_EVERY_MS in the background (a till's database, SQLite). */
export function watchSaleTables(app: AppContext): void {
  if (!app.sqlite) return;
  repeatInBackground(app, CHECK_EVERY_MS, 'health: the integrity check failed', async () => {
    const problem = checkSaleTables(app);
    if (problem) app.log.error({ problem }, 'health: the tables a sale writes are damaged');
  });
}
