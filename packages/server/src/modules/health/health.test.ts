import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';

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
