import { type Insertable, sql, type Updateable } from 'kysely';
import { tableColumnNames } from '../../db/dialect';
import { runRaw } from '../../db/prepared';
import type { AppContext } from '../../app-context';
import { recordChange } from '../../db/changes';
import type { Db } from '../../db/connection';
import type { AuthUser } from '../../http/auth';
import type { SyncDevicesTable } from '../../db/tables/sync';
import type { Database } from '../../db/schema';
import type { Role } from '@pharmacy/contracts';
import type { z } from 'zod';
import type { Method, RouteDoc } from '../../http/route';

/** Who is the source of truth for an entity (see docs/CONVENTIONS.md, "Sync"). */
export type Owner = 'central' | 'till';
/** Which tills receive an entity: every till (organisation) or the tills of the row's branch. */
export type PullScope = 'organisation' | 'branch';

export type Payload = Record<string, unknown>;

/** A table of the schema, by name. */
export type TableName = keyof Database & string;
/** A column of table T, by name. */
export type ColumnOf<T extends TableName> = keyof Database[T] & string;

/**
 * A change as central receives it from a till, validated. P: the payload's type, as the entity's registration
 * declares it (EntityRegistration<P>); untyped (Payload) where nothing has been trusted yet (the gate).
 */
export interface PushedChange<P extends object = Payload> {
  clientMutationId: string;
  entity: string;
  entityId: string;
  op: 'upsert' | 'delete';
  payload: P;
  seq: number | null;
  baseRevision: number | null;
}

/** A change as a till receives it from central. */
export interface PulledChange<P extends object = Payload> {
  revision: number;
  entity: string;
  entityId: string;
  op: 'upsert' | 'delete';
  payload: P;
  branchId: string | null;
}

export type SyncDevice = Pick<SyncDevicesTable, 'id' | 'branch_id' | 'name' | 'status'>;

/**
 * Who makes a change (gate.ts): the device it is applied for, and the person when a person's token carries it:
 * the signed-in user of a push with a bearer token, or the manager resolving a conflict.
 */
export interface Pusher {
  device: SyncDevice;
  user: AuthUser | null;
  /** 'push' (default): a till's change; 'resolve': a manager's choice on a conflict row. */
  via?: 'push' | 'resolve';
  /** resolve: the version the device pushed; its people were vouched for by the device, not the resolver. */
  vouched?: Payload | null;
  /** push: the changes of the same push (a ledger row or a redemption travels before its sale). */
  batch?: readonly unknown[];
}

/** A REST route that makes an entity's rows (method and path as the route table lists them). */
export interface RestRoute {
  method: Method;
  path: string;
  /**
   * A route of an entity head office writes (writtenAtCentral) that a connected till refuses instead of
   * forwarding: its effect needs something only the till holds (an image uploaded to the till's own storage).
   */
  atConnectedTill?: 'refused';
}

/**
 * A row another table holds that a pushed row names: it must be of the pushing device's branch (gate.ts). `in`:
 * an array field of the payload whose items carry `field` (a sale's lines, a transfer's movements). The branch
 * is `table`'s `branchColumn`, or `branchSql` (one `?`, answers column `b`) for a child table without one.
 */
export interface Reference {
  field: string;
  in?: string;
  table: string;
  branchColumn?: string;
  branchSql?: string;
}

/**
 * Checks that the people a pushed change names (its requester, decider, creator, receiver) may make that change
 * through the entity's REST route, with the same role and branch rules; throws an AppError when not.
 */
export type PushAuthoriser = (trx: Db, change: PushedChange, pusher: Pusher) => Promise<void>;

/**
 * Whether central takes a till's change to an entity. Deny by default: every registration decides.
 * - `till-owned`: a document a till creates (a sale, a session, a stock movement): accepted from a device of
 *   the row's branch, never deleted once pushed.
 * - `central-only`: head office's data (catalogue, prices, coupons, suppliers, supplier finance, users,
 *   settings…): refused with CENTRAL_ONLY, whoever pushes it.
 * - an authoriser: a record a till may change through REST (a purchase order received at the branch, an
 *   approval decided by its manager): accepted from a device of the row's branch once the authoriser agrees.
 */
export type PushPolicy = 'till-owned' | 'central-only' | PushAuthoriser;

/** What an accepted push answers; invoice_number and icv for fiscal documents (sales, returns). */
export interface ApplyResult {
  id: string;
  invoice_number?: string;
  icv?: number;
}

