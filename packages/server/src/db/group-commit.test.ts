import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Connection, openDatabase } from './connection';
import { groupCommitStats, ownTransaction } from './group-commit';

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
});
