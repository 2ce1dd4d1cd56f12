import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabase } from './connection';
import { DatabaseTooNewError, migrate } from './migrate';
import { MIGRATIONS } from './migrations';

const dirs: string[] = [];
const tempFile = () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-migrate-'));
  dirs.push(dir);
  return path.join(dir, 'pharmacy.db');
};
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('migrations', () => {
  it('runs every migration once and sets the durability pragmas', async () => {
    const conn = openDatabase(tempFile());
    const first = await migrate(conn);
    expect(first.applied).toEqual(Object.keys(MIGRATIONS));
    expect((await migrate(conn)).applied).toEqual([]);
    expect(conn.sqlite.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(conn.sqlite.pragma('synchronous', { simple: true })).toBe(2);
    expect(conn.sqlite.pragma('foreign_keys', { simple: true })).toBe(1);
    await conn.db.destroy();
  });

  it('backs up an existing database before applying a new migration', async () => {
    const file = tempFile();
    const conn = openDatabase(file);
    await migrate(conn);
    const next = {
      ...MIGRATIONS,
      '9999_test': {
        up: async (db: typeof conn.db) => void (await sql`CREATE TABLE t9999 (x INTEGER)`.execute(db)),
      },
    };
    const result = await migrate(conn, next);
    expect(result.applied).toEqual(['9999_test']);
    expect(result.backup && fs.existsSync(result.backup)).toBe(true);
    await conn.db.destroy();
  });

  it('refuses a database written by newer code', async () => {
    const file = tempFile();
    const conn = openDatabase(file);
    await migrate(conn);
    conn.sqlite
      .prepare("INSERT INTO schema_migrations (name, applied_at) VALUES ('9999_future', '2099-01-01')")
      .run();
    await expect(migrate(conn)).rejects.toThrow(DatabaseTooNewError);
    await expect(migrate(conn)).rejects.toThrow(/newer version/);
    await conn.db.destroy();
  });

  it('rolls back a failing migration completely', async () => {
    const conn = openDatabase(tempFile());
    await migrate(conn);
    const broken = {
      ...MIGRATIONS,
      '9998_broken': {
        up: async (db: typeof conn.db) => {
          await sql`CREATE TABLE half_done (x INTEGER)`.execute(db);
          await sql`SELECT * FROM no_such_table`.execute(db);
        },
      },
    };
    await expect(migrate(conn, broken)).rejects.toThrow();
    const table = conn.sqlite.prepare("SELECT name FROM sqlite_master WHERE name = 'half_done'").get();
    expect(table).toBeUndefined();
    await conn.db.destroy();
  });
});
