import type { AppContext } from '../../app-context';
import { checkTablePages, checksItsOwnPages } from '../../db/page-check';
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
 * Checks the pages of each table a sale writes (db/page-check.ts: PRAGMA quick_check on SQLite) and records
 * what it finds for /health. Nothing on PostgreSQL, which checks its own pages and answers errors on the query.
 */
export function checkSaleTables(app: AppContext): string | undefined {
  const checked = checkTablePages(app, SALE_TABLES);
  if (!checked) return undefined;
  const found = checked
    .filter((t) => t.problems.length > 0)
    .map((t) => `${t.table}: ${t.problems.slice(0, 3).join('; ')}`);
  const problem = found.length > 0 ? `The database file is damaged (${found.join(' | ')})` : undefined;
  if (problem) problems.set(app, problem);
  else problems.delete(app);
  return problem;
}

/** Checks the sale tables every CHECK_EVERY_MS in the background (a till's database, SQLite). */
export function watchSaleTables(app: AppContext): void {
  if (!checksItsOwnPages(app)) return;
  repeatInBackground(app, CHECK_EVERY_MS, 'health: the integrity check failed', async () => {
    const problem = checkSaleTables(app);
    if (problem) app.log.error({ problem }, 'health: the tables a sale writes are damaged');
  });
}
