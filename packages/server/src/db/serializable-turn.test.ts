import { afterAll, beforeAll, expect, it } from 'vitest';
import { startTestServer, type TestServer, testingOnPostgres } from '../testing/harness';
import { serializableInTurn } from './postgres';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ mode: 'central', databasePoolSize: 2 });
});
afterAll(() => t?.close());

/**
 * Callers waiting for the turn must not sit on pool connections: when they did, the holder, needing one more
 * connection for a read outside its transaction, waited for a waiter that waited for it.
 */
it.skipIf(!testingOnPostgres())(
  'turns taken at once on a small pool all finish, each holder reading outside its transaction',
  async () => {
    const db = t.context.db;
    const order: number[] = [];
    const turns = [1, 2, 3, 4].map((n) =>
      serializableInTurn(db, 7_301_099, async (trx) => {
        await db.selectFrom('users').select('id').execute(); // another pool connection
        await trx.selectFrom('branches').select('id').execute();
        order.push(n);
      }),
    );
    const stuck = new Promise<'stuck'>((resolve) => setTimeout(() => resolve('stuck'), 10_000).unref());
    expect(await Promise.race([Promise.all(turns).then(() => 'done' as const), stuck])).toBe('done');
    expect(order).toEqual([1, 2, 3, 4]);
  },
  30_000,
);
