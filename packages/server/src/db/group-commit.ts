import type BetterSqlite3 from 'better-sqlite3';
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type Kysely,
  type QueryResult,
  SelectQueryNode,
  SqliteDialect,
  sql,
  type Transaction,
} from 'kysely';
import { hookingCommits } from './after-commit';
import { isPostgres } from './dialect';
import type { Database } from './schema';
import { WalSync } from './wal-sync';

/** What the driver needs of the connection: prepare (through the statement cache) and the raw handle. */
export interface StatementSource {
  prepare(sql: string): BetterSqlite3.Statement;
  sqlite: BetterSqlite3.Database;
}

/** First come, first served; the one SQLite connection is used by one holder at a time. */
class Mutex {
  #locked = false;
  readonly #waiting: Array<() => void> = [];

  lock(): Promise<void> {
    if (!this.#locked) {
      this.#locked = true;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.#waiting.push(resolve));
  }

  unlock(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#locked = false;
  }
}

/** One holder's use of the connection, from acquireConnection to releaseConnection. */
class Lease implements DatabaseConnection {
  /** Nothing ran on it yet: a transaction begun now is a group member (see GroupCommitDriver). */
  fresh = true;
  member = false;
  /**
   * The member that opened its group (BEGIN): it needs no savepoint, since the group holds nobody else's work
   * until it commits; should it fail, the whole (so far its own) transaction rolls back. A till, selling at one
   * connection, is almost always alone in its group: each sale skipped journaling every page it touched into a
   * savepoint's statement journal.
   */
  opener = false;
  /** The member committed and gave the connection to the next holder while it waits for the group's COMMIT. */
  handedOff = false;

  constructor(readonly driver: GroupCommitDriver) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    this.fresh = false;
    return this.driver.run<R>(this, query);
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    this.fresh = false;
    if (!SelectQueryNode.is(query.query)) throw new Error('streamQuery supports SELECT only');
    for (const row of this.driver.statement(query).iterate(query.parameters as unknown[]))
      yield { rows: [row as R] };
  }
}

interface Group {
  members: Array<{ resolve: () => void; reject: (err: unknown) => void }>;
}

const MEMBER = 'group_member';
const DEFERRED = /^\s*PRAGMA\s+defer_foreign_keys/i;

/**
 * Group commit for the one SQLite connection. With synchronous=FULL every COMMIT waits for an fsync (2 to 5
 * ms on the tills' disks, a third of a sale's time), during which nothing else runs. Here concurrent business
 * transactions share one:
 *
 * - The first transaction opens a group (BEGIN); each later one runs inside it under its own SAVEPOINT (the
 *   opener needs none: until it commits, the group is its work alone).
 * - A transaction that succeeds RELEASEs its savepoint, hands the connection to the next waiting holder and
 *   waits; one that fails rolls back to its savepoint, leaving the others' work untouched.
 * - The group COMMITs once no holder was waiting any more (the next turn of the event loop, setImmediate):
 *   the transactions queued meanwhile, typically the requests that arrived together, share that fsync, and each
 *   caller's `transaction().execute()` resolves only once the COMMIT is durable. If it fails, all of them fail,
 *   and nothing of theirs is written.
 * - The fsync itself runs off the main thread (db/wal-sync.ts): a group runs with synchronous=NORMAL from its
 *   BEGIN to its COMMIT, then the WAL is fdatasynced on the thread pool while the next requests already run and
 *   form the next group; members are acknowledged after it. Everything else (a transaction of its own, an
 *   autocommit write) runs with the connection's synchronous=FULL. If the sync fails, the members fail: their
 *   work may or may not survive, and a retry with the same client_mutation_id finds it if it did.
 *
 * Outside a transaction, a statement that writes first commits the open group (its own autocommit must not
 * ride in it, unacknowledged), as does one that changes the connection (ATTACH, DETACH, a PRAGMA that sets)
 * and any transaction on a lease that ran a statement before BEGIN (a `db.connection()` scope, which keeps
 * the connection across its transaction: ATTACH, swap, DETACH). A
 * read outside a transaction runs inside the open group and sees its released work: it is committed within the
 * same turn unless the disk fails. Code that ships rows out of the process (the outbox push, the pull feed)
 * first calls `commitPending(db)`, so it never exports work that could still be lost: it commits the open
 * group and waits until every commit so far is on disk.
 */
