import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setMeta } from './meta';
import { startTestServer, type TestServer } from '../../testing/harness';
import { recordChange } from '../../db/changes';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer();
});
afterAll(() => t.close());

const change = (entityId: string) =>
  ({ entity: 'test', entityId, op: 'upsert', payload: { entityId }, branchId: null }) as const;
const baseOf = async (entityId: string) =>
  (
    await t.query<{ b: number | null }>(
      'SELECT base_revision AS b FROM change_log WHERE entity_id = ?',
      entityId,
    )
  )[0]?.b;

describe('recordChange', () => {
  it('stamps each local change with the pull cursor it was written against, read once per transaction', async () => {
    const { db } = t.context;
    await setMeta(db, 'cursor', 5);
    await db.transaction().execute(async (trx) => {
      await recordChange(trx, change('a'));
      await recordChange(trx, change('b'));
      // The cursor moves inside the transaction (a pulled page does this last): later changes see it.
      await setMeta(trx, 'cursor', 7);
      await recordChange(trx, change('c'));
    });
    await setMeta(db, 'cursor', 9);
    await recordChange(db, change('d'));
    expect(await Promise.all(['a', 'b', 'c', 'd'].map(baseOf))).toEqual([5, 5, 7, 9]);
  });
});
