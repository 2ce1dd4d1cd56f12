import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * Drops two sales indexes that the covering report indexes of 0004 made redundant: sales_branch_sold
 * (branch_id, sold_at) is the prefix of sales_report_branch, and sales_sold (sold_at) the prefix of
 * sales_report_sold, so every query they served is served by the longer one. Each sale paid two more B-tree
 * inserts (and their pages at COMMIT) for nothing.
 */
export const dropPrefixIndexes: Migration = {
  async up(db) {
    await runStatements(db, ['DROP INDEX IF EXISTS sales_branch_sold', 'DROP INDEX IF EXISTS sales_sold']);
  },
};
