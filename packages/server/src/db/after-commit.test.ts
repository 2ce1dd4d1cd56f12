import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, testingOnPostgres } from '../testing/harness';
import { afterCommit } from './after-commit';
import type { Db } from './connection';

/**
 * afterCommit on the server's own database: on PostgreSQL a transaction commits after its callback returns, so
 * a hook run any earlier reads, on another pool connection, nothing of what the transaction wrote.
 */
describe('work after commit', () => {
  let t: TestServer;
  let key = 0;

  beforeAll(async () => {
    t = await startTestServer();
  });
  afterAll(() => t?.close());

  const db = (): Db => t.context.db;
  const write = (trx: Db, k: string) =>
    trx.insertInto('sync_meta').values({ key: k, value: 'written' }).execute();
  const read = async (k: string) =>
    (await db().selectFrom('sync_meta').select('value').where('key', '=', k).executeTakeFirst())?.value ??
    null;

  it('runs a hook once the transaction has committed: it reads what the transaction wrote', async () => {
    const k = `after-commit-${++key}`;
    let seen: Promise<string | null> | undefined;
    await db()
      .transaction()
      .execute(async (trx) => {
        await write(trx, k);
        afterCommit(trx, () => {
          seen = read(k);
        });
        // More work after the hook is registered: a hook run before COMMIT would read nothing.
        await sleep(50);
        await trx.selectFrom('sync_meta').select('key').where('key', '=', k).execute();
      });
    await sleep(0);
    expect(seen).toBeDefined();
    expect(await seen).toBe('written');
  });

  it('never runs a hook of a transaction that rolled back', async () => {
    const k = `after-commit-${++key}`;
    let ran = false;
    const rolledBack = db()
      .transaction()
      .execute(async (trx) => {
        await write(trx, k);
        afterCommit(trx, () => {
          ran = true;
        });
        throw new Error('rolled back by the test');
      });
    await expect(rolledBack).rejects.toThrow('rolled back by the test');
    await sleep(50);
    expect(ran).toBe(false);
    expect(await read(k)).toBeNull();
  });

  it.skipIf(!testingOnPostgres())(
    'forgets the hooks of an attempt retried after a serialization failure; the committed attempt’s run once',
    async () => {
      const k = `after-commit-${++key}`;
      const ran: number[] = [];
      let attempt = 0;
      await db()
        .transaction()
        .execute(async (trx) => {
          const n = ++attempt;
          await write(trx, `${k}-${n}`);
          afterCommit(trx, () => ran.push(n));
          if (n === 1) throw Object.assign(new Error('could not serialize access'), { code: '40001' });
        });
      await sleep(0);
      expect(attempt).toBe(2);
      expect(ran).toEqual([2]);
      expect(await read(`${k}-1`)).toBeNull();
      expect(await read(`${k}-2`)).toBe('written');
    },
  );
});
