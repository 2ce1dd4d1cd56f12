import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteConnection as Connection } from './connection';
import { migrate } from './migrate';
import { prepared, preparedInsert, preparedShapes, runRaw } from './prepared';

let dir: string;
let conn: Connection;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-prepared-'));
  conn = openDatabase(path.join(dir, 'pharmacy.db'));
  await migrate(conn);
});
afterAll(async () => {
  await conn.db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const setMeta = prepared((db, p: { key: string; value: string }) =>
  db
    .insertInto('sync_meta')
    .values({ key: p.key, value: p.value })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: p.value })),
);
const metaByKey = prepared((db, p: { key: string }) =>
  db.selectFrom('sync_meta').select(['key', 'value']).where('key', '=', p.key),
);

describe('prepared queries', () => {
  it('compiles once and binds new values on every execution', async () => {
    expect(await setMeta.run(conn.db, { key: 'a', value: '1' })).toBe(1);
    await setMeta.run(conn.db, { key: 'b', value: '2' });
    await setMeta.run(conn.db, { key: 'a', value: '3' });
    expect(await metaByKey.first(conn.db, { key: 'a' })).toEqual({ key: 'a', value: '3' });
    expect(await metaByKey.all(conn.db, { key: 'b' })).toEqual([{ key: 'b', value: '2' }]);
    expect(await metaByKey.first(conn.db, { key: 'none' })).toBeUndefined();
  });

  it('runs inside the caller transaction and rolls back with it', async () => {
    await expect(
      conn.db.transaction().execute(async (trx) => {
        await setMeta.run(trx, { key: 'rolled', value: 'x' });
        expect(await metaByKey.first(trx, { key: 'rolled' })).toBeDefined();
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    expect(await metaByKey.first(conn.db, { key: 'rolled' })).toBeUndefined();
  });

  it('refuses a missing parameter instead of binding undefined', async () => {
    await expect(metaByKey.first(conn.db, {} as { key: string })).rejects.toThrow(/parameter key is missing/);
  });

  it('compiles one statement per shape of optional filters, each with its own LIMIT', async () => {
    for (const [key, value] of [
      ['shape-a', 'x'],
      ['shape-b', 'y'],
      ['shape-c', 'x'],
    ] as const) {
      await setMeta.run(conn.db, { key, value });
    }
    type Filter = { value?: string; prefix?: string; limit: number };
    const search = preparedShapes(
      (f: Filter) => `${f.value === undefined ? '' : 'v'}${f.prefix === undefined ? '' : 'p'}:${f.limit}`,
      (db, p, given) => {
        let q = db.selectFrom('sync_meta').select('key').orderBy('key');
        if (given.value !== undefined) q = q.where('value', '=', p.value as string);
        if (given.prefix !== undefined) q = q.where('key', '>=', p.prefix as string);
        return q.limit(given.limit);
      },
    );
    const keys = async (f: Filter) => (await search.all(conn.db, f)).map((r) => r.key);
    expect(await keys({ value: 'x', prefix: 'shape', limit: 10 })).toEqual(['shape-a', 'shape-c']);
    expect(await keys({ value: 'y', prefix: 'shape', limit: 10 })).toEqual(['shape-b']);
    expect(await keys({ prefix: 'shape-b', limit: 10 })).toEqual(['shape-b', 'shape-c']);
    expect(await keys({ prefix: 'shape-b', limit: 1 })).toEqual(['shape-b']);
    expect(await keys({ value: 'x', limit: 1 })).toEqual(['shape-a']);
  });

  it('runs raw SQL text with parameters', async () => {
    const r = await runRaw<{ value: string }>(conn.db, 'SELECT value FROM sync_meta WHERE key = ?', ['b']);
    expect(r.rows).toEqual([{ value: '2' }]);
  });
});

describe('inline LIMIT', () => {
  it('writes a whole-number LIMIT as a literal and keeps OFFSET a parameter', () => {
    const q = conn.db.selectFrom('sync_meta').selectAll().limit(20).offset(40).compile();
    expect(q.sql).toMatch(/limit 20 offset \?$/);
    expect(q.parameters).toEqual([40]);
  });

  it('inserts whole rows, one statement per set of columns, leaving undefined columns to their defaults', async () => {
    const insertChange = preparedInsert('change_log');
    const row = (entity_id: string, from_remote?: 0 | 1) => ({
      revision: undefined,
      entity: 'test',
      entity_id,
      op: 'upsert',
      payload: '{}',
      branch_id: null,
      origin_device_id: null,
      client_mutation_id: `cm-${entity_id}`,
      from_remote,
      created_at: '2026-11-23T00:00:00.000Z',
    });
    expect(await insertChange.run(conn.db, [row('a'), row('b', 1), row('c')])).toBe(3);
    expect(await insertChange.run(conn.db, row('d', 1))).toBe(1);
    const stored = conn.sqlite
      .prepare("SELECT entity_id, from_remote FROM change_log WHERE entity = 'test' ORDER BY revision")
      .all();
    expect(stored).toEqual([
      { entity_id: 'a', from_remote: 0 },
      { entity_id: 'b', from_remote: 1 },
      { entity_id: 'c', from_remote: 0 },
      { entity_id: 'd', from_remote: 1 },
    ]);
  });

  it('inserts runs of rows of the same columns in a few multi-row statements, in order, whatever their number', async () => {
    const insertChange = preparedInsert('change_log');
    const row = (entity_id: string, from_remote?: 0 | 1) => ({
      entity: 'many',
      entity_id,
      op: 'upsert',
      payload: '{}',
      branch_id: null,
      origin_device_id: null,
      client_mutation_id: `many-${entity_id}`,
      from_remote,
      created_at: '2026-11-23T00:00:00.000Z',
    });
    // 200 rows, one with another set of columns in the middle: 64 + 64 + 16 + 9 + 1 + 16 + 16 + 14 rows.
    const rows = Array.from({ length: 200 }, (_, i) =>
      row(String(i).padStart(3, '0'), i === 153 ? 1 : undefined),
    );
    let runs = 0;
    const counting = conn.db.withPlugin({
      transformQuery: (args) => args.node,
      transformResult: async (args) => {
        runs++;
        return args.result;
      },
    });
    expect(await insertChange.run(counting, rows)).toBe(200);
    expect(runs).toBe(8);
    const stored = conn.sqlite
      .prepare("SELECT entity_id, from_remote FROM change_log WHERE entity = 'many' ORDER BY revision")
      .all() as Array<{ entity_id: string; from_remote: number }>;
    expect(stored.map((r) => r.entity_id)).toEqual(rows.map((r) => r.entity_id));
    expect(stored.filter((r) => r.from_remote === 1).map((r) => r.entity_id)).toEqual(['153']);
    expect(await insertChange.run(conn.db, [])).toBe(0);
  });
});
