import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { ownerOnlyDatabaseFile, requireSqlite, type Sqlite } from '../../db/connection';
import { nowIso } from '../../lib/time';
import { deleteMeta, setMeta } from './meta';
import {
  type EntityDefinition,
  getEntity,
  type Payload,
  registeredEntities,
  registeredEntityNames,
} from './registry';
import { toSqlValue } from './row-writes';
import { setTillBranch } from './till-identity';

/**
 * A till's bootstrap from central's snapshot: the stream is staged in a separate database file (flat memory,
 * the live tables untouched while downloading), then every replicated table is swapped for the staged rows in
 * ONE transaction that also sets the cursor to the snapshot revision. A stream without its end line is
 * refused (truncated download).
 */

/** Rows staged per staging transaction. */
const STAGE_COMMIT_ROWS = 5000;
/** Page cache of the snapshot staging database, in KiB (negative: SQLite's unit for a size in KiB). */
const STAGE_CACHE_KIB = -2000;
/** Page cache of the main connection during the swap, in KiB. */
const SWAP_CACHE_KIB = -4000;

/** Which entities this app version replicates: a till bootstrapped under another set must bootstrap again. */
export const registryFingerprint = () => registeredEntityNames().sort().join(',');

/** Rows staged so far of the total the snapshot's header announced. */
export interface SnapshotProgress {
  received: number;
  total: number | null;
}

interface SnapshotHeader {
  revision: number;
  epoch: string;
  branchId: string | null;
}

/** A snapshot written to the staging file, ready to swap in. */
interface Staged {
  stageFile: string;
  header: SnapshotHeader;
  /** Each entity's columns, as the live table has them. */
  columns: Map<string, string[]>;
  rows: number;
}

/**
 * Loads a snapshot stream into the till's database; `watch.progress` follows the rows staged, and is null
 * again once the snapshot is in (or has failed).
 */
export async function loadSnapshot(
  app: AppContext,
  lines: AsyncIterable<string>,
  watch: { progress: SnapshotProgress | null },
): Promise<{ revision: number; rows: number }> {
  const sqlite = requireSqlite(app, 'Loading a snapshot');
  const defs = registeredEntities();
  let staged: Staged;
  try {
    staged = await stageSnapshot(sqlite, defs, lines, watch);
  } catch (err) {
    watch.progress = null;
    throw err;
  }
  await swapSnapshot(app, defs, staged);
  for (const suffix of ['', '-journal']) fs.rmSync(staged.stageFile + suffix, { force: true });
  setTillBranch(app, staged.header.branchId);
  for (const def of defs) def.afterApply?.(app);
  watch.progress = null;
  return { revision: staged.header.revision, rows: staged.rows };
}

