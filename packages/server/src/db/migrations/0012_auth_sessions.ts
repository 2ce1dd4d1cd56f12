import type { Migration } from 'kysely';
import { runStatements } from './run-statements';

/**
 * Sign-in sessions of this server (never replicated: a session belongs to the server it was opened on). A
 * token names its session and the session's generation: a refresh bumps the generation, so the token it
 * replaced stops working; a session ends at expires_at (settings.session_max_hours after sign-in) or when
 * revoked (sign-out), and only a fresh sign-in opens another. No foreign key to users: a till's snapshot swap
 * replaces the users table.
 */
export const authSessions: Migration = {
  async up(db) {
    await runStatements(db, [
      `CREATE TABLE auth_sessions (
        id TEXT PRIMARY KEY,
        user_id TEXT NOT NULL,
        generation INTEGER NOT NULL,
        refreshed_at TEXT,
        started_at TEXT NOT NULL,
        expires_at TEXT NOT NULL,
        revoked_at TEXT
      ) STRICT`,
      'CREATE INDEX auth_sessions_expires ON auth_sessions(expires_at)',
    ]);
  },
};
