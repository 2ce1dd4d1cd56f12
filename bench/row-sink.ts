import { performance } from 'node:perf_hooks';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type BetterSqlite3 from 'better-sqlite3';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { RowValues } from '../packages/server/src/modules/reports/synthetic-sales';

/**
 * Where generate:sales puts its rows: the generator computes every row once and hands it to a sink, which only
 * stores it. A batch of rows is one transaction. SQLite runs one prepared INSERT per row; PostgreSQL buffers
 * the batch as COPY text and streams it while the generator builds the next batch.
 */
export interface RowSink {
  /** Adds one row; within a batch, tables are written in the order they were first added (parents first). */
  add(table: string, columns: readonly string[], values: RowValues): void;
  /** Ends the batch; on PostgreSQL it is stored in the background while the next one is built. */
  flush(): Promise<void>;
  /** Ends the batch and waits until every batch is stored (before rows that reference them). */
  settle(): Promise<void>;
  /**
   * Before a bulk load into `tables`: PostgreSQL (when the role may) drops their secondary indexes, to build
   * them once at `finish`, which is several times cheaper than maintaining them row by row. No-op on SQLite.
   */
  deferIndexes(tables: readonly string[]): Promise<void>;
  /** Waits for every batch, rebuilds deferred indexes, then refreshes the planner's statistics. */
  finish(tables: readonly string[]): Promise<void>;
}

export function sqliteSink(sqlite: BetterSqlite3.Database): RowSink {
  const statements = new Map<string, BetterSqlite3.Statement<unknown[]>>();
  let open = false;
  const commit = async () => {
    if (open) sqlite.exec('COMMIT');
    open = false;
  };
  return {
    add(table, columns, values) {
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
    },
    flush: commit,
    settle: commit,
    deferIndexes: async () => undefined,
    async finish() {
      await commit();
      sqlite.exec('ANALYZE');
    },
  };
}

/** A value as COPY's text format writes it: \N for NULL, backslash escapes for the separators. */
function copyText(v: string | number | null): string {
  if (v === null) return '\\N';
  if (typeof v === 'number') return String(v);
  return v.replace(/[\\\n\r\t]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\n' ? '\\n' : c === '\r' ? '\\r' : '\\t',
  );
}

interface Pending {
  columns: readonly string[];
  /** COPY text in pieces of about 64 KiB (one CopyData message each). */
  chunks: string[];
  current: string;
}

/**
 * COPY … FROM STDIN per table and batch, on `connections` connections (a batch per connection in flight, so the
 * server's cores share the index maintenance) with synchronous_commit off: a crash could lose the last
 * batches, never corrupt the database (generated history is not a durability test). When the role may
 * (a superuser, such as the local cluster's), foreign-key and ledger triggers are skipped for these
 * sessions (session_replication_role = replica): the generator's rows reference what it wrote before.
 */
export async function postgresCopySink(
  url: string,
  log: (line: string) => void,
  connections = 2,
): Promise<RowSink> {
  const clients: pg.Client[] = [];
  let replica = true;
  for (let i = 0; i < connections; i++) {
    const client = new pg.Client({ connectionString: url, application_name: 'generate-sales' });
    await client.connect();
    await client.query('SET synchronous_commit = off');
    replica &&= await client.query('SET session_replication_role = replica').then(
      () => true,
      () => false,
    );
    clients.push(client);
  }
  log(
    replica
      ? 'PostgreSQL: COPY, synchronous_commit off, triggers (foreign-key checks) skipped'
      : 'PostgreSQL: COPY, synchronous_commit off, foreign keys checked (not a superuser)',
  );
  if (!replica) for (const c of clients) await c.query('SET session_replication_role = DEFAULT');
  await rebuildDeferredIndexes(clients[0]!, log);
  let batch = new Map<string, Pending>();
  /** The batch each connection is storing, in the order they started. */
  const inFlight: Array<Promise<void>> = [];
  let next = 0;

  async function store(client: pg.Client, tables: Map<string, Pending>): Promise<void> {
    await client.query('BEGIN');
    try {
      for (const [table, { columns, chunks, current }] of tables) {
        if (current) chunks.push(current);
        const copy = client.query(copyFrom(`COPY ${table} (${columns.join(', ')}) FROM STDIN`));
        await pipeline(Readable.from(chunks), copy);
      }
      await client.query('COMMIT');
    } catch (err) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw err;
    }
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

  return {
    add(table, columns, values) {
      let pending = batch.get(table);
      if (!pending) {
        pending = { columns, chunks: [], current: '' };
        batch.set(table, pending);
      }
      pending.current += `${values.map(copyText).join('\t')}\n`;
      if (pending.current.length > 65_536) {
        pending.chunks.push(pending.current);
        pending.current = '';
      }
    },
    flush,
    settle,
    async deferIndexes(tables) {
      if (replica) await dropSecondaryIndexes(clients[0]!, tables, log);
    },
    async finish(tables) {
      await settle();
      await rebuildDeferredIndexes(clients[0]!, log);
      // VACUUM sets the visibility map, so report queries can answer from their indexes alone.
      await clients[0]!.query(`VACUUM (ANALYZE) ${tables.join(', ')}`);
      for (const c of clients) await c.end();
    },
  };
}

/**
 * Drops the plain (not unique, not key) indexes of `tables`, remembering their definitions in a table of their
 * own first, so a run stopped halfway rebuilds them at its next start (rebuildDeferredIndexes).
 */
async function dropSecondaryIndexes(
  client: pg.Client,
  tables: readonly string[],
  log: (line: string) => void,
) {
  await client.query(
    'CREATE TABLE IF NOT EXISTS generate_sales_deferred_indexes (name text PRIMARY KEY, def text NOT NULL)',
  );
  const { rows } = await client.query<{ name: string; def: string }>(
    `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
       JOIN pg_class c ON c.relname = i.indexname AND c.relkind = 'i'
       JOIN pg_index x ON x.indexrelid = c.oid
      WHERE i.schemaname = current_schema() AND i.tablename = ANY($1) AND NOT x.indisunique AND NOT x.indisprimary`,
    [tables],
  );
  await client.query('BEGIN');
  for (const r of rows) {
    await client.query(
      'INSERT INTO generate_sales_deferred_indexes (name, def) VALUES ($1, $2) ON CONFLICT DO NOTHING',
      [r.name, r.def],
    );
    await client.query(`DROP INDEX ${pg.escapeIdentifier(r.name)}`);
  }
  await client.query('COMMIT');
  log(`PostgreSQL: ${rows.length} secondary indexes of ${tables.join(', ')} deferred to the end of the load`);
}

/** Builds the indexes a load deferred (this run's, or a stopped run's), with a line per index. */
async function rebuildDeferredIndexes(client: pg.Client, log: (line: string) => void) {
  const exists = await client.query("SELECT to_regclass('generate_sales_deferred_indexes') AS t");
  if (!exists.rows[0]?.t) return;
  const { rows } = await client.query<{ name: string; def: string }>(
    'SELECT name, def FROM generate_sales_deferred_indexes ORDER BY name',
  );
  await client.query("SET maintenance_work_mem = '512MB'");
  for (const r of rows) {
    const started = performance.now();
    await client.query(r.def.replace(/^CREATE INDEX /, 'CREATE INDEX IF NOT EXISTS '));
    await client.query('DELETE FROM generate_sales_deferred_indexes WHERE name = $1', [r.name]);
    log(`index ${r.name} built (${Math.round(performance.now() - started)} ms)`);
  }
  await client.query('DROP TABLE generate_sales_deferred_indexes');
}
