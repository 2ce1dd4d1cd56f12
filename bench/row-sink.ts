import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { SUMMARY_INSERT_TRIGGERS } from '../packages/server/src/db/migrations/0019_report_summaries';
import { REPORT_SUMMARY_REBUILD } from '../packages/server/src/db/migrations/0020_report_summary_deltas';
import type { RowValues } from '../packages/server/src/modules/reports/synthetic-sales';
import { CopyText, plainLine } from './copy-text';
import { clock, type RunProgress } from './run-progress';

/** How the bulk of the rows (the sales) is written; what a PostgreSQL sink could arrange is in `bulk`. */
export interface BulkLoad {
  /** Tables whose plain (not unique, not key) indexes are dropped before the load and built once after it. */
  deferIndexes: readonly string[];
  /**
   * Sales, lines and payments written without the report summaries' INSERT triggers, the summaries then
   * rebuilt from the tables with migration 0019's backfill (what the triggers would have written).
   */
  summariesAfter: boolean;
  /**
   * Tables loaded while empty (a new database), whose keys are dropped too, as pg_restore adds them after the
   * data: their primary keys and unique constraints and indexes (each a B-tree insert per row, the text keys
   * compared by collation), with the foreign keys that reference those keys. Put back after the load as ALTER
   * TABLE … ADD CONSTRAINT (CREATE UNIQUE INDEX for a unique index): every key is checked again by building
   * its index, every foreign key by validating its rows.
   */
  deferKeys?: readonly string[];
}

/**
 * Where generate:sales puts its rows: the generator computes every row once and hands it to a sink, which only
 * stores it. A batch of rows is one transaction. SQLite runs one prepared INSERT per row; PostgreSQL buffers
 * the batch as COPY text and streams it while the generator builds the next batch.
 */
export interface RowSink {
  /** Adds one row; within a batch, tables are written in the order they were first added (parents first). */
  add(table: string, columns: readonly string[], values: RowValues): void;
  /**
   * `add` for values the caller knows hold no backslash, tab, newline or carriage return (the generated sales:
   * ids, hashes, numbers, times and the names the generator made), written to COPY without looking for them:
   * the look took as long as writing the line, on the thread that makes the sales.
   */
  addPlain(table: string, columns: readonly string[], values: RowValues): void;
  /** Ends the batch; on PostgreSQL it is stored in the background while the next one is built. */
  flush(): Promise<void>;
  /** Ends the batch and waits until every batch is stored (before rows that reference them). */
  settle(): Promise<void>;
  /**
   * Before the bulk load (every batch settled): PostgreSQL, when the role may (it owns the tables), drops
   * `plan`'s plain indexes and the summaries' INSERT triggers, recording what it dropped in the same
   * transaction (so `finish`, `restore`, or the next run after a killed one puts it back). Returns what it
   * arranged. SQLite: nothing.
   */
  beginBulk(plan: BulkLoad): Promise<BulkLoad>;
  /**
   * PostgreSQL as a superuser: the rows to come skip foreign-key checks and ordinary triggers
   * (session_replication_role = replica), for the sales only: the batches must fire medicine_stock's trigger.
   */
  skipForeignKeys(): Promise<void>;
  /**
   * Waits for every batch, then (PostgreSQL) builds the deferred indexes, runs VACUUM ANALYZE on `tables` and
   * rebuilds the summaries with their triggers enabled again; SQLite runs ANALYZE. Closes the sink.
   */
  finish(tables: readonly string[], progress: RunProgress): Promise<void>;
  /** After a failure: stops writing and puts back what beginBulk changed (indexes, summaries, triggers). */
  restore(progress: RunProgress): Promise<void>;
}

