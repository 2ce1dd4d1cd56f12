import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { TillStore } from './till-store';

/**
 * A fresh till's first snapshot swap (issue 30: books-sync and transfer-sync e2e waited in vain for a fresh
 * till's bootstrap on a loaded machine). The till migrates on its own connection, as a real one does at its
 * first start, which leaves SQLite's temp database open (ALTER TABLE reads temp.sqlite_master).
 */
let till: TestServer;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-till-store-'));
  till = await startTestServer({ mode: 'till', dataDir });
});
afterAll(async () => {
  await till?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** An empty snapshot of central: its header and its end line. */
async function* emptySnapshot(revision: number): AsyncGenerator<string> {
  yield JSON.stringify({ type: 'header', revision, epoch: 'epoch-1', branch_id: null, total_rows: 0 });
  yield JSON.stringify({ type: 'end', rows: 0 });
}

const attached = () => (till.sqlite.pragma('database_list') as Array<{ name: string }>).map((d) => d.name);

describe("a till's snapshot swap", () => {
  it('bootstraps while a sign-in is committing: the swap waits for its group instead of failing inside it', async () => {
    const store = new TillStore(till.context);
    // A request's transaction (a sign-in writes) hands the connection over while its group's COMMIT is
    // still to come; the swap takes it then. Inside the group, its temp_store setting was refused, and the
    // staging database it had attached stayed attached: every later attempt failed at its ATTACH.
    const signIn = till.context.db
      .transaction()
      .execute((trx) => sql`UPDATE users SET full_name = full_name`.execute(trx));
    const loaded = store.loadSnapshot(emptySnapshot(7));
    await Promise.all([signIn, loaded]);
    expect(await store.state()).toMatchObject({ bootstrapped: true, cursor: 7 });
    expect(attached()).not.toContain('sync_stage');
    // A second snapshot (a reset) swaps again.
    await store.loadSnapshot(emptySnapshot(9));
    expect((await store.state()).cursor).toBe(9);
    expect(attached()).not.toContain('sync_stage');
  });
});
