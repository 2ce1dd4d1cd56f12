import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { checkSaleTables } from './integrity';

/**
 * Runs SQL on the database from another process: a descriptor of pharmacy.db opened and closed in this
 * process would drop the server connection's POSIX locks (docs/CONVENTIONS.md).
 */
function sqlFromAnotherProcess(file: string, statement: string): void {
  const script = `const Db = require('better-sqlite3'); const db = new Db(process.argv[1]);
    db.pragma('busy_timeout = 5000'); db.exec(process.argv[2]); db.close();`;
  execFileSync(process.execPath, ['-e', script, file, statement], { cwd: import.meta.dirname });
}

/** DDL on the server's database behind its back: from another process on SQLite, through t.exec on PostgreSQL. */
async function alterBehindTheServer(t: TestServer, statement: string): Promise<void> {
  if (t.dialect === 'sqlite') sqlFromAnotherProcess(path.join(t.dataDir, 'pharmacy.db'), statement);
  else await t.exec(statement);
}

describe('GET /health', () => {
  it('answers 200 with status, version and a database check, and 503 when the database is gone', async () => {
    const t = await startTestServer({ mode: 'central' });
    try {
      const ok = await t.get('/health');
      expect(ok.status).toBe(200);
      expect(ok.body).toMatchObject({
        status: 'ok',
        version: '0.1.0',
        mode: 'central',
        database: { status: 'ok' },
      });
      // The database handle closes under the server: SQLite's connection, or PostgreSQL's pool.
      if (t.dialect === 'sqlite') t.sqlite.close();
      else await t.context.db.destroy();
      const down = await t.get('/health');
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: 'unavailable', database: { status: 'error' } });
    } finally {
      await t.server.close().catch(() => undefined);
      await t.onClose?.();
    }
  });

  it('L2: answers 503 with the reason once the timed check finds the sales table damaged', async () => {
    const t = await startTestServer();
    try {
      if (t.dialect !== 'sqlite') return;
      expect(checkSaleTables(t.context)).toBeUndefined();
      expect((await t.get('/health')).status).toBe(200);
      // Another process checkpoints the WAL and overwrites the page type of the sales table's root page.
      const script = `const Db = require('better-sqlite3'); const fs = require('node:fs');
        const db = new Db(process.argv[1]); db.pragma('busy_timeout = 5000');
        db.pragma('wal_checkpoint(TRUNCATE)');
        const root = db.prepare("SELECT rootpage FROM sqlite_master WHERE name = 'sales'").get().rootpage;
        const size = db.pragma('page_size', { simple: true }); db.close();
        const fd = fs.openSync(process.argv[1], 'r+');
        fs.writeSync(fd, Buffer.from([0x07, 0xff, 0xff]), 0, 3, (root - 1) * size); fs.closeSync(fd);`;
      execFileSync(process.execPath, ['-e', script, path.join(t.dataDir, 'pharmacy.db')], {
        cwd: import.meta.dirname,
      });
      expect(checkSaleTables(t.context)).toMatch(/sales/);
      const down = await t.get<{ status: string; database: { status: string; detail: string } }>('/health');
      expect(down.status).toBe(503);
      expect(down.body.status).toBe('unavailable');
      expect(down.body.database.detail).toMatch(/damaged \(sales: /);
    } finally {
      await t.close();
    }
  });

  it('L9: answers 503 once the database no longer answers a real query (a table gone under it)', async () => {
    const t = await startTestServer();
    try {
      expect((await t.get('/health')).status).toBe(200);
      await alterBehindTheServer(t, 'ALTER TABLE settings RENAME TO settings_moved');
      const down = await t.get('/health');
      expect(down.status).toBe(503);
      expect(down.body).toMatchObject({ status: 'unavailable', database: { status: 'error' } });
      expect(JSON.stringify(down.body)).toMatch(
        /no such table: settings|relation \\"settings\\" does not exist/,
      );
      await alterBehindTheServer(t, 'ALTER TABLE settings_moved RENAME TO settings');
      expect((await t.get('/health')).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
