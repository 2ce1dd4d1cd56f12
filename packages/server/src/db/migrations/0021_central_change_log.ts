import type { Migration } from 'kysely';
import { REVISION_MARKER_BASE } from '../revision-order';
import { runStatements, type Statement } from './run-statements';

/**
 * PostgreSQL hands out change-log revisions at insert and makes them visible at commit, in any order. Instead
 * of making writers commit one after another (a lock held over each commit's WAL flush, which capped a central
 * at about 20 pushes a second), a reader hands out only revisions that can no longer be overtaken
 * (db/revision-order.ts):
 * - `change_log_safe_revision()`: the highest revision below which every revision is committed or will never
 *   be: the sequence's last value, read first, capped below the lowest revision marker a writer still holds;
 * - `change_log_published`: the safe revision as of a commit, published by central's timer, for a read replica
 *   (it replays commits in WAL order, and the row travels with them; the primary's locks are not there).
 * SQLite has one writer: its revisions commit in order, and none of this exists there.
 *
 * Also: `change_log_outbox` indexes a till's unsent changes (from_remote = 0 AND sync_status IS NULL). On
 * central every row matches it, so on PostgreSQL (central only) it was one more index entry per change, never read.
 */
const postgres: Statement = {
  sqlite: null,
  postgres: [
    `CREATE FUNCTION change_log_safe_revision() RETURNS BIGINT LANGUAGE plpgsql VOLATILE AS $$
    DECLARE
      -- Read before the markers: a writer places its marker before it takes a revision, so one that took a
      -- revision up to this value and has not committed yet is still holding its marker below.
      issued BIGINT := coalesce(pg_sequence_last_value('change_log_revision_seq'::regclass), 0);
      lowest BIGINT;
    BEGIN
      SELECT min((l.classid::bigint << 32) | l.objid::bigint) - ${REVISION_MARKER_BASE} INTO lowest
        FROM pg_locks l
        WHERE l.locktype = 'advisory' AND l.objsubid = 1 AND l.classid >= ${REVISION_MARKER_BASE / 2 ** 32}
          AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database());
      RETURN CASE WHEN lowest IS NULL THEN issued ELSE least(issued, lowest - 1) END;
    END $$`,
    'CREATE TABLE change_log_published (id INTEGER PRIMARY KEY CHECK (id = 1), revision BIGINT NOT NULL)',
    'INSERT INTO change_log_published (id, revision) VALUES (1, change_log_safe_revision())',
    'DROP INDEX change_log_outbox',
  ],
};

export const centralChangeLog: Migration = {
  async up(db) {
    await runStatements(db, [postgres]);
  },
};