export interface EntityDefinition {
  entity: string;
  /** The entity in words, plural and capitalised, for a person ("Exchange rates"); default from the name. */
  label: string;
  owner: Owner;
  scope: PullScope;
  /** The local table holding the entity: snapshot source and target. */
  table: string;
  /** Primary key column; default 'id'. */
  key: string;
  /** Column naming the branch (scope 'branch'); default 'branch_id'. */
  branchColumn: string;
  /** Parents first: the snapshot swap inserts in ascending order and deletes in descending order. */
  order: number;
  /**
   * Snapshot scope of a branch-scoped child table without a branch column (sale_lines, return_lines…): an SQL
   * condition with one `?` bound to the device's branch, e.g. `sale_id IN (SELECT id FROM sales WHERE branch_id = ?)`.
   */
  snapshotWhere?: string;
  /**
   * Central: apply a change pushed by a till, inside the caller's savepoint, through the module's own write
   * path (which calls recordChange). Throw an AppError for a permanent refusal (its code is reported).
   * Central-owned entities get conflict detection before this is called.
   */
  applyPush(trx: Db, change: PushedChange, device: SyncDevice, app: AppContext): Promise<ApplyResult>;
  /** Till: apply a change pulled from central (upsert or delete into the local table). */
  applyPulled(trx: Db, change: PulledChange, app: AppContext): Promise<void>;
  /** Snapshot: the change payload of a table row (default: the row itself). */
  fromRow(row: Payload): Payload;
  /** Snapshot load: the table row of a change payload (default: the payload's columns). */
  toRow(payload: Payload): Payload;
  /** After pulled changes or a snapshot touched the entity: drop caches (e.g. invalidateSettings). */
  afterApply?(app: AppContext): void;
  /** Whether and when central takes a till's change to this entity (required: see PushPolicy). */
  push: PushPolicy;
  /**
   * Central, PostgreSQL: applies a run of this entity's pushed upserts at once, in a few multi-row statements,
   * with the effect and answers applyPush would give them one by one (push-setwise.ts). Only for insert-once
   * entities: applying one only inserts rows absent by id and adds quantities in place, no read decides
   * anything, so the unique keys alone keep each applied once and the run may share a READ COMMITTED
   * transaction with other tills' runs. Sales and stock movements, the bulk of an offline day. Throwing sends
   * the run back to the one-by-one path, which finds the failing change.
   */
  applyPushMany?(trx: Db, changes: PushedChange[], device: SyncDevice): Promise<ApplyResult[]>;
  /**
   * A till never sends this entity's local changes (they are skipped in its outbox): a user row carries a
   * password hash, which never travels from a till to central.
   */
  keptAtTill: boolean;
  /**
   * The REST routes through which a person makes this entity's rows. For an entity head office writes
   * (writtenAtCentral), the routes a connected till forwards to head office (sync/central-writes.ts).
   */
  rest: readonly RestRoute[];
  /** The roles those routes allow, read from the route table at start-up (bindRestAccess); [] for none. */
  restAccess: readonly Role[] | 'any';
  /** The row's rules as the REST body has them (contracts' sync-payloads.ts), checked on every pushed upsert. */
  payloadSchema?: z.ZodType;
  /** Branch-scoped rows the payload names, which must be of the pushing device's branch (gate.ts). */
  references: readonly Reference[];
  /** Array fields of the payload holding child rows, and the column naming their parent (must be the row). */
  children: Readonly<Record<string, string>>;
}

/**
 * What a module declares of an entity (its `sync.ts`), typed by P, the shape of the entity's change payload:
 * the row its write path records (usually its table's row, with child rows in array fields, e.g. a sale with
 * its lines). `write`, `applyPush`, `applyPulled` and `applyPushMany` get payloads of that type. Declare one
 * with `defineEntity<P>(…)`, which erases P for the registry; an untyped registration (P = Payload) needs
 * neither.
 *
 * Why a payload may be taken as a P (defineEntity, the one place that does so): central applies a pushed
 * change only after the gate (gate.ts) has checked it against `payloadSchema` (contracts' sync-payloads.ts: the
 * fields' rules, P's named fields checked to agree with it at compile time) and the row then meets the table's
 * own constraints; a till applies a pulled change that central's own write path recorded as a P.
 */
