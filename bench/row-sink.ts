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
  /** Waits for every batch, then refreshes the planner's statistics. */
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
    async finish(tables) {
      await settle();
      // VACUUM sets the visibility map, so report queries can answer from their indexes alone.
      await clients[0]!.query(`VACUUM (ANALYZE) ${tables.join(', ')}`);
      for (const c of clients) await c.end();
    },
  };
}
