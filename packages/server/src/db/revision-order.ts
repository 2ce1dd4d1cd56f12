import { sql } from 'kysely';
import type { Db } from './connection';

/**
 * Revision order on PostgreSQL (migration 0021). Revisions come from the change log's identity sequence, taken
 * at insert; transactions commit in any order. A pull that handed out revision 11 while 10 was still to commit
 * would move a till's cursor past 10 for ever, so readers hand out only *safe* revisions:
 * - a writer holds a marker, a shared transaction-scoped advisory lock keyed REVISION_MARKER_BASE + (the
 *   sequence's last value + 1), from before it takes its first revision until it commits or rolls back; every
 *   revision it takes is at or above its marker;
 * - the safe revision is the sequence's last value, read first, capped below the lowest marker held: every
 *   revision at or under it was taken before that read, so its writer either still held a marker at or under it
 *   (and the cap excludes it) or had finished.
 * Writers never wait for each other, so their commits (and WAL flushes) overlap instead of queueing.
 * A primary's reader computes the safe revision before its read transaction takes its snapshot; a replica
 * reads the value central last published (publishSafeRevision), which reaches it in WAL order with the commits
 * it covers.
 */

/** Markers live above every other advisory lock key of the server (2^48 + revision). */
export const REVISION_MARKER_BASE = 2 ** 48;

/** Places the transaction's revision marker; run once, before its first change-log insert. */
export async function holdRevisionMarker(trx: Db): Promise<void> {
  await sql`SELECT pg_advisory_xact_lock_shared(CAST(${REVISION_MARKER_BASE} AS BIGINT)
    + coalesce(pg_sequence_last_value('change_log_revision_seq'::regclass), 0) + 1)`.execute(trx);
}

/** The highest revision a reader may hand out now (primary only; outside the reading transaction). */
export async function safeRevision(db: Db): Promise<number> {
  const { rows } = await sql<{ r: string }>`SELECT change_log_safe_revision() AS r`.execute(db);
  return Number(rows[0]!.r);
}

/** The safe revision as central last published it, as seen by `trx`'s snapshot (a replica's reader). */
export async function publishedRevision(trx: Db): Promise<number> {
  const { rows } = await sql<{ r: string }>`SELECT revision AS r FROM change_log_published`.execute(trx);
  return Number(rows[0]?.r ?? 0);
}

/** Publishes the safe revision for the replicas, if it moved (no write, no WAL flush otherwise). */
export async function publishSafeRevision(db: Db): Promise<void> {
  await sql`UPDATE change_log_published SET revision = s.r FROM (SELECT change_log_safe_revision() AS r) s
    WHERE change_log_published.revision < s.r`.execute(db);
}
