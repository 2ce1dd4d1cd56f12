import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { eventually } from '@pharmacy/sync/testing';
import { type Checkpointer, startCheckpointer } from './checkpointer';

let dir: string;
let file: string;
let db: BetterSqlite3.Database;
let checkpointer: Checkpointer | undefined;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-checkpoint-'));
  file = path.join(dir, 'pharmacy.db');
  db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
});
afterEach(async () => {
  await checkpointer?.stop();
  db.close();
  checkpointer?.release();
  checkpointer = undefined;
  fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * Rows present in the database file itself, without its WAL: what a checkpoint has copied back. The file is
 * copied by another process: closing a descriptor of it here would drop this process's SQLite locks on it.
 */
function rowsInMainFile(): number {
  const copy = path.join(dir, 'copy.db');
  execFileSync('cp', [file, copy]);
  const c = new BetterSqlite3(copy, { readonly: true });
  try {
    return (c.prepare("SELECT count(*) AS n FROM sqlite_master WHERE name = 't'").get() as { n: number })
      .n === 0
      ? 0
      : (c.prepare('SELECT count(*) AS n FROM t').get() as { n: number }).n;
  } finally {
    c.close();
    fs.rmSync(copy);
  }
}

const insert = (n: number) => {
  const s = db.prepare('INSERT INTO t (v) VALUES (?)');
  db.transaction(() => {
    for (let i = 0; i < n; i++) s.run('x'.repeat(200));
  })();
};

describe('WAL checkpointer', () => {
  it('copies committed frames back into the database file once writes pause', async () => {
    checkpointer = startCheckpointer(file, { intervalMs: 20, idleMs: 100 });
    insert(500);
    expect(rowsInMainFile()).toBe(0);
    await eventually('500 rows in the main file', () => rowsInMainFile() === 500, 5_000, 25);
  });

  it('checkpoints a long WAL at once, without waiting for a pause', async () => {
    checkpointer = startCheckpointer(file, { intervalMs: 20, idleMs: 3_600_000, maxFrames: 50 });
    insert(2000);
    await eventually('2000 rows in the main file', () => rowsInMainFile() === 2000, 5_000, 25);
    // Under the frame mark and never idle long enough: the next small write stays in the WAL.
    insert(1);
    await new Promise((r) => setTimeout(r, 200));
    expect(rowsInMainFile()).toBe(2000);
  });

  it("leaves SQLite's locks alone: the wal-index stays locked as in use by this process", async () => {
    // The dead-man-switch byte of -shm (offset 128): SQLite holds a shared POSIX lock on it for as long as it
    // uses the wal-index. Another process that finds it free takes the wal-index as its own and truncates it
    // under this process's mapping (SIGBUS). Closing any descriptor of -shm drops the lock.
    const { ino } = fs.statSync(`${file}-shm`);
    const dmsLocked = () =>
      fs
        .readFileSync('/proc/locks', 'utf8')
        .split('\n')
        .some((l) => {
          const f = l.trim().split(/\s+/);
          return (
            f[1] === 'POSIX' && f[4] === String(process.pid) && f[5]?.endsWith(`:${ino}`) && f[6] === '128'
          );
        });
    expect(dmsLocked()).toBe(true);
    checkpointer = startCheckpointer(file, { intervalMs: 10, idleMs: 3_600_000 });
    insert(10);
    await new Promise((r) => setTimeout(r, 200));
    expect(dmsLocked()).toBe(true);
  });
});