/** The staging file beside the till's database, created afresh with a table per replicated entity. */
function openStage(
  sqlite: Sqlite,
  defs: readonly EntityDefinition[],
): {
  stage: BetterSqlite3.Database;
  stageFile: string;
  columns: Map<string, string[]>;
  inserts: Map<string, BetterSqlite3.Statement>;
} {
  const stageFile = path.join(path.dirname(sqlite.name), 'sync-stage.db');
  for (const suffix of ['', '-journal', '-wal', '-shm']) fs.rmSync(stageFile + suffix, { force: true });
  ownerOnlyDatabaseFile(stageFile);
  const stage = new BetterSqlite3(stageFile);
  const columns = new Map<string, string[]>();
  const inserts = new Map<string, BetterSqlite3.Statement>();
  try {
    stage.pragma('journal_mode = OFF');
    stage.pragma('synchronous = OFF');
    // Staging is written once and read once, in order: a small page cache keeps the till's memory down while
    // hundreds of thousands of rows go through (better-sqlite3's default is 16 MB per connection and schema).
    stage.pragma(`cache_size = ${STAGE_CACHE_KIB}`);
    for (const def of defs) {
      const cols = (
        sqlite.prepare(`SELECT name FROM pragma_table_info(?)`).all(def.table) as {
          name: string;
        }[]
      ).map((c) => c.name);
      columns.set(def.entity, cols);
      stage.exec(`CREATE TABLE "${def.table}" (${cols.map((c) => `"${c}"`).join(', ')})`);
      inserts.set(
        def.entity,
        stage.prepare(
          `INSERT INTO "${def.table}" (${cols.map((c) => `"${c}"`).join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
        ),
      );
    }
  } catch (err) {
    stage.close();
    throw err;
  }
  return { stage, stageFile, columns, inserts };
}

/** Writes the stream's rows into the staging file; refuses a stream without header or end line. */
async function stageSnapshot(
  sqlite: Sqlite,
  defs: readonly EntityDefinition[],
  lines: AsyncIterable<string>,
  watch: { progress: SnapshotProgress | null },
): Promise<Staged> {
  const { stage, stageFile, columns, inserts } = openStage(sqlite, defs);
  let header: SnapshotHeader | null = null;
  let ended = false;
  let rows = 0;
  try {
    // Rows go straight into an open staging transaction, committed every STAGE_COMMIT_ROWS: buffering them
    // in batches let each batch survive a young-generation collection, and the promoted garbage grew the
    // heap by tens of MB over a large snapshot.
    let uncommitted = 0;
    stage.exec('BEGIN');
    for await (const line of lines) {
      if (!line) continue;
      const msg = JSON.parse(line) as { type: string; [k: string]: unknown };
      if (msg.type === 'header') {
        watch.progress = { received: 0, total: typeof msg.total_rows === 'number' ? msg.total_rows : null };
        header = {
          revision: Number(msg.revision),
          epoch: String(msg.epoch),
          // The device's branch (absent from older snapshots: then no branch is recorded, nobody refused).
          branchId: typeof msg.branch_id === 'string' && msg.branch_id ? msg.branch_id : null,
        };
      } else if (msg.type === 'row') {
        const def = getEntity(String(msg.entity));
        const cols = def && columns.get(def.entity);
        const insert = def && inserts.get(def.entity);
        if (!def || !cols || !insert) continue;
        const row = def.toRow(msg.payload as Payload);
        insert.run(cols.map((c) => toSqlValue(row[c])));
        rows++;
        if (watch.progress) watch.progress.received = rows;
        if (++uncommitted >= STAGE_COMMIT_ROWS) {
          stage.exec('COMMIT');
          stage.exec('BEGIN');
          uncommitted = 0;
        }
      } else if (msg.type === 'end') {
        if (Number(msg.rows) !== rows)
          throw new Error(`snapshot announced ${String(msg.rows)} rows but carried ${rows}`);
        ended = true;
      }
    }
    stage.exec('COMMIT');
  } finally {
    stage.close();
  }
  if (!header) throw new Error('snapshot stream has no header line');
  if (!ended) throw new Error('snapshot stream was truncated (no end line)');
  return { stageFile, header, columns, rows };
}

/** The swap: one transaction on the main connection, live tables replaced wholesale by the staged rows. */
async function swapSnapshot(
  app: AppContext,
  defs: readonly EntityDefinition[],
  { stageFile, header, columns }: Staged,
): Promise<void> {
  await app.db.connection().execute(async (conn) => {
    // The swap streams every row through the main connection's page cache once: a small one for its
    // duration keeps the till's peak memory down (16 MB more otherwise), restored afterwards. Its statement
    // journals, as large as the tables it rewrites, go to a temporary file rather than memory.
    const { rows: cache } = await sql<{ cache_size: number }>`PRAGMA main.cache_size`.execute(conn);
    const { rows: temp } = await sql<{ temp_store: number }>`PRAGMA temp_store`.execute(conn);
    await sql`ATTACH DATABASE ${stageFile} AS sync_stage`.execute(conn);
    // Whatever fails from here on, the stage is detached: left attached, every later attempt failed at its
    // ATTACH ("already in use") and the till never bootstrapped until restarted.
    try {
      await sql.raw(`PRAGMA sync_stage.cache_size = ${STAGE_CACHE_KIB}`).execute(conn);
      await sql.raw(`PRAGMA main.cache_size = ${SWAP_CACHE_KIB}`).execute(conn);
      await sql`PRAGMA temp_store = FILE`.execute(conn);
      await conn.transaction().execute(async (trx) => {
        await sql`PRAGMA defer_foreign_keys = ON`.execute(trx);
        // Append-only ledgers (stock_movements) refuse DELETE by trigger: lift those triggers for the swap
        // only, inside the same transaction, and put them back before it commits.
        const guards = await sql<{ name: string; sql: string }>`SELECT name, sql FROM main.sqlite_master
          WHERE type = 'trigger' AND tbl_name IN (SELECT value FROM json_each(${JSON.stringify(defs.map((d) => d.table))}))
            AND sql LIKE '%BEFORE DELETE%' AND sql LIKE '%RAISE(ABORT%'`.execute(trx);
        for (const g of guards.rows) await sql`DROP TRIGGER main.${sql.ref(g.name)}`.execute(trx);
        for (const def of [...defs].reverse())
          await sql`DELETE FROM main.${sql.table(def.table)}`.execute(trx);
        for (const g of guards.rows) await sql.raw(g.sql).execute(trx);
        for (const def of defs) {
          const cols = sql.join((columns.get(def.entity) ?? []).map((c) => sql.ref(c)));
          await sql`INSERT INTO main.${sql.table(def.table)} (${cols}) SELECT ${cols} FROM sync_stage.${sql.table(def.table)}`.execute(
            trx,
          );
        }
        // Rows this till logged before it had central's data (its seed) are not pushed; pulled history goes.
        await trx
          .updateTable('change_log')
          .set({ sync_status: 'skipped' })
          .where('from_remote', '=', sql.lit(0))
          .where('sync_status', 'is', null)
          .where(
            'entity',
            'in',
            defs.filter((d) => d.owner === 'central').map((d) => d.entity),
          )
          .execute();
        await trx.deleteFrom('change_log').where('from_remote', '=', sql.lit(1)).execute();
        await setMeta(trx, 'cursor', header.revision);
        await setMeta(trx, 'central_epoch', header.epoch);
        await setMeta(trx, 'bootstrapped', '1');
        await setMeta(trx, 'bootstrapped_at', nowIso());
        await setMeta(trx, 'registry', registryFingerprint());
        // The till's own branch: sign-in and every request refuse a branch-bound user of another branch.
        if (header.branchId) await setMeta(trx, 'branch_id', header.branchId);
        else await deleteMeta(trx, 'branch_id');
        await deleteMeta(trx, 'reset_required');
      });
    } finally {
      await sql`DETACH DATABASE sync_stage`.execute(conn);
      await sql.raw(`PRAGMA main.cache_size = ${Number(cache[0]?.cache_size ?? -2000)}`).execute(conn);
      await sql.raw(`PRAGMA temp_store = ${Number(temp[0]?.temp_store ?? 0)}`).execute(conn);
    }
  });
}
