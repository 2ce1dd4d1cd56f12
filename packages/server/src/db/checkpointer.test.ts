import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startCheckpointer } from './checkpointer';

let dir: string;
let file: string;
let db: BetterSqlite3.Database;

beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-checkpoint-'));
  file = path.join(dir, 'pharmacy.db');
  db = new BetterSqlite3(file);
  db.pragma('journal_mode = WAL');
  db.pragma('wal_autocheckpoint = 0');
  db.exec('CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT)');
});
afterEach(() => {
  db.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

/** Rows present in the database file itself, without its WAL: what a checkpoint has copied back. */
function rowsInMainFile(): number {
  const copy = path.join(dir, 'copy.db');
  fs.copyFileSync(file, copy);
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

async function eventually(check: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
    if (Date.now() > until) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 25));
  }
}

describe('WAL checkpointer', () => {
  it('copies committed frames back into the database file once writes pause', async () => {
    const checkpointer = startCheckpointer(file, { intervalMs: 20, idleMs: 100 });
    try {
      insert(500);
      expect(rowsInMainFile()).toBe(0);
      await eventually(() => rowsInMainFile() === 500);
    } finally {
      await checkpointer.stop();
    }
  });

  it('checkpoints a long WAL at once, without waiting for a pause', async () => {
    const checkpointer = startCheckpointer(file, { intervalMs: 20, idleMs: 3_600_000, maxFrames: 50 });
    try {
      insert(2000);
      await eventually(() => rowsInMainFile() === 2000);
      // Under the frame mark and never idle long enough: the next small write stays in the WAL.
      insert(1);
      await new Promise((r) => setTimeout(r, 200));
      expect(rowsInMainFile()).toBe(2000);
    } finally {
      await checkpointer.stop();
    }
  });
});