export class GroupCommitDriver implements Driver {
  readonly #source: StatementSource;
  readonly #mutex = new Mutex();
  #group: Group | null = null;
  #commitScheduled = false;
  /**
   * Null unless the database is a WAL file with synchronous FULL or EXTRA: without a WAL there is nothing to
   * sync apart, and at a lower level the connection asked not to wait for the disk.
   */
  readonly #walSync: WalSync | null;
  /** The connection's own safety level, restored after each group. */
  readonly #safety: number;
  /** Settles once every group committed so far is on disk. */
  #durable: Promise<void> = Promise.resolve();
  /** Groups committed, the transactions they carried and the WAL syncs they took, for the benchmarks and tests. */
  readonly stats = { groups: 0, members: 0, walSyncs: 0 };

  constructor(source: StatementSource) {
    this.#source = source;
    const { sqlite } = source;
    const wal = !sqlite.memory && sqlite.pragma('journal_mode', { simple: true }) === 'wal';
    this.#safety = Number(sqlite.pragma('synchronous', { simple: true }));
    this.#walSync =
      wal && this.#safety >= 2 ? new WalSync(`${sqlite.name}-wal`, () => this.stats.walSyncs++) : null;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    await this.#mutex.lock();
    return new Lease(this);
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (lease.fresh) {
      lease.fresh = false;
      lease.member = true;
      if (this.#group) this.#exec(`SAVEPOINT ${MEMBER}`);
      else {
        this.#openGroup();
        lease.opener = true;
      }
      return;
    }
    this.#commitGroup();
    this.#exec('BEGIN');
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (!lease.member) {
      this.#exec('COMMIT');
      return;
    }
    if (!lease.opener) this.#exec(`RELEASE ${MEMBER}`);
    lease.member = false;
    const group = this.#group;
    if (!group) throw new Error('group commit: a member committed outside any group');
    const durable = new Promise<void>((resolve, reject) => group.members.push({ resolve, reject }));
    this.#scheduleCommit();
    lease.handedOff = true;
    this.#mutex.unlock();
    await durable;
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    // A member whose group failed to commit: the connection is someone else's by now, nothing to undo.
    if (lease.handedOff) return;
    if (!lease.member) {
      if (this.#source.sqlite.inTransaction) this.#exec('ROLLBACK');
      return;
    }
    lease.member = false;
    if (!this.#source.sqlite.inTransaction) {
      // SQLite rolled the whole transaction back itself (an I/O error, a full disk): the group is lost.
      this.#failGroup(new Error('the database rolled back the shared transaction; nothing was saved'));
      return;
    }
    if (lease.opener) {
      // Nobody else's work is in the group yet (the opener held the connection throughout): undo it all.
      const group = this.#group;
      this.#group = null;
      this.#exec('ROLLBACK');
      this.#restoreSafety();
      if (group && group.members.length > 0)
        throw new Error('group commit: the opener rolled back a group that had members');
      return;
    }
    this.#exec(`ROLLBACK TO ${MEMBER}`);
    this.#exec(`RELEASE ${MEMBER}`);
    if (this.#group?.members.length === 0) this.#commitGroup();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease;
    if (!lease.handedOff) this.#mutex.unlock();
  }

  async destroy(): Promise<void> {
    await this.#mutex.lock();
    this.#commitGroup();
    await this.#durable.catch(() => undefined);
    this.#source.sqlite.close();
    // Only now: closing a descriptor of a database file drops the process's POSIX locks on it.
    this.#walSync?.close();
  }

  /** Commits the open group now, if any (waiting for the connection like any holder), and waits until every
   * commit so far is on disk. */
  async commitPending(): Promise<void> {
    if (this.#group) {
      await this.#mutex.lock();
      try {
        this.#commitGroup();
      } finally {
        this.#mutex.unlock();
      }
    }
    await this.#durable;
  }

  /** Settles once every group committed so far is on disk (the open group is not included). */
  durable(): Promise<void> {
    return this.#durable;
  }

  statement(query: CompiledQuery): BetterSqlite3.Statement {
    return this.#source.prepare(query.sql);
  }

  run<R>(lease: Lease, query: CompiledQuery): QueryResult<R> {
    if (lease.member && DEFERRED.test(query.sql))
      throw new Error(
        'deferred constraints are checked at COMMIT, which members share: use ownTransaction()',
      );
    // SQLite ended the shared transaction itself (an I/O error, a full disk): a member's next write would
    // otherwise autocommit on its own, outside its transaction.
    if (lease.member && !this.#source.sqlite.inTransaction)
      throw new Error('the database rolled back the shared transaction; nothing was saved');
    const statement = this.#prepare(lease, query);
    const parameters = query.parameters as unknown[];
    if (statement.reader) return { rows: statement.all(parameters) as R[] };
    const { changes, lastInsertRowid } = statement.run(parameters);
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] };
  }

  /**
   * Outside a transaction of its own, a statement that writes or changes the connection (ATTACH, DETACH, a
   * PRAGMA that sets: no rows, and read-only to SQLite) first commits the open group. Inside it, it could
   * outlive the group, or be refused: SQLite refuses to prepare a temp_store change in a transaction once the
   * temp database is open (after any ALTER TABLE), which is how a till's snapshot swap, handed the connection
   * by a sign-in whose group had yet to commit, failed. Committing a group early only makes it smaller.
   */
  #prepare(lease: Lease, query: CompiledQuery): BetterSqlite3.Statement {
    if (lease.member || !this.#group) return this.statement(query);
    let statement: BetterSqlite3.Statement;
    try {
      statement = this.statement(query);
    } catch {
      this.#commitGroup();
      return this.statement(query);
    }
    if (!statement.readonly || !statement.reader) this.#commitGroup();
    return statement;
  }

  #exec(sqlText: string): void {
    this.#source.prepare(sqlText).run();
  }

  #scheduleCommit(): void {
    if (this.#commitScheduled) return;
    this.#commitScheduled = true;
    setImmediate(() => {
      this.#commitScheduled = false;
      void this.commitPending();
    });
  }

  #openGroup(): void {
    // The safety level cannot change inside a transaction: set before BEGIN, restored after COMMIT.
    if (this.#walSync) this.#exec('PRAGMA synchronous = NORMAL');
    this.#exec('BEGIN');
    this.#group = { members: [] };
  }

  /** Commits the open group; the caller holds the connection. */
  #commitGroup(): void {
    const group = this.#group;
    if (!group) return;
    this.#group = null;
    try {
      this.#exec('COMMIT');
    } catch (err) {
      if (this.#source.sqlite.inTransaction) this.#exec('ROLLBACK');
      this.#restoreSafety();
      for (const member of group.members) member.reject(err);
      return;
    }
    this.#restoreSafety();
    this.stats.groups++;
    this.stats.members += group.members.length;
    const durable = this.#walSync ? this.#walSync.flush() : Promise.resolve();
    this.#durable = durable;
    durable.then(
      () => {
        for (const member of group.members) member.resolve();
      },
      (err: unknown) => {
        for (const member of group.members) member.reject(err);
      },
    );
  }

  #restoreSafety(): void {
    if (this.#walSync) this.#exec(`PRAGMA synchronous = ${this.#safety}`);
  }

  #failGroup(err: Error): void {
    const group = this.#group;
    this.#group = null;
    this.#restoreSafety();
    for (const member of group?.members ?? []) member.reject(err);
  }
}

