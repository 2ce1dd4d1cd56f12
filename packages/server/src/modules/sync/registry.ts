import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { recordChange } from '../../db/changes';
import type { Db } from '../../db/connection';
import type { AuthUser } from '../../http/auth';
import type { SyncDevicesTable } from '../../db/tables/sync';
import type { Role } from '@pharmacy/contracts';
import type { z } from 'zod';
import type { Method, RouteDoc } from '../../http/route';

/** Who is the source of truth for an entity (see docs/CONVENTIONS.md, "Sync"). */
export type Owner = 'central' | 'till';
/** Which tills receive an entity: every till (organisation) or the tills of the row's branch. */
export type PullScope = 'organisation' | 'branch';

export type Payload = Record<string, unknown>;

import { writeRow } from './row-writes';
export type { ColumnOf, TableName } from './row-writes';

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
