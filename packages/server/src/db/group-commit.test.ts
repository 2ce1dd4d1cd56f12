import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteConnection as Connection } from './connection';
import { commitPending, groupCommitStats, ownTransaction } from './group-commit';

let dir: string;
let conn: Connection;
/** A second connection sees only what is committed, as another process or a power cut would. */
let reader: BetterSqlite3.Database;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-group-commit-'));
  conn = openDatabase(path.join(dir, 'pharmacy.db'));
  conn.sqlite.exec(`CREATE TABLE parent (id TEXT PRIMARY KEY);
    CREATE TABLE child (id TEXT PRIMARY KEY, parent_id TEXT NOT NULL REFERENCES parent(id));`);
  reader = new BetterSqlite3(path.join(dir, 'pharmacy.db'), { readonly: true });
});
afterAll(async () => {
  reader.close();
  await conn.db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});
beforeEach(() => conn.sqlite.exec('DELETE FROM child; DELETE FROM parent'));

const committed = () =>
  (reader.prepare('SELECT id FROM parent ORDER BY id').all() as { id: string }[]).map((r) => r.id);

const insertParent = (id: string, fail = false) =>
  conn.db.transaction().execute(async (trx) => {
    await trx
      .insertInto('parent' as never)
      .values({ id } as never)
      .execute();
    await sql`SELECT 1`.execute(trx);
    if (fail) throw new Error(`transaction ${id} fails`);
    return id;
  });