export interface EntityRegistration<P extends object = Payload>
  extends Pick<EntityDefinition, 'entity' | 'owner' | 'scope' | 'table' | 'push'>,
    Partial<
      Pick<
        EntityDefinition,
        | 'label'
        | 'key'
        | 'branchColumn'
        | 'order'
        | 'snapshotWhere'
        | 'fromRow'
        | 'toRow'
        | 'afterApply'
        | 'keptAtTill'
        | 'rest'
        | 'references'
        | 'children'
      >
    > {
  /**
   * See EntityDefinition.payloadSchema. Its output must agree with P: each field it names has a type P's same
   * field takes (at any depth), so the contract's rules and the row's type cannot drift apart unnoticed.
   */
  payloadSchema?: z.ZodType<{ [K in keyof P]?: Agreeing<P[K]> }>;
  /** See EntityDefinition.applyPush: the change's payload typed as P. */
  applyPush?: (trx: Db, change: PushedChange<P>, device: SyncDevice, app: AppContext) => Promise<ApplyResult>;
  /** See EntityDefinition.applyPulled. */
  applyPulled?: (trx: Db, change: PulledChange<P>, app: AppContext) => Promise<void>;
  /** See EntityDefinition.applyPushMany. */
  applyPushMany?: (trx: Db, changes: PushedChange<P>[], device: SyncDevice) => Promise<ApplyResult[]>;
  /**
   * The module's write function for one change payload (must call recordChange); used by the default
   * applyPush and applyPulled. Default: a generic upsert of toRow(payload) plus recordChange.
   */
  write?: (trx: Db, payload: P, app: AppContext) => Promise<void>;
  /** Delete one row (op 'delete'); default: DELETE by key plus recordChange (the tombstone). */
  remove?: (trx: Db, id: string, app: AppContext) => Promise<void>;
}

/**
 * What a payload schema's output must be assignable to for payload type P: any of P's fields, each of its type
 * (array items and nested objects likewise); fields P lacks and an index signature of unknowns are free.
 */
export type Agreeing<P> = P extends readonly (infer E)[]
  ? Agreeing<E>[]
  : P extends object
    ? { [K in keyof P]?: Agreeing<P[K]> }
    : P;

/**
 * A payload taken as the type its registration declares: the one narrowing of the sync paths (see
 * EntityRegistration for why it holds). No check at run time, so nothing a till or central sends is refused
 * here that was taken before.
 */
const declared = <P extends object>(payload: Payload): P => payload as P;

/**
 * An entity registration typed by its payload P (see EntityRegistration), made into the untyped registration
 * the registry and the areas' lists hold.
 */
export function defineEntity<P extends object>(reg: EntityRegistration<P>): EntityRegistration {
  const { write, applyPush, applyPulled, applyPushMany, ...rest } = reg;
  return {
    ...rest,
    write: write && ((trx, payload, app) => write(trx, declared<P>(payload), app)),
    applyPush:
      applyPush &&
      ((trx, change, device, app) =>
        applyPush(trx, { ...change, payload: declared<P>(change.payload) }, device, app)),
    applyPulled:
      applyPulled &&
      ((trx, change, app) => applyPulled(trx, { ...change, payload: declared<P>(change.payload) }, app)),
    applyPushMany:
      applyPushMany &&
      ((trx, changes, device) =>
        applyPushMany(
          trx,
          changes.map((c) => ({ ...c, payload: declared<P>(c.payload) })),
          device,
        )),
  };
}

const registry = new Map<string, EntityDefinition>();

const IDENT = /^[a-z_][a-z0-9_]*$/;

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

