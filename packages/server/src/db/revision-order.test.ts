import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../lib/ids';
import { startTestServer, type TestServer, testingOnPostgres } from '../testing/harness';
import { deferChanges, flushDeferredChanges, recordChange } from './changes';
import type { Db } from './connection';
import { publishedRevision, publishSafeRevision, safeRevision } from './revision-order';

/**
 * PostgreSQL commits revisions in any order; pulls and snapshots hand out only those no open writer can still
 * undercut (db/revision-order.ts). Real transactions on the server's own pool, held open on purpose.
 */
describe.skipIf(!testingOnPostgres())('revision order (PostgreSQL run only: SQLite has one writer)', () => {
  let t: TestServer;
  let device: { id: string; token: string };

  beforeAll(async () => {
    t = await startTestServer({ mode: 'central' });
    device = await t.registerDevice('Till O');
  });
  afterAll(() => t?.close());

  const pull = async (since: number) => {
    const res = await t.request<{ changes: Array<{ revision: number }>; next_revision: number }>(
      'GET',
      `/api/v1/sync/pull?device_id=${device.id}&since=${since}&limit=1000`,
      { headers: { 'x-device-token': device.token } },
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    return res.body;
  };
  const snapshotRevision = async () => {
    const res = await fetch(`${t.baseUrl}/api/v1/sync/snapshot?device_id=${device.id}`, {
      headers: { 'x-device-token': device.token },
    });
    expect(res.status).toBe(200);
    await res.text();
    return Number(res.headers.get('x-snapshot-revision'));
  };
  const change = (name: string) => ({
    entity: 'medicine',
    entityId: newId(),
    op: 'upsert' as const,
    payload: { name },
    branchId: null,
  });

  /** A transaction that writes one change and stays open until `release` (rolled back if `rollback`). */
  function openWriter(write: (trx: Db) => Promise<void>, rollback = false) {
    let release!: () => void;
    const released = new Promise<void>((r) => {
      release = r;
    });
    let written!: () => void;
    const isWritten = new Promise<void>((r) => {
      written = r;
    });
    const done = t.context.db
      .transaction()
      .execute(async (trx) => {
        await write(trx);
        written();
        await released;
        if (rollback) throw new Error('rolled back on purpose');
      })
      .catch((err: Error) => {
        if (!rollback) throw err;
      });
    return { isWritten, release, done };
  }
  const single = (name: string) => (trx: Db) => recordChange(trx, change(name));
  const deferred = (name: string) => async (trx: Db) => {
    deferChanges(trx);
    await recordChange(trx, change(name));
    await flushDeferredChanges(trx);
  };

  it('a revision committed while a lower one is open is handed out only once the lower one commits', async () => {
    const before = await t.headRevision();
    // An ordinary writer (the change-log turn and a marker), then a push's deferred writer (a marker only):
    // the second takes the higher revision and commits first.
    const low = openWriter(single('Open low'));
    await low.isWritten;
    const high = openWriter(deferred('Committed high'));
    await high.isWritten;
    high.release();
    await high.done;
    expect(await t.headRevision()).toBeGreaterThan(before + 1);

    const held = await pull(before);
    expect(held.changes).toEqual([]);
    expect(held.next_revision).toBe(before);
    expect(await snapshotRevision()).toBe(before);
    expect(await safeRevision(t.context.db)).toBe(before);

    low.release();
    await low.done;
    const all = await pull(before);
    expect(all.changes.map((c) => c.revision)).toEqual([before + 1, before + 2]);
    expect(all.next_revision).toBe(before + 2);
    expect(await snapshotRevision()).toBe(before + 2);
  });

  it('a rolled-back writer stops holding the feed back; its revision is never handed out', async () => {
    const before = await t.headRevision();
    const lost = openWriter(deferred('Rolled back'), true);
    await lost.isWritten;
    const kept = openWriter(deferred('Kept'));
    await kept.isWritten;
    kept.release();
    await kept.done;
    expect((await pull(before)).changes).toEqual([]);
    lost.release();
    await lost.done;
    const after = await pull(before);
    expect(after.changes.map((c) => c.revision)).toEqual([before + 2]);
  });

  it('the published revision, what a replica reads up to, moves only to a safe revision', async () => {
    const before = await t.headRevision();
    await publishSafeRevision(t.context.db);
    expect(await publishedRevision(t.context.db)).toBe(before);
    const open = openWriter(single('Open'));
    await open.isWritten;
    const done = openWriter(deferred('Done'));
    await done.isWritten;
    done.release();
    await done.done;
    await publishSafeRevision(t.context.db);
    expect(await publishedRevision(t.context.db)).toBe(before);
    open.release();
    await open.done;
    await publishSafeRevision(t.context.db);
    expect(await publishedRevision(t.context.db)).toBe(before + 2);
  });
});
