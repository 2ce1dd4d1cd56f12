import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * Z numbers per branch AND device: a Z-report belongs to the till that closed the session, so two tills of one
 * branch closing sessions offline each take their own next number and central accepts both closes.
 * cash_sessions.device_id exists since 0003 (NOT NULL, the local device id of the till that opened the session),
 * so only the unique index changes; existing rows were unique per branch, hence per (branch, device) too.
 */
export const zPerDevice: Migration = {
  async up(db) {
    await runStatements(db, [
      'DROP INDEX IF EXISTS cash_sessions_z',
      'CREATE UNIQUE INDEX cash_sessions_z ON cash_sessions(branch_id, device_id, z_number) WHERE z_number IS NOT NULL',
    ]);
  },
};
