import type BetterSqlite3 from 'better-sqlite3';
import { type Compilable, CompiledQuery, type Insertable, type QueryResult, type RawBuilder } from 'kysely';
import type { Db, Sqlite } from './handles';
import { type Dialect, dialectOf, isPostgres } from './dialect';
import type { Database } from './schema';

/** How a cached statement answers: row objects (Kysely's driver, most callers), the first column, or arrays. */
export type StatementMode = 'rows' | 'pluck' | 'raw';

const STATEMENT_CACHE_SIZE = 1000;
const statementCaches = new WeakMap<Sqlite, Map<string, BetterSqlite3.Statement<unknown[]>>>();

/**
 * THE prepared-statement cache of a SQLite connection: Kysely's driver (db/connection.ts), rawQuery, and the
 * hand-written hot paths (a medicines page, search-as-you-type, the authenticated user's read) all take their
 * statements here, by SQL text, least recently used out. Preparing was a quarter of the CPU of a simple
 * authenticated read. A statement's answer mode (pluck, raw) is part of its key: better-sqlite3 keeps the mode
 * on the statement, so one set for a hot path never changes what another caller of the same text reads.
 */
export function sqliteStatement(
  sqlite: Sqlite,
  text: string,
  mode: StatementMode = 'rows',
): BetterSqlite3.Statement<unknown[]> {
  let cache = statementCaches.get(sqlite);
  if (!cache) {
    cache = new Map();
    statementCaches.set(sqlite, cache);
  }
  const key = mode === 'rows' ? text : `${mode}\u0000${text}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const statement = sqlite.prepare<unknown[]>(text);
  if (mode === 'pluck') statement.pluck();
  else if (mode === 'raw') statement.raw();
  cache.set(key, statement);
  if (cache.size > STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  return statement;
}

/** `?` placeholders as PostgreSQL's $1, $2, … (outside quoted strings and identifiers). */
export function numberedPlaceholders(text: string): string {
  let n = 0;
  return text.replace(/'(?:[^']|'')*'|"(?:[^"]|"")*"|\?/g, (token) => (token === '?' ? `$${++n}` : token));
}

/** Stands for a named value while the query is compiled; replaced by the caller's value on each execution. */
class Param {
  constructor(readonly name: string) {}
}

/**
 * The stand-in for a query's parameters while it is compiled: every key read gives that key's Param. Typed as
 * the parameters themselves (an assertion, on purpose) so the builder type-checks the query as written; at run
 * time the values are Params, which `bind` replaces.
 */
function placeholders<P extends object>(): P {
  return new Proxy({} as P, { get: (_target, name) => new Param(String(name)) });
}

type Slot = { param: string } | { value: unknown };

/**
 * A hot statement written with Kysely's typed builder but compiled once: building and compiling a query cost
 * 20 to 50 µs each time, more than SQLite takes to run most of them, and the write paths run thousands per
 * second (every change_log, audit and stock movement row). The builder receives placeholders for the named
 * parameters (use each only as a value: in where, set, values); each execution swaps in the caller's values
 * and runs the compiled SQL through the given executor (`trx` inside a transaction), so transactions and the
 * connection's statement cache work as for any Kysely query. Not for queries whose shape varies (optional
 * filters, IN lists): those stay ordinary builders.
 */
export function prepared<P extends object, R = unknown>(build: (db: Db, p: P) => Compilable<R>) {
  // Compiled once per dialect: a process may hold a till's SQLite and a PostgreSQL central (tests, tools).
  const byDialect = new Map<Dialect, { query: CompiledQuery<R>; slots: Slot[] }>();

  function bind(db: Db, params: P): CompiledQuery<R> {
    const dialect = dialectOf(db);
    let compiled = byDialect.get(dialect);
    if (!compiled) {
      const query = build(db, placeholders<P>()).compile();
      const slots = query.parameters.map(
        (v): Slot => (v instanceof Param ? { param: v.name } : { value: v }),
      );
      compiled = { query, slots };
      byDialect.set(dialect, compiled);
    }
    const parameters = compiled.slots.map((slot) => {
      if (!('param' in slot)) return slot.value;
      const value = (params as Record<string, unknown>)[slot.param];
      if (value === undefined) throw new Error(`prepared query: parameter ${slot.param} is missing`);
      return typeof value === 'boolean' ? Number(value) : value;
    });
    return { ...compiled.query, parameters };
  }

  return {
    /** Every row (a SELECT, or a write with RETURNING). */
    async all(db: Db, params: P): Promise<R[]> {
      return (await db.executeQuery(bind(db, params))).rows;
    },
    async first(db: Db, params: P): Promise<R | undefined> {
      return (await db.executeQuery(bind(db, params))).rows[0];
    },
    /** A write; resolves with the number of rows it changed. */
    async run(db: Db, params: P): Promise<number> {
      return Number((await db.executeQuery(bind(db, params))).numAffectedRows ?? 0);
    },
  };
}

/** `prepared` for a statement written with Kysely's `sql` template (the placeholders `p` go in as values). */
export function preparedSql<P extends object, R = unknown>(build: (db: Db, p: P) => RawBuilder<R>) {
  return prepared<P, R>((db, p) => ({ compile: () => build(db, p).compile(db) }));
}

type Prepared<P extends object, R> = ReturnType<typeof prepared<P, R>>;

/** Shapes kept per query family; a family whose key took in a value by mistake cannot grow without bound. */
const SHAPES_LIMIT = 64;

/**
 * A query whose shape varies (optional filters, page size) compiled once per shape: list endpoints build
 * their query from whichever filters the caller gave, and building plus compiling it was a fifth of a list
 * request's CPU. `shapeOf` names the shape from the parameters (which filters are present, the page size);
 * `build` may read `given` only to decide the shape (which `where`s, the LIMIT) and must pass every value
 * through the placeholders `p`, exactly as for `prepared`.
 */
export function preparedShapes<P extends object, R = unknown>(
  shapeOf: (given: P) => string,
  build: (db: Db, p: P, given: P) => Compilable<R>,
) {
  const shapes = new Map<string, Prepared<P, R>>();
  function shape(given: P): Prepared<P, R> {
    const key = shapeOf(given);
    let query = shapes.get(key);
    if (!query) {
      if (shapes.size >= SHAPES_LIMIT) shapes.clear();
      query = prepared<P, R>((db, p) => build(db, p, given));
      shapes.set(key, query);
    }
    return query;
  }
  return {
    all: (db: Db, params: P): Promise<R[]> => shape(params).all(db, params),
    first: (db: Db, params: P): Promise<R | undefined> => shape(params).first(db, params),
  };
}

/**
 * Rows per multi-row INSERT: 64 at a time, then 16, then the rest in one (at most 18 shapes per set of columns).
 */
const insertChunk = (rows: number) => (rows >= 64 ? 64 : Math.min(rows, 16));

/**
 * An INSERT of whole rows into `table`, compiled once per set of columns and number of rows: the columns are
 * the keys the row gives (undefined ones left out, so SQLite's defaults apply), which the row types fix per call
 * site. Consecutive rows of the same columns go in multi-row statements (insertChunk: a 5-line sale's lines in
 * one, a 200-line sale's in five, not 200; each statement cost its dispatch through Kysely and SQLite's
 * statement set-up, more than inserting a row), and only those few shapes are ever compiled: a multi-row
 * INSERT compiled afresh for each count cost more than SQLite took to run it. Rows go in in the order given.
 */
export function preparedInsert<T extends keyof Database & string>(table: T) {
  type Row = Insertable<Database[T]>;
  /** Per dialect, columns and count: the compiled statement and, per parameter, its row and column. */
  const shapes = new Map<string, { query: CompiledQuery; slots: Array<{ row: number; column: string }> }>();
  function shape(db: Db, columns: readonly string[], count: number) {
    const key = `${dialectOf(db)}:${count}:${columns.join(',')}`;
    let compiled = shapes.get(key);
    if (!compiled) {
      if (shapes.size >= SHAPES_LIMIT) shapes.clear();
      const query = db
        .insertInto(table)
        .values(
          Array.from(
            { length: count },
            (_, row) => Object.fromEntries(columns.map((c) => [c, new Param(`${row}\u0000${c}`)])) as never,
          ),
        )
        .compile();
      const slots = query.parameters.map((v) => {
        if (!(v instanceof Param)) throw new Error(`preparedInsert(${table}): a value that is not a row's`);
        const [row, column] = v.name.split('\u0000');
        return { row: Number(row), column: column! };
      });
      compiled = { query, slots };
      shapes.set(key, compiled);
    }
    return compiled;
  }
  return {
    /** Inserts the rows in order; resolves with how many went in. */
    async run(db: Db, rows: Row | readonly Row[]): Promise<number> {
      const list = (Array.isArray(rows) ? rows : [rows]) as Record<string, unknown>[];
      const keys = list.map((row) => Object.keys(row).filter((c) => row[c] !== undefined));
      let inserted = 0;
      let at = 0;
      while (at < list.length) {
        const columns = keys[at]!;
        const key = columns.join(',');
        // The run of rows from `at` with the same columns.
        let end = at + 1;
        while (end < list.length && keys[end]!.join(',') === key) end++;
        while (at < end) {
          const count = insertChunk(end - at);
          const { query, slots } = shape(db, columns, count);
          const parameters = slots.map((s) => {
            const value = list[at + s.row]![s.column];
            return typeof value === 'boolean' ? Number(value) : value;
          });
          const result = await db.executeQuery({ ...query, parameters });
          inserted += Number(result.numAffectedRows ?? 0);
          at += count;
        }
      }
      return inserted;
    },
  };
}

/** Runs SQL text built once by the caller (generic paths whose shape depends on a table's columns). */
export function runRaw<R = unknown>(db: Db, sqlText: string, parameters: unknown[]): Promise<QueryResult<R>> {
  const text = isPostgres(db) ? numberedPlaceholders(sqlText) : sqlText;
  return db.executeQuery(CompiledQuery.raw(text, parameters) as CompiledQuery<R>);
}
