import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

describe("the till's database files", () => {
  it('L6: pharmacy.db and its WAL are readable by their owner only (0600)', async () => {
    if (t.dialect !== 'sqlite') return;
    // A write, so the WAL and shared-memory files exist.
    expect(
      (await t.post('/api/v1/branches', { name: 'Modes', code: 'MODES' }, await t.adminToken())).status,
    ).toBe(201);
    for (const name of ['pharmacy.db', 'pharmacy.db-wal', 'pharmacy.db-shm']) {
      const file = path.join(t.dataDir, name);
      expect(fs.statSync(file).mode & 0o777, name).toBe(0o600);
    }
  });
});