export function sqliteSink(sqlite: BetterSqlite3.Database): RowSink {
  const statements = new Map<string, BetterSqlite3.Statement<unknown[]>>();
  let open = false;
  const commit = async () => {
    if (open) sqlite.exec('COMMIT');
    open = false;
  };
  const add: RowSink['add'] = (table, columns, values) => {
    if (!open) {
      sqlite.exec('BEGIN');
      open = true;
    }
    const key = `${table}(${columns.join(',')})`;
    let statement = statements.get(key);
    if (!statement) {
      statement = sqlite.prepare(
        `INSERT INTO ${table} (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
      );
      statements.set(key, statement);
    }
    statement.run(...values);
  };
  return {
    add,
    addPlain: add,
    flush: commit,
    settle: commit,
    beginBulk: async () => ({ deferIndexes: [], summariesAfter: false }),
    skipForeignKeys: async () => undefined,
    async finish(_tables, progress) {
      await commit();
      progress.begin('ANALYZE');
      sqlite.exec('ANALYZE');
      progress.end();
    },
    async restore() {
      if (open) sqlite.exec('ROLLBACK');
      open = false;
    },
  };
}

/** A string as COPY's text format writes it: backslash escapes for the separators. */
const escaped = (v: string) =>
  v.replace(/[\\\n\r\t]/g, (c) => (c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t'));

const copyText = (v: string | number | null) =>
  v === null ? '\\N' : typeof v === 'number' ? String(v) : escaped(v);

const SPECIAL = /[\\\n\r\t]/;

/** One row as a line of COPY text: tab-separated, \N for NULL, backslash escapes where a value needs them. */
export function copyLine(values: RowValues): string {
  return `${values.map((v) => (typeof v === 'string' && !SPECIAL.test(v) ? v : copyText(v))).join('\t')}\n`;
}

/** A PostgreSQL sink: rows, or COPY text made elsewhere (generate:sales' workers), stored by COPY. */
export interface CopySink extends RowSink {
  /** Adds a table's rows as COPY text already made (lines of `columns`, ending in newlines). */
  addCopy(table: string, columns: readonly string[], chunks: readonly Uint8Array[]): void;
  /** Puts back what a stopped run left (its pending table) before anything else. */
  recover(progress: RunProgress): Promise<void>;
}

/**
 * What a bulk load changed, one row each, committed with the change itself: a dropped index (its definition
 * from pg_indexes) or a dropped trigger (pg_get_triggerdef, and `after` it the statement enabling it as it
 * was: ENABLE ALWAYS). Whoever finds it (the run's `finish` or `restore`, or the next run after a killed one)
 * builds the indexes, rebuilds the summaries with the triggers back, then drops it.
 */
const PENDING = 'generate_sales_pending';

/**
 * COPY … FROM STDIN per table and batch, on `connections` connections (a batch per connection in flight, so
 * the server's cores share the work) with synchronous_commit off: a crash could lose the last batches, never
 * corrupt the database (generated history is not a durability test). The bulk (beginBulk) is written the way
 * pg_restore writes a dump: plain indexes built once at the end instead of row by row; the report summaries'
 * INSERT triggers dropped, the summaries rebuilt from the tables afterwards (kept, they joined each batch's
 * spilled transition tables to the sales for minutes: docs/SCALING.md); and as a superuser (the local
 * cluster's) the sales' foreign-key checks skipped (session_replication_role = replica; the generator's rows
 * reference what it wrote before). A stopped run's leftovers are put back when the sink opens (`recover`).
 */
export async function postgresCopySink(
  url: string,
  log: (line: string) => void,
  connections = 2,
): Promise<CopySink> {
  const connect = async () => {
    const client = new pg.Client({ connectionString: url, application_name: 'generate-sales' });
    await client.connect();
    await client.query('SET synchronous_commit = off');
    // Two index builds side by side already keep both connections' cores busy.
    await client.query('SET max_parallel_maintenance_workers = 0');
    return client;
  };
  const clients: pg.Client[] = [];
  for (let i = 0; i < connections; i++) clients.push(await connect());
  /** Reads the server's progress views while the others build indexes or vacuum. */
  const monitor = await connect();
  const pids = (
    await Promise.all(clients.map((c) => c.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')))
  ).map((r) => r.rows[0]!.pid);
  const superuser = (await clients[0]!.query<{ su: string }>("SELECT current_setting('is_superuser') AS su"))
    .rows[0]!.su;
  let batch = new Map<string, CopyText>();
  /** The batch each connection is storing, in the order they started. */
  const inFlight: Array<Promise<void>> = [];
  let next = 0;

  async function store(client: pg.Client, tables: Map<string, CopyText>): Promise<void> {
    await client.query('BEGIN');
    try {
      for (const [table, pending] of tables) {
        const copy = client.query(copyFrom(`COPY ${table} (${pending.columns.join(', ')}) FROM STDIN`));
        // A worker's buffers arrive as Uint8Array: viewed as Buffers (no copy) for the COPY stream.
        const chunks = pending.close().map((c) => Buffer.from(c.buffer, c.byteOffset, c.byteLength));
        await pipeline(Readable.from(chunks), copy);
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
  }

  function pendingOf(table: string, columns: readonly string[]): CopyText {
    let pending = batch.get(table);
    if (!pending) {
      pending = new CopyText(columns);
      batch.set(table, pending);
    }
    return pending;
  }

  async function flush(): Promise<void> {
    if (inFlight.length >= clients.length) await inFlight.shift();
    const tables = batch;
    batch = new Map();
    if (tables.size === 0) return;
    const storing = store(clients[next++ % clients.length]!, tables);
    // Reported when awaited (the next flush, settle or finish); not an unhandled rejection before that.
    storing.catch(() => undefined);
    inFlight.push(storing);
  }

  async function settle(): Promise<void> {
    await flush();
    while (inFlight.length > 0) await inFlight.shift();
  }

  const replica = async (on: boolean) => {
    for (const c of clients) await c.query(`SET session_replication_role = ${on ? 'replica' : 'DEFAULT'}`);
  };

  async function close() {
    for (const c of [...clients, monitor]) await c.end().catch(() => undefined);
  }

  const pendingExists = async () =>
    (await clients[0]!.query<{ t: string | null }>(`SELECT to_regclass('${PENDING}') AS t`)).rows[0]?.t !=
    null;

  /** Puts back what the pending table records (this run's or a stopped run's); VACUUM ANALYZE `vacuum` between. */
  async function putBack(progress: RunProgress, vacuum: readonly string[]) {
    const pending = await pendingExists();
    if (pending) await buildIndexes(clients, monitor, pids, progress);
    else {
      progress.begin('indexes');
      progress.end('none deferred');
    }
    if (vacuum.length > 0) await vacuumAnalyze(clients, monitor, pids, vacuum, progress);
    if (pending) await rebuildSummaries(clients, progress);
    else {
      progress.begin('summaries');
      progress.end('kept by their triggers');
    }
  }

  return {
    add(table, columns, values) {
      pendingOf(table, columns).add(copyLine(values));
    },
    addPlain(table, columns, values) {
      pendingOf(table, columns).add(plainLine(values));
    },
    addCopy(table, columns, chunks) {
      pendingOf(table, columns).append(chunks);
    },
    flush,
    settle,
    async beginBulk(plan) {
      await settle();
      return deferForLoad(clients[0]!, plan, log);
    },
    async skipForeignKeys() {
      await settle();
      if (superuser === 'on') await replica(true);
      log(
        `PostgreSQL: COPY on ${clients.length} connections, synchronous_commit off, ` +
          (superuser === 'on' ? 'foreign-key checks skipped' : 'foreign keys checked (not a superuser)'),
      );
    },
    async finish(tables, progress) {
      await settle();
      await replica(false);
      await putBack(progress, tables);
      await close();
    },
    async restore(progress) {
      batch = new Map();
      await Promise.allSettled(inFlight.splice(0));
      try {
        await replica(false);
        if (await pendingExists()) await putBack(progress, []);
      } finally {
        await close();
      }
    },
    async recover(progress) {
      if (!(await pendingExists())) return;
      log(`PostgreSQL: a stopped run left ${PENDING}; building its indexes and summaries first`);
      await putBack(progress, []);
    },
  };
}

/** One thing a load drops, with what puts it back (`def`, then `after`) and what drops it. */
interface Deferred {
  name: string;
  def: string;
  after: string;
  drop: string;
}

/**
 * Drops `plan.deferIndexes`' plain indexes, (plan.summariesAfter) the summaries' INSERT triggers and
 * (plan.deferKeys, tables loaded while empty) their keys with the foreign keys referencing them, recording each
 * one's definition in the pending table in the same transaction (all or nothing). The triggers are dropped
 * rather than disabled: PostgreSQL still builds the NEW TABLE of every statement for a disabled trigger (a
 * 20,000-sale batch spilled its lines to temporary files for nothing). Without the right (not the tables'
 * owner) it changes nothing and says so: the rows are then written with indexes and triggers in place.
 */
async function deferForLoad(
  client: pg.Client,
  plan: BulkLoad,
  log: (line: string) => void,
): Promise<BulkLoad> {
  const keyTables = plan.deferKeys ?? [];
  const schema = '(SELECT oid FROM pg_namespace WHERE nspname = current_schema())';
  // Plain indexes; on a table loaded empty, unique indexes that back no constraint too (sales_device_icv).
  const { rows: indexes } = await client.query<Deferred>(
    `SELECT i.indexname AS name, i.indexdef AS def, '' AS after, format('DROP INDEX %I', i.indexname) AS drop
       FROM pg_indexes i
       JOIN pg_class c ON c.relname = i.indexname AND c.relkind = 'i' AND c.relnamespace = ${schema}
       JOIN pg_index x ON x.indexrelid = c.oid
      WHERE i.schemaname = current_schema() AND i.tablename = ANY($1)
        AND (NOT x.indisunique OR i.tablename = ANY($2))
        AND NOT EXISTS (SELECT 1 FROM pg_constraint k WHERE k.conindid = c.oid AND k.contype IN ('p', 'u', 'x'))`,
    [plan.deferIndexes, keyTables],
  );
  const { rows: triggers } = plan.summariesAfter
    ? await client.query<Deferred>(
        `SELECT t.tgname AS name, pg_get_triggerdef(t.oid) AS def,
            format('ALTER TABLE %I ENABLE %s TRIGGER %I', c.relname,
              CASE t.tgenabled WHEN 'A' THEN 'ALWAYS' WHEN 'R' THEN 'REPLICA' ELSE '' END, t.tgname) AS after,
            format('DROP TRIGGER %I ON %I', t.tgname, c.relname) AS drop
           FROM pg_trigger t JOIN pg_class c ON c.oid = t.tgrelid
          WHERE c.relnamespace = ${schema} AND t.tgname = ANY($1) AND t.tgenabled <> 'D'`,
        [SUMMARY_INSERT_TRIGGERS.map((t) => t.trigger)],
      )
    : { rows: [] };
  // Primary keys and unique constraints of the tables loaded empty, and every foreign key referencing them
  // (dropped first: a key cannot go while one depends on it). Named table.constraint (names are per table).
  const { rows: constraints } = await client.query<Deferred & { kind: 'key' | 'foreign key' }>(
    `SELECT r.relname || '.' || k.conname AS name, CASE k.contype WHEN 'f' THEN 'foreign key' ELSE 'key' END AS kind,
        format('ALTER TABLE %I ADD CONSTRAINT %I %s', r.relname, k.conname, pg_get_constraintdef(k.oid)) AS def,
        '' AS after, format('ALTER TABLE %I DROP CONSTRAINT %I', r.relname, k.conname) AS drop
       FROM pg_constraint k JOIN pg_class r ON r.oid = k.conrelid
      WHERE r.relnamespace = ${schema} AND cardinality($1::text[]) > 0
        AND ((k.contype IN ('p', 'u') AND r.relname = ANY($1))
          OR (k.contype = 'f' AND k.confrelid IN (SELECT oid FROM pg_class WHERE relname = ANY($1) AND relnamespace = ${schema})))
      ORDER BY k.contype = 'f' DESC, 1`,
    [keyTables],
  );
  if (indexes.length === 0 && triggers.length === 0 && constraints.length === 0)
    return { deferIndexes: [], summariesAfter: false, deferKeys: [] };
  await client.query('BEGIN');
  try {
    await client.query(
      `CREATE TABLE IF NOT EXISTS ${PENDING} (name text PRIMARY KEY, kind text NOT NULL, def text NOT NULL, after text NOT NULL)`,
    );
    const all = [
      ...constraints,
      ...indexes.map((r) => ({ ...r, kind: 'index' })),
      ...triggers.map((r) => ({ ...r, kind: 'trigger' })),
    ];
    for (const r of all) {
      await client.query(
        `INSERT INTO ${PENDING} (name, kind, def, after) VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING`,
        [r.name, r.kind, r.def, r.after],
      );
      await client.query(r.drop);
    }
    await client.query('COMMIT');
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    log(
      `PostgreSQL: indexes and summary triggers kept (${err instanceof Error ? err.message : String(err)}); ` +
        'rows written with them in place',
    );
    return { deferIndexes: [], summariesAfter: false, deferKeys: [] };
  }
  const keys = constraints.filter((c) => c.kind === 'key').length;
  log(
    `PostgreSQL: ${indexes.length} plain indexes of ${plan.deferIndexes.join(', ')} deferred to the end of the load` +
      (constraints.length > 0
        ? `; loaded empty, ${keyTables.join(', ')} without their ${keys} keys and the ` +
          `${constraints.length - keys} foreign keys to them until after it (built and validated then)`
        : '') +
      (triggers.length > 0 ? "; the summaries' INSERT triggers dropped, the summaries rebuilt after it" : ''),
  );
  return {
    deferIndexes: indexes.length > 0 ? plan.deferIndexes : [],
    summariesAfter: triggers.length > 0,
    deferKeys: constraints.length > 0 ? keyTables : [],
  };
}

interface BuildProgress {
  phase: string;
  blocks_done: string;
  blocks_total: string;
  tuples_done: string;
  tuples_total: string;
}

/** How far one index build is, 0-1, from pg_stat_progress_create_index: the table scan, then the tree. */
function buildFraction(p: BuildProgress): number {
  const part = (done: string, total: string) => (Number(total) > 0 ? Number(done) / Number(total) : 0);
  if (p.phase.includes('scanning table')) return 0.6 * part(p.blocks_done, p.blocks_total);
  if (p.phase.includes('sorting')) return 0.6;
  if (p.phase.includes('loading tuples')) return 0.6 + 0.4 * part(p.tuples_done, p.tuples_total);
  return 0;
}

/**
 * Builds the deferred indexes and keys on every connection at once, the largest tables' first, then adds the
 * foreign keys (validating their rows), each removed from the pending table once done. Progress in table
 * pages: a job counts its table's pages, an index being built its share from pg_stat_progress_create_index.
 */
async function buildIndexes(clients: pg.Client[], monitor: pg.Client, pids: number[], progress: RunProgress) {
  const { rows } = await clients[0]!.query<{ name: string; kind: string; def: string }>(
    `SELECT name, kind, def FROM ${PENDING} WHERE kind IN ('index', 'key', 'foreign key')`,
  );
  // A dropped index is no longer in pg_indexes: its table is the one after ON (ALTER TABLE) in its definition.
  const jobs: Array<{ name: string; kind: string; def: string; table: string; pages: number }> = [];
  for (const r of rows) {
    const table = /^(?:ALTER TABLE|CREATE .*?\bON) (?:ONLY )?([\w."]+)/.exec(r.def)?.[1] ?? '';
    const size = await monitor.query<{ pages: string }>(
      'SELECT greatest(coalesce(pg_relation_size(to_regclass($1)) / 8192, 0), 1) AS pages',
      [table],
    );
    jobs.push({ ...r, table, pages: Number(size.rows[0]!.pages) });
  }
  jobs.sort((a, b) => b.pages - a.pages || a.name.localeCompare(b.name));
  const total = jobs.reduce((a, j) => a + j.pages, 0);
  const noun = (j: { kind: string }) => (j.kind === 'index' ? 'indexes' : `${j.kind}s`);
  let built = 0;
  let donePages = 0;
  const building = new Map<number, (typeof jobs)[number]>();
  progress.begin('indexes', {
    total,
    unit: 'pages',
    poll: async () => {
      const { rows: now } = await monitor.query<BuildProgress & { pid: number }>(
        `SELECT pid, phase, blocks_done, blocks_total, tuples_done, tuples_total
           FROM pg_stat_progress_create_index WHERE pid = ANY($1)`,
        [pids],
      );
      let partial = 0;
      for (const p of now) partial += buildFraction(p) * (building.get(p.pid)?.pages ?? 0);
      const names = [...building.values()].map((j) => j.name).join(', ');
      return {
        done: Math.min(total, donePages + Math.round(partial)),
        detail: `${built}/${jobs.length} built${names ? `, building ${names}` : ''}`,
      };
    },
  });
  for (const c of clients) await c.query("SET maintenance_work_mem = '512MB'");
  /** Runs a job unless what it makes is there (a stopped put-back, or a constraint added by hand). */
  const run = async (client: pg.Client, job: (typeof jobs)[number]) => {
    if (job.kind === 'index') {
      await client.query(job.def.replace(/^CREATE (UNIQUE )?INDEX /, 'CREATE $1INDEX IF NOT EXISTS '));
      return;
    }
    const name = job.name.slice(job.name.indexOf('.') + 1);
    const { rowCount } = await client.query(
      'SELECT 1 FROM pg_constraint WHERE conrelid = to_regclass($1) AND conname = $2',
      [job.table, name],
    );
    if (rowCount === 0) await client.query(job.def);
  };
  // Keys before the foreign keys that reference them.
  for (const stage of [
    jobs.filter((j) => j.kind !== 'foreign key'),
    jobs.filter((j) => j.kind === 'foreign key'),
  ]) {
    const queue = [...stage];
    await Promise.all(
      clients.map(async (client, i) => {
        for (let job = queue.shift(); job; job = queue.shift()) {
          building.set(pids[i]!, job);
          const started = performance.now();
          await run(client, job);
          await client.query(`DELETE FROM ${PENDING} WHERE name = $1`, [job.name]);
          building.delete(pids[i]!);
          built++;
          donePages += job.pages;
          progress.tick(
            donePages,
            `${built}/${jobs.length} built, ${job.name} in ${clock((performance.now() - started) / 1000)}`,
          );
        }
      }),
    );
  }
  const counts = ['indexes', 'keys', 'foreign keys']
    .map((what) => [what, jobs.filter((j) => noun(j) === what).length] as const)
    .filter(([what, n]) => n > 0 || what === 'indexes');
  progress.end(counts.map(([what, n]) => `${n} ${n === 1 ? what.replace(/(es|s)$/, '') : what}`).join(', '));
}

/** VACUUM (ANALYZE) of `tables` on every connection at once (the visibility map, so reports read indexes only). */
async function vacuumAnalyze(
  clients: pg.Client[],
  monitor: pg.Client,
  pids: number[],
  tables: readonly string[],
  progress: RunProgress,
) {
  const { rows } = await monitor.query<{ name: string; pages: string }>(
    `SELECT t AS name, greatest(coalesce(pg_relation_size(to_regclass(t)) / 8192, 0), 1) AS pages
       FROM unnest($1::text[]) t ORDER BY 2 DESC`,
    [tables],
  );
  const jobs = rows.map((r) => ({ name: r.name, pages: Number(r.pages) }));
  const total = jobs.reduce((a, j) => a + j.pages, 0);
  let donePages = 0;
  const running = new Map<number, (typeof jobs)[number]>();
  progress.begin('VACUUM ANALYZE', {
    total,
    unit: 'pages',
    poll: async () => {
      const { rows: now } = await monitor.query<{ pid: number; scanned: string; total: string }>(
        `SELECT pid, heap_blks_scanned AS scanned, heap_blks_total AS total
           FROM pg_stat_progress_vacuum WHERE pid = ANY($1)`,
        [pids],
      );
      let partial = 0;
      for (const p of now)
        partial +=
          ((0.9 * Number(p.scanned)) / Math.max(Number(p.total), 1)) * (running.get(p.pid)?.pages ?? 0);
      const names = [...running.values()].map((j) => j.name).join(', ');
      return {
        done: Math.min(total, donePages + Math.round(partial)),
        detail: names ? `on ${names}` : undefined,
      };
    },
  });
  const queue = [...jobs];
  await Promise.all(
    clients.map(async (client, i) => {
      for (let job = queue.shift(); job; job = queue.shift()) {
        running.set(pids[i]!, job);
        await client.query(`VACUUM (ANALYZE) ${job.name}`);
        running.delete(pids[i]!);
        donePages += job.pages;
        progress.tick(donePages, `${job.name} done`);
      }
    }),
  );
  progress.end(`${jobs.length} tables`);
}

/**
 * The summaries rebuilt from the tables with migration 0019's backfill and the INSERT triggers enabled again
 * (REPORT_SUMMARY_REBUILD): the first connection's transaction takes the lock and enables the triggers, then
 * every connection rebuilds summaries from a shared queue in a transaction of its own, the others committing
 * before the first; then their statistics.
 */
async function rebuildSummaries(clients: pg.Client[], progress: RunProgress) {
  const [owner, ...helpers] = clients as [pg.Client, ...pg.Client[]];
  const { rows: triggers } = await owner.query<{ def: string; after: string }>(
    `SELECT def, after FROM ${PENDING} WHERE kind = 'trigger' ORDER BY name`,
  );
  const left = await owner.query<{ n: string }>(
    `SELECT count(*) AS n FROM ${PENDING} WHERE kind <> 'trigger'`,
  );
  if (triggers.length === 0) {
    progress.begin('summaries');
    progress.end('kept by their triggers');
  } else {
    const parts = REPORT_SUMMARY_REBUILD.summaries;
    progress.begin('summaries', { total: parts.length });
    const queue = [...parts];
    let done = 0;
    const building = new Set<string>();
    const rebuild = async (client: pg.Client) => {
      for (const statement of REPORT_SUMMARY_REBUILD.settings) await client.query(statement);
      for (let part = queue.shift(); part; part = queue.shift()) {
        building.add(part.table);
        progress.tick(done, `rebuilding ${[...building].join(', ')}`);
        for (const statement of part.statements) await client.query(statement);
        building.delete(part.table);
        progress.tick(++done, building.size > 0 ? `rebuilding ${[...building].join(', ')}` : undefined);
      }
    };
    const open = new Set<pg.Client>();
    const begin = async (client: pg.Client) => {
      await client.query('BEGIN');
      open.add(client);
    };
    const commit = async (client: pg.Client) => {
      await client.query('COMMIT');
      open.delete(client);
    };
    try {
      await begin(owner);
      for (const statement of REPORT_SUMMARY_REBUILD.lock) await owner.query(statement);
      for (const t of triggers) {
        // OR REPLACE: the same definition again is harmless (never the case: dropped in the pending row's commit).
        await owner.query(t.def.replace(/^CREATE TRIGGER /, 'CREATE OR REPLACE TRIGGER '));
        await owner.query(t.after);
      }
      const outcomes = await Promise.allSettled([
        rebuild(owner),
        ...helpers.map(async (helper) => {
          await begin(helper);
          await rebuild(helper);
          await commit(helper);
        }),
      ]);
      for (const o of outcomes) if (o.status === 'rejected') throw o.reason;
      await owner.query(`DELETE FROM ${PENDING} WHERE kind = 'trigger'`);
      await commit(owner);
    } catch (err) {
      for (const client of open) await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
    await owner.query(`ANALYZE ${parts.map((p) => p.table).join(', ')}`);
    progress.end(`${parts.length} summaries rebuilt from the tables, their INSERT triggers on again`);
  }
  if (Number(left.rows[0]!.n) === 0) await owner.query(`DROP TABLE IF EXISTS ${PENDING}`);
}
