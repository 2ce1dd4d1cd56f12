import type { Logger } from 'pino';
import type { Db } from './connection';
import { isDatabaseUnavailable } from './postgres';

/**
 * Central's read replica (DATABASE_REPLICA_URL, a streaming standby of the primary): read-only work that may
 * see data a moment old runs there, so head-office reports and the tills' pulls do not compete with the
 * tills' pushes for the primary (docs/SCALING.md, "Read replicas"). Without a replica, and on SQLite,
 * readDb is db and this is a plain call.
 *
 * A replica that cannot answer (stopped, restarting, unreachable, out of connections, a query cancelled by
 * recovery) never fails the request: the work runs again on the primary, with one warning, and the replica is
 * left alone for RETRY_AFTER_MS so every request does not wait on a dead host first. A replica that merely lags
 * is used as it is: its answer is late, never wrong (reports show the replica's moment; a pull stops at the
 * last revision the replica has replayed and carries on from there next time).
 */
const RETRY_AFTER_MS = 15_000;

/** Until when (epoch ms) a replica that failed is skipped; keyed by its Kysely. */
const skipUntil = new WeakMap<Db, number>();

/** What the replica's callers hand in (an AppContext is one): the primary, the replica (or the primary again), a log. */
export interface ReplicaDatabases {
  db: Db;
  readDb: Db;
  log: Pick<Logger, 'warn'>;
}

/**
 * Runs read-only work on the replica, or on the primary when there is none, it is being skipped, or it fails
 * with a database-unavailable error while `canFallBack()` (false once the work has answered part of the
 * response, a streamed snapshot).
 */
export async function onReplica<T>(
  app: ReplicaDatabases,
  work: (db: Db) => Promise<T>,
  canFallBack: () => boolean = () => true,
): Promise<T> {
  const replica = app.readDb;
  if (replica === app.db || Date.now() < (skipUntil.get(replica) ?? 0)) return work(app.db);
  try {
    return await work(replica);
  } catch (err) {
    if (!isDatabaseUnavailable(err) || !canFallBack()) throw err;
    skipUntil.set(replica, Date.now() + RETRY_AFTER_MS);
    app.log.warn(
      { err: err instanceof Error ? err.message : String(err), retry_in_s: RETRY_AFTER_MS / 1000 },
      'read replica unavailable: reading from the primary',
    );
    return work(app.db);
  }
}

/**
 * onReplica for a service written against a context (an AppContext: reports, the dashboard): it gets the same
 * context with the replica as its db, and the process cache read-through. Routes opt in with
 * `reads: 'replica'` (http/route.ts).
 */
export function withReplica<C extends ReplicaDatabases & { cache: Map<string, unknown> }, T>(
  app: C,
  work: (app: C) => Promise<T>,
  canFallBack?: () => boolean,
): Promise<T> {
  return onReplica(app, (db) => work(db === app.db ? app : replicaContext(app, db)), canFallBack);
}

function replicaContext<C extends ReplicaDatabases & { cache: Map<string, unknown> }>(app: C, db: Db): C {
  return { ...app, db, readDb: db, cache: new ReadThroughCache(app.cache) };
}

/**
 * The process cache as work on the replica sees it: what the primary's work cached is read, what this work
 * caches stays with it. A lagging replica must not plant an old value (the settings, a currency's exponent)
 * just after a write on the primary invalidated it, where every later request, writes included, would read it.
 */
class ReadThroughCache extends Map<string, unknown> {
  constructor(private readonly shared: Map<string, unknown>) {
    super();
  }

  override get(key: string): unknown {
    return super.has(key) ? super.get(key) : this.shared.get(key);
  }

  override has(key: string): boolean {
    return super.has(key) || this.shared.has(key);
  }
}
