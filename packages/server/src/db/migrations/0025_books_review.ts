import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * Rejections a manager reviews and books that must agree (issue 28.4 and "Books"): a resolution carries the
 * reason it was dismissed for; central keeps each till's latest comparison of a day's books with its own, so
 * the dashboard can warn when a branch's books differ.
 */
export const booksReview: Migration = {
  async up(db) {
    await runStatements(db, [
      "ALTER TABLE sync_conflicts ADD COLUMN resolution_note TEXT NOT NULL DEFAULT ''",
      'CREATE INDEX sync_conflicts_mutation ON sync_conflicts(client_mutation_id)',
      `CREATE TABLE books_checks (
        device_id TEXT NOT NULL,
        branch_id TEXT NOT NULL,
        day TEXT NOT NULL,
        differs INTEGER NOT NULL,
        result TEXT NOT NULL,
        checked_at TEXT NOT NULL,
        PRIMARY KEY (device_id, day)
      ) STRICT`,
      'CREATE INDEX books_checks_differs ON books_checks(differs, day)',
    ]);
  },
};