describe('group commit', () => {
  it('commits concurrent transactions together, each durable when it resolves; a failing one leaves no trace', async () => {
    const stats = groupCommitStats(conn.db)!;
    const before = { ...stats };
    const ids = Array.from({ length: 20 }, (_, i) => `p${String(i).padStart(2, '0')}`);
    const results = await Promise.allSettled(ids.map((id, i) => insertParent(id, i === 5)));
    expect(results.filter((r) => r.status === 'rejected')).toHaveLength(1);
    expect(committed()).toEqual(ids.filter((_, i) => i !== 5));
    expect(stats.members - before.members).toBe(19);
    // The twenty arrived together: far fewer fsyncs than transactions.
    expect(stats.groups - before.groups).toBeLessThan(5);
  });

  it('resolves a lone transaction once it is on disk', async () => {
    await insertParent('alone');
    expect(committed()).toEqual(['alone']);
  });

  it('commits the open group before a write made outside any transaction', async () => {
    const member = insertParent('member');
    await conn.db
      .insertInto('parent' as never)
      .values({ id: 'autocommit' } as never)
      .execute();
    expect(committed()).toEqual(['autocommit', 'member']);
    await member;
  });

  it('refuses deferred constraints inside a shared transaction; ownTransaction fails alone at its COMMIT', async () => {
    await expect(
      conn.db.transaction().execute(async (trx) => {
        await sql`PRAGMA defer_foreign_keys = ON`.execute(trx);
      }),
    ).rejects.toThrow(/ownTransaction/);

    const members = ['m1', 'm2', 'm3'].map((id) => insertParent(id));
    const orphan = ownTransaction(conn.db, async (trx) => {
      await sql`PRAGMA defer_foreign_keys = ON`.execute(trx);
      await trx
        .insertInto('child' as never)
        .values({ id: 'c1', parent_id: 'nobody' } as never)
        .execute();
    });
    await expect(orphan).rejects.toThrow(/FOREIGN KEY/);
    await Promise.all(members);
    expect(committed()).toEqual(['m1', 'm2', 'm3']);
    expect(reader.prepare('SELECT count(*) AS n FROM child').get()).toEqual({ n: 0 });
  });

  it('keeps a db.connection() scope on the connection across its transaction', async () => {
    const others = ['o1', 'o2'].map((id) => insertParent(id));
    const seen = await conn.db.connection().execute(async (scope) => {
      await sql`SELECT 1`.execute(scope);
      await scope.transaction().execute(async (trx) => {
        await trx
          .insertInto('parent' as never)
          .values({ id: 'scoped' } as never)
          .execute();
      });
      // Still this scope's turn: nothing else ran in between, and its transaction is already committed.
      return committed();
    });
    expect(seen).toContain('scoped');
    await Promise.all(others);
    expect(committed()).toEqual(['o1', 'o2', 'scoped']);
  });

  it("commits the open group before a db.connection() scope's ATTACH or PRAGMA setting: they never run inside it", async () => {
    // The temp database open, as on a till whose own connection ran its migrations (ALTER TABLE reads
    // temp.sqlite_master): SQLite then refuses even to prepare a temp_store change inside a transaction.
    conn.sqlite.exec('CREATE TEMP TABLE scratch (x); DROP TABLE scratch');
    const stage = path.join(dir, 'stage.db');
    const attach = sql`ATTACH DATABASE ${stage} AS stage`;
    const tempStore = sql`PRAGMA temp_store = FILE`;
    for (const [first, second] of [
      [attach, tempStore],
      [tempStore, attach],
    ]) {
      // A transaction hands the connection to the waiting scope while its group's COMMIT is still to come.
      const member = insertParent(`grouped-${committed().length}`);
      const inScope = await conn.db.connection().execute(async (scope) => {
        try {
          await first!.execute(scope);
          const seen = { open: conn.sqlite.inTransaction, committed: committed().length };
          await second!.execute(scope);
          return seen;
        } finally {
          await sql`DETACH DATABASE stage`.execute(scope);
          await sql`PRAGMA temp_store = DEFAULT`.execute(scope);
        }
      });
      // The member's group was committed before the scope's first statement ran.
      expect(inScope.open).toBe(false);
      expect(inScope.committed).toBe(committed().length);
      await member;
    }
    expect(committed()).toEqual(['grouped-0', 'grouped-1']);
  });

  it("acknowledges a group only after its WAL sync, and runs everything else at the connection's FULL", async () => {
    const stats = groupCommitStats(conn.db)!;
    const before = { ...stats };
    const safety = () => conn.sqlite.pragma('synchronous', { simple: true });
    let insideGroup: unknown;
    await Promise.all([
      insertParent('s1'),
      conn.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('parent' as never)
          .values({ id: 's2' } as never)
          .execute();
        insideGroup = safety();
      }),
    ]);
    // The group ran with NORMAL (its COMMIT does not wait for the disk) and was synced apart, once.
    expect(insideGroup).toBe(1);
    expect(stats.groups - before.groups).toBe(1);
    expect(stats.walSyncs - before.walSyncs).toBe(1);
    expect(safety()).toBe(2);
    await ownTransaction(conn.db, async (trx) => {
      expect(safety()).toBe(2);
      await trx
        .insertInto('parent' as never)
        .values({ id: 's3' } as never)
        .execute();
    });
    expect(stats.walSyncs - before.walSyncs).toBe(1);
    expect(committed()).toEqual(['s1', 's2', 's3']);
  });

  it('commitPending commits the open group and waits until it is on disk', async () => {
    const stats = groupCommitStats(conn.db)!;
    const before = { ...stats };
    let settled = false;
    const member = insertParent('pending').then(() => (settled = true));
    // Until the member's row is in (microtasks only: the group's own scheduled commit cannot run first).
    const seen = conn.sqlite.prepare("SELECT 1 FROM parent WHERE id = 'pending'");
    while (!seen.get()) await Promise.resolve();
    expect(committed()).toEqual([]);
    await commitPending(conn.db);
    expect(committed()).toEqual(['pending']);
    expect(stats.walSyncs - before.walSyncs).toBe(1);
    await member;
    expect(settled).toBe(true);
    // Nothing open, nothing unsynced: returns without a sync of its own.
    await commitPending(conn.db);
    expect(stats.walSyncs - before.walSyncs).toBe(1);
  });

  it('lets the transaction that opens a group run without a savepoint; if it fails, only its work is undone', async () => {
    // Alone in its group: no savepoint to release.
    const lone = await conn.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('parent' as never)
        .values({ id: 'lone' } as never)
        .execute();
      return sql`RELEASE group_member`.execute(trx).then(
        () => 'savepoint',
        (err: Error) => err.message,
      );
    });
    expect(lone).toMatch(/no such savepoint/);
    // The opener writes, then fails while others wait for the connection: they form a group of their own.
    const opener = conn.db.transaction().execute(async (trx) => {
      await trx
        .insertInto('parent' as never)
        .values({ id: 'opener' } as never)
        .execute();
      await new Promise((r) => setTimeout(r, 20));
      throw new Error('the opener fails');
    });
    const waiting = ['w1', 'w2', 'w3'].map((id) => insertParent(id));
    await expect(opener).rejects.toThrow('the opener fails');
    await Promise.all(waiting);
    expect(committed()).toEqual(['lone', 'w1', 'w2', 'w3']);
    expect(conn.sqlite.pragma('synchronous', { simple: true })).toBe(2);
  });
});