const drivers = new WeakMap<object, GroupCommitDriver>();

/** SQLite through Kysely with group commit (see GroupCommitDriver). */
export class GroupCommitDialect extends SqliteDialect {
  readonly driver: GroupCommitDriver;

  constructor(source: StatementSource) {
    super({ database: source.sqlite });
    this.driver = new GroupCommitDriver(source);
  }

  override createDriver(): Driver {
    return this.driver;
  }
}

/**
 * A transaction that commits on its own instead of joining a group: for one that defers constraints to COMMIT
 * (a pulled page with PRAGMA defer_foreign_keys), whose failure there must not take others' work down. On
 * PostgreSQL (no groups) it is the database's own transaction: SERIALIZABLE, retried on a conflict (the
 * connection() route below would build a plain Kysely and run READ COMMITTED without retries).
 */
export function ownTransaction<T>(
  db: Kysely<Database>,
  fn: (trx: Transaction<Database>) => Promise<T>,
): Promise<T> {
  if (isPostgres(db)) return db.transaction().execute(fn);
  return db.connection().execute(async (conn) => {
    // A statement before BEGIN marks the lease as a connection scope: its transaction is not a member.
    await sql`SELECT 1`.execute(conn);
    return hookingCommits(conn.transaction()).execute(fn);
  });
}

export const groupCommitStats = (db: object) => drivers.get(db)?.stats;

/** Registers the driver behind a Kysely instance, for commitPending. */
export function registerDriver(db: Kysely<never> | object, driver: GroupCommitDriver): void {
  drivers.set(db, driver);
}

/**
 * Makes every transaction that has returned durable before going on: for code that sends rows out of the
 * process (a till's outbox push, central's pull feed), which must never export work a failed COMMIT could
 * still take back.
 */
export async function commitPending(db: object): Promise<void> {
  await drivers.get(db)?.commitPending();
}

/**
 * Waits until everything committed so far is on disk, without committing the open group: for a feed that has
 * just read committed rows through another connection (a group's COMMIT is visible there before its WAL sync
 * ends). Call it after the read, so that it covers every commit the read saw.
 */
export async function durable(db: object): Promise<void> {
  await drivers.get(db)?.durable();
}
