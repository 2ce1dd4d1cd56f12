import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type SqliteConnection } from './connection';
import { migrate } from './migrate';
import { pageAnswer, pageWindow, paginate } from './paginate';

let dir: string;
let conn: SqliteConnection;
beforeAll(async () => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-paginate-'));
  conn = openDatabase(path.join(dir, 'pharmacy.db'));
  await migrate(conn);
  // Seven keys in three groups: a.1-a.3, b.1-b.2, c.1-c.2.
  const keys = ['a.1', 'a.2', 'a.3', 'b.1', 'b.2', 'c.1', 'c.2'];
  await conn.db
    .insertInto('sync_meta')
    .values(keys.map((key) => ({ key: `page-test.${key}`, value: key.slice(0, 1) })))
    .execute();
});
afterAll(async () => {
  await conn.db.destroy();
  fs.rmSync(dir, { recursive: true, force: true });
});

const ours = () => conn.db.selectFrom('sync_meta').where('key', 'like', 'page-test.%');

describe('paginate', () => {
  it('skips (page - 1) × page_size rows and takes page_size', () => {
    expect(pageWindow({ page: 1, page_size: 20 })).toEqual({ limit: 20, offset: 0 });
    expect(pageWindow({ page: 3, page_size: 7 })).toEqual({ limit: 7, offset: 14 });
  });

  it('answers items, total, page and page_size in that order, the total a number', () => {
    const answer = pageAnswer({ page: 2, page_size: 5 }, ['x'], 12n);
    expect(Object.keys(answer)).toEqual(['items', 'total', 'page', 'page_size']);
    expect(answer).toEqual({ items: ['x'], total: 12, page: 2, page_size: 5 });
  });

  it('pages the rows in their order and counts every match, the last page short and past it empty', async () => {
    const pageOf = (page: number) =>
      paginate(ours(), { page, page_size: 3 }, (q) => q.select('key').orderBy('key'));
    const pages = await Promise.all([1, 2, 3, 4].map(pageOf));
    expect(pages.map((p) => p.items.map((r) => r.key.slice(-3)))).toEqual([
      ['a.1', 'a.2', 'a.3'],
      ['b.1', 'b.2', 'c.1'],
      ['c.2'],
      [],
    ]);
    expect(pages.map((p) => p.total)).toEqual([7, 7, 7, 7]);
  });

  it('takes the total the caller has counted instead of counting again', async () => {
    const page = await paginate(ours(), { page: 1, page_size: 2 }, (q) => q.select('key').orderBy('key'), {
      total: 99,
    });
    expect([page.items.length, page.total]).toEqual([2, 99]);
  });

  it('counts the groups of a grouped query given as a derived table (each group one row)', async () => {
    const groups = ours()
      .select((eb) => ['value', eb.fn.countAll<number>().as('n')])
      .groupBy('value');
    const page = await paginate(conn.db.selectFrom(groups.as('g')), { page: 2, page_size: 2 }, (q) =>
      q.selectAll().orderBy('g.value'),
    );
    expect(page).toEqual({ items: [{ value: 'c', n: 2 }], total: 3, page: 2, page_size: 2 });
  });

  it('reads every row from the first with all, still echoing the page asked for', async () => {
    const page = await paginate(
      ours(),
      { page: 2, page_size: 2 },
      (q) => q.select(sql<string>`key`.as('k')),
      {
        all: true,
      },
    );
    expect([page.items.length, page.total, page.page]).toEqual([7, 7, 2]);
  });
});
