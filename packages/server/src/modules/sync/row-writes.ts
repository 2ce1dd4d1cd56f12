import type { Insertable, Updateable } from 'kysely';
import type { Db } from '../../db/connection';
import { tableColumnNames } from '../../db/dialect';
import { runRaw } from '../../db/prepared';
import type { Database } from '../../db/schema';

/**
 * Rows written by table name for replication: a pushed or pulled payload's columns that the table has, with
 * INSERT texts built once per table and column set. Tables, keys and columns come from the registry and the
 * table's own column list, never from a payload, and are quoted as identifiers.
 */

/** A table of the schema, by name. */
export type TableName = keyof Database & string;
/** A column of table T, by name. */
export type ColumnOf<T extends TableName> = keyof Database[T] & string;
type Payload = Record<string, unknown>;

/** Columns of a table, cached: the generic paths only ever write columns the table has. */
const columnCache = new Map<string, string[]>();
export async function tableColumns(db: Db, table: string): Promise<string[]> {
  const hit = columnCache.get(table);
  if (hit) return hit;
  const columns = await tableColumnNames(db, table);
  if (columns.length === 0) throw new Error(`sync: table ${table} does not exist`);
  columnCache.set(table, columns);
  return columns;
}

/** A payload value as SQLite stores it: booleans as 0/1, objects as JSON text, absent as NULL. */
export const toSqlValue = (v: unknown): unknown => {
  if (v === undefined) return null;
  if (typeof v === 'boolean') return v ? 1 : 0;
  if (v !== null && typeof v === 'object') return JSON.stringify(v);
  return v;
};

/**
 * The INSERT text for a table and a set of payload columns, built once: tables, keys and columns come from
 * the registry and pragma_table_info, never from a payload, and are quoted as identifiers.
 */
const insertTexts = new Map<string, string>();
const quoteIdent = (c: string) => `"${c.replaceAll('"', '""')}"`;
function insertText(
  table: string,
  key: string,
  columns: string[],
  onConflict: 'update' | 'nothing',
  rows = 1,
): string {
  const cacheKey = `${onConflict} ${table} ${key} ${columns.join(',')}`;
  let text = insertTexts.get(cacheKey);
  if (!text) {
    const q = quoteIdent;
    const updates = columns.filter((c) => c !== key);
    const action =
      onConflict === 'nothing' || updates.length === 0
        ? 'NOTHING'
        : `UPDATE SET ${updates.map((c) => `${q(c)} = excluded.${q(c)}`).join(', ')}`;
    text = `INSERT INTO ${q(table)} (${columns.map(q).join(', ')}) VALUES (${columns.map(() => '?').join(', ')}) ON CONFLICT (${q(key)}) DO ${action}`;
    insertTexts.set(cacheKey, text);
  }
  if (rows === 1) return text;
  // More rows: the one-row text's tuple repeated (not cached: run lengths vary).
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  return text.replace(
    ` VALUES ${tuple} `,
    ` VALUES ${Array.from({ length: rows }, () => tuple).join(', ')} `,
  );
}

export async function writeRow(
  trx: Db,
  table: string,
  key: string,
  payload: Payload,
  onConflict: 'update' | 'nothing',
): Promise<number> {
  const columns = (await tableColumns(trx, table)).filter((c) => c in payload);
  if (!columns.includes(key)) throw new Error(`sync: payload for ${table} lacks its key ${key}`);
  const result = await runRaw(
    trx,
    insertText(table, key, columns, onConflict),
    columns.map((c) => toSqlValue(payload[c])),
  );
  return Number(result.numAffectedRows ?? 0);
}

/**
 * INSERT ... ON CONFLICT(key) DO UPDATE of the row's known columns: any of table T's columns (Kysely's
 * Updateable: a column the row lacks is left as it is, or its default on a new row). Fields that are no column
 * of the table (a payload's child rows) are not written.
 */
export async function upsertRow<T extends TableName>(
  trx: Db,
  table: T,
  key: ColumnOf<T>,
  row: Updateable<Database[T]>,
): Promise<void> {
  await writeRow(trx, table, key, row, 'update');
}

/**
 * INSERT ... ON CONFLICT(key) DO NOTHING of a row of table T (Kysely's Insertable: the columns an insert
 * needs); true when the row was new. Fields that are no column of the table are not written.
 */
export async function insertRowIfAbsent<T extends TableName>(
  trx: Db,
  table: T,
  key: ColumnOf<T>,
  row: Insertable<Database[T]>,
): Promise<boolean> {
  return (await writeRow(trx, table, key, row, 'nothing')) > 0;
}

/** Bound parameters per statement, under SQLite's and PostgreSQL's limits (32,766 and 65,535). */
const MAX_PARAMETERS = 30_000;

/**
 * Several rows of one table in one INSERT … ON CONFLICT(key) DO NOTHING per column set (and per
 * MAX_PARAMETERS): on PostgreSQL one round trip instead of one per row. The keys of the rows it inserted.
 */
export async function insertRowsIfAbsent<T extends TableName>(
  trx: Db,
  table: T,
  key: ColumnOf<T>,
  payloads: readonly Insertable<Database[T]>[],
): Promise<string[]> {
  const known = await tableColumns(trx, table);
  const byColumns = new Map<string, { columns: string[]; rows: Payload[] }>();
  for (const p of payloads) {
    const columns = known.filter((c) => c in p);
    if (!columns.includes(key)) throw new Error(`sync: payload for ${table} lacks its key ${key}`);
    const group = byColumns.get(columns.join()) ?? { columns, rows: [] };
    group.rows.push(p);
    byColumns.set(columns.join(), group);
  }
  const inserted: string[] = [];
  for (const { columns, rows } of byColumns.values()) {
    const perStatement = Math.max(1, Math.floor(MAX_PARAMETERS / columns.length));
    for (let i = 0; i < rows.length; i += perStatement) {
      const chunk = rows.slice(i, i + perStatement);
      const text = `${insertText(table, key, columns, 'nothing', chunk.length)} RETURNING ${quoteIdent(key)} AS k`;
      const values = chunk.flatMap((row) => columns.map((c) => toSqlValue(row[c])));
      const { rows: keys } = await runRaw<{ k: string }>(trx, text, values);
      inserted.push(...keys.map((r) => String(r.k)));
    }
  }
  return inserted;
}