async function writeRow(
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

const defaultLabel = (entity: string) => {
  const words = `${entity.replaceAll('_', ' ')}s`;
  return words.charAt(0).toUpperCase() + words.slice(1);
};

/**
 * Registers an entity for replication; call once at module load (a module's `sync.ts`, imported by
 * modules/sync/entities.ts). Unknown entities are neither pushed nor pulled.
 */
export function registerEntity(reg: EntityRegistration): EntityDefinition {
  if (!IDENT.test(reg.entity) || !IDENT.test(reg.table)) throw new Error(`sync: bad entity or table name`);
  const key = reg.key ?? 'id';
  const branchColumn = reg.branchColumn ?? 'branch_id';
  const branchOf = (row: Payload): string | null =>
    reg.scope === 'branch' ? String(row[branchColumn] ?? '') || null : null;
  const toRow = reg.toRow ?? ((p: Payload) => p);
  const write =
    reg.write ??
    (async (trx: Db, payload: Payload) => {
      const row = toRow(payload);
      await writeRow(trx, reg.table, key, row, 'update');
      await recordChange(trx, {
        entity: reg.entity,
        entityId: String(row[key]),
        op: 'upsert',
        payload,
        branchId: branchOf(row),
      });
    });
  const remove =
    reg.remove ??
    (async (trx: Db, id: string) => {
      const existing =
        await sql<Payload>`SELECT * FROM ${sql.table(reg.table)} WHERE ${sql.ref(key)} = ${id}`.execute(trx);
      await sql`DELETE FROM ${sql.table(reg.table)} WHERE ${sql.ref(key)} = ${id}`.execute(trx);
      const row = existing.rows[0];
      await recordChange(trx, {
        entity: reg.entity,
        entityId: id,
        op: 'delete',
        payload: { [key]: id },
        branchId: row ? branchOf(row) : null,
      });
    });
  const def: EntityDefinition = {
    entity: reg.entity,
    label: reg.label ?? defaultLabel(reg.entity),
    owner: reg.owner,
    scope: reg.scope,
    table: reg.table,
    key,
    branchColumn,
    order: reg.order ?? 100,
    snapshotWhere: reg.snapshotWhere,
    fromRow: reg.fromRow ?? ((r) => r),
    toRow,
    afterApply: reg.afterApply,
    push: reg.push,
    applyPushMany: reg.applyPushMany,
    keptAtTill: reg.keptAtTill ?? false,
    rest: reg.rest ?? [],
    restAccess: [],
    payloadSchema: reg.payloadSchema,
    references: reg.references ?? [],
    children: reg.children ?? {},
    applyPush:
      reg.applyPush ??
      (async (trx, change, _device, app) => {
        if (change.op === 'delete') await remove(trx, change.entityId, app);
        else await write(trx, change.payload, app);
        return { id: change.entityId };
      }),
    applyPulled:
      reg.applyPulled ??
      (async (trx, change, app) => {
        if (change.op === 'delete') await remove(trx, change.entityId, app);
        else await write(trx, change.payload, app);
      }),
  };
  registry.set(def.entity, def);
  return def;
}

/**
 * Reads from the route table which roles may make each entity through REST (its `rest` routes), so a person's
 * token pushes only what that person could do through REST. A `rest` route the table does not hold stops the
 * start-up: the declaration went stale.
 */
export function bindRestAccess(docs: readonly RouteDoc[]): void {
  for (const def of registry.values()) {
    const roles = new Set<Role>();
    let any = false;
    for (const route of def.rest) {
      const doc = docs.find((d) => d.method === route.method && d.path === route.path);
      if (!doc || doc.access === 'public')
        throw new Error(
          `sync: ${def.entity} names ${route.method} ${route.path}, which is no signed-in route`,
        );
      if (doc.access === 'any') any = true;
      else for (const r of doc.access) roles.add(r);
    }
    def.restAccess = any ? 'any' : [...roles];
  }
}

/**
 * Whether head office alone writes the entity (its owner, refusing every till's push): on a connected till its
 * REST routes are made at head office (sync/central-writes.ts); a single shop's till writes it itself.
 */
export const writtenAtCentral = (def: EntityDefinition): boolean =>
  def.owner === 'central' && def.push === 'central-only';

/** The entities a route writes that head office alone writes, by `method path` (the route table's spelling). */
export function centralWriteRoutes(): Map<string, { route: RestRoute; entities: EntityDefinition[] }> {
  const routes = new Map<string, { route: RestRoute; entities: EntityDefinition[] }>();
  for (const def of registeredEntities().filter(writtenAtCentral))
    for (const route of def.rest) {
      const key = `${route.method} ${route.path}`;
      const entry = routes.get(key) ?? { route, entities: [] };
      entry.entities.push(def);
      if (route.atConnectedTill) entry.route = route;
      routes.set(key, entry);
    }
  return routes;
}

export const getEntity = (entity: string): EntityDefinition | undefined => registry.get(entity);
export const registeredEntities = (): EntityDefinition[] =>
  [...registry.values()].sort((a, b) => a.order - b.order || a.entity.localeCompare(b.entity));
export const registeredEntityNames = (): string[] => registeredEntities().map((e) => e.entity);
/** Removes an entity (tests only). */
export const unregisterEntity = (entity: string): boolean => registry.delete(entity);
