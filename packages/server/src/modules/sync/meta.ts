import { randomUUID } from 'node:crypto';
import BetterSqlite3 from 'better-sqlite3';
import type { AppContext } from '../../app-context';
import { forgetPullCursor } from '../../db/changes';
import { type Db, requireSqlite, type Sqlite } from '../../db/connection';

export async function getMeta(db: Db, key: string): Promise<string | null> {
  const row = await db.selectFrom('sync_meta').select('value').where('key', '=', key).executeTakeFirst();
  return row?.value ?? null;
}

export async function setMeta(db: Db, key: string, value: string | number): Promise<void> {
  await db
    .insertInto('sync_meta')
    .values({ key, value: String(value) })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: String(value) }))
    .execute();
  if (key === 'cursor') forgetPullCursor(db);
}

export async function deleteMeta(db: Db, key: string): Promise<void> {
  await db.deleteFrom('sync_meta').where('key', '=', key).execute();
}

/** Central's epoch: a random id of this database, created once; a till seeing another one must reset. */
export async function getEpoch(app: AppContext): Promise<string> {
  const existing = await getMeta(app.db, 'epoch');
  if (existing) return existing;
  await app.db
    .insertInto('sync_meta')
    .values({ key: 'epoch', value: randomUUID() })
    .onConflict((oc) => oc.column('key').doNothing())
    .execute();
  return (await getMeta(app.db, 'epoch'))!;
}

const readers = new WeakMap<AppContext, Sqlite>();

/**
 * A read-only connection to the same file for the pull feed: it sees committed data only (the main
 * connection may be inside an open push transaction) and never blocks writers (WAL).
 */
export function feedReader(app: AppContext): Sqlite {
  let reader = readers.get(app);
  if (!reader) {
    reader = openReader(app);
    readers.set(app, reader);
    const r = reader;
    app.closers.push(() => {
      r.close();
    });
  }
  return reader;
}

export function openReader(app: AppContext): Sqlite {
  const reader = new BetterSqlite3(requireSqlite(app, 'The sync feed reader').name, {
    readonly: true,
    fileMustExist: true,
  });
  reader.pragma('busy_timeout = 5000');
  return reader;
}

/**
 * Central: drops change_log rows older than the tombstone retention (they are all covered by a snapshot).
 * A till whose cursor is below the compacted revision must reset (409 RESET_REQUIRED) and bootstrap again.
 */
export async function compactChangeLog(
  app: AppContext,
  retentionDays: number,
  now = Date.now(),
): Promise<number> {
  const before = new Date(now - retentionDays * 86_400_000).toISOString();
  return app.db.transaction().execute(async (trx) => {
    const last = await trx
      .selectFrom('change_log')
      .select((eb) => eb.fn.max('revision').as('r'))
      .where('created_at', '<', before)
      .executeTakeFirst();
    const upTo = Number(last?.r ?? 0);
    if (!upTo) return 0;
    const head = await trx
      .selectFrom('change_log')
      .select((eb) => eb.fn.max('revision').as('r'))
      .executeTakeFirst();
    // Keep the newest row so the AUTOINCREMENT head survives (sqlite_sequence keeps it anyway).
    const limit = Math.min(upTo, Number(head?.r ?? 0) - 1);
    if (limit <= 0) return 0;
    const res = await trx.deleteFrom('change_log').where('revision', '<=', limit).executeTakeFirst();
    const prev = Number((await getMeta(trx, 'compacted_revision')) ?? 0);
    await setMeta(trx, 'compacted_revision', Math.max(prev, limit));
    return Number(res.numDeletedRows);
  });
}
