import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * Settings of this till alone (never replicated): its serial scanners, set from the Scanners screen. A key
 * and a JSON value; SCANNER_PORTS in the environment still overrides.
 */
export const tillSettings: Migration = {
  async up(db) {
    await runStatements(db, [
      `CREATE TABLE till_settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at TEXT NOT NULL
      ) STRICT`,
    ]);
  },
};
