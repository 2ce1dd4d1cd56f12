import { payloadTextProblem } from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { roleAllowed, roleRefusal } from '../../http/route';
import { prepared } from '../../db/prepared';
import {
  type EntityDefinition,
  getEntity,
  type SyncDevice,
  type Payload,
  type PushedChange,
  type Pusher,
  type Reference,
} from './registry';
import { tableColumns } from './row-writes';

/** A permanent refusal of one change: its code and plain-words detail (an edit conflict carries central's row). */
export class Rejection extends Error {
  constructor(
    readonly code: string,
    readonly detail: string,
    readonly conflict?: { kind: 'edit_conflict'; centralPayload: unknown; centralRevision: number },
  ) {
    super(detail);
  }
}

const maxRevision = prepared((db) =>
  db.selectFrom('change_log').select((eb) => eb.fn.max('revision').as('r')),
);

export async function currentRevision(trx: Db): Promise<number> {
  return Number((await maxRevision.first(trx, {}))?.r ?? 0);
}

/**
 * The branches of rows a set-wise run (push-setwise.ts) names, read in one query per table before it applies:
 * table -> key -> branch; a key absent from a table's map is a row central does not hold.
 */
export const branchesReadAhead = new WeakMap<Db, Map<string, Map<string, string | null>>>();

/** The branch a branch-scoped row already has on central, or undefined when central has no such row. */
async function storedBranch(trx: Db, def: EntityDefinition, id: string): Promise<string | null | undefined> {
  const readAhead = branchesReadAhead.get(trx)?.get(def.table);
  if (readAhead) return readAhead.has(id) ? readAhead.get(id) : undefined;
  const { rows } = await sql<{ b: string | null }>`SELECT ${sql.ref(def.branchColumn)} AS b
    FROM ${sql.table(def.table)} WHERE ${sql.ref(def.key)} = ${id}`.execute(trx);
  return rows[0] ? rows[0].b : undefined;
}

/**
 * A device writes only its own branch's rows: the branch a pushed row names, and the branch of the row it
 * would overwrite on central (a till must not take over another branch's batch by reusing its id).
 */
export async function assertDeviceBranch(
  trx: Db,
  def: EntityDefinition,
  change: PushedChange,
  device: SyncDevice,
) {
  if (def.scope !== 'branch' || !(await tableColumns(trx, def.table)).includes(def.branchColumn)) return;
  const named = change.op === 'upsert' ? change.payload[def.branchColumn] : undefined;
  const stored = await storedBranch(trx, def, change.entityId);
  for (const branch of [named, stored])
    if (branch !== undefined && branch !== device.branch_id)
      throw new Rejection(
        'OTHER_BRANCH',
        `This ${change.entity} belongs to another branch than the device's.`,
      );
}

/**
 * The one door for replicated writes (docs/SECURITY.md, "Sync trust model — writes"): whether this caller may
 * make this change, whichever path it arrives by — a till's push (one by one or set-wise) or a manager's
 * resolution of a conflict. In order:
 * 1. policy: the entity is replicated, a till may change it (not central-only), a till-owned row is never deleted;
 * 2. actor: a person's token (a bearer push, a resolver) carries a role the entity's REST routes allow, and
 *    names only that person in every `*_by` field (a resolver may keep the people the till's version named);
 * 3. branch: the payload's key is the change's entity_id; the row, the row it would overwrite, its child rows
 *    and every branch-scoped row it names are of the device's branch, read on central in the caller's
 *    transaction;
 * 4. shape: the payload's texts are plain (no control characters), it passes the entity's payload schema (the
 *    REST body's rules), and its base_revision is never ahead of central;
 * 5. the entity's own rule (registry `push`): the people a device's change names, the effects it must match.
 * Throws a Rejection (or the entity rule's AppError); returns the entity's definition when the change may apply.
 */
export async function judgeChange(trx: Db, change: PushedChange, actor: Pusher): Promise<EntityDefinition> {
  const def = judgePolicy(change);
  judgeActor(def, change, actor);
  judgeKey(def, change);
  await assertDeviceBranch(trx, def, change, actor.device);
  if (change.op === 'upsert') await judgeReferences(trx, def, change, actor);
  judgePayload(def, change);
  await judgeBaseRevision(trx, change);
  if (typeof def.push === 'function') await def.push(trx, change, actor);
  return def;
}

function judgePolicy(change: PushedChange): EntityDefinition {
  const def = getEntity(change.entity);
  if (!def)
    throw new Rejection('UNKNOWN_ENTITY', `Entity ${change.entity} is not replicated by this server.`);
  if (def.push === 'central-only')
    throw new Rejection(
      'CENTRAL_ONLY',
      `A ${change.entity} is changed only at head office; a till's change to it is refused (make the change on central).`,
    );
  if (def.owner === 'till' && change.op === 'delete')
    throw new Rejection(
      'IMMUTABLE',
      `A ${change.entity} is created at a till and is never deleted once pushed.`,
    );
  return def;
}

function judgeKey(def: EntityDefinition, change: PushedChange): void {
  if (change.op !== 'upsert') return;
  const key = change.payload[def.key];
  if (key === undefined || String(key) !== change.entityId)
    throw new Rejection(
      'ENTITY_ID_MISMATCH',
      `The change names ${change.entity} ${change.entityId}, but its row is ${String(key ?? 'missing')}; a change writes only the row it names.`,
    );
}

function judgePayload(def: EntityDefinition, change: PushedChange): void {
  if (change.op !== 'upsert') return;
  const text = payloadTextProblem(change.payload);
  if (text) throw new Rejection('VALIDATION', `The ${change.entity}'s ${text.path} ${text.message}.`);
  const parsed = def.payloadSchema?.safeParse(change.payload);
  if (parsed && !parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Rejection(
      'VALIDATION',
      `The ${change.entity}'s ${issue?.path.join('.') || 'row'} ${issue?.message ?? 'is not valid'}.`,
    );
  }
}

/** Central's head revision as a transaction last read it: it only grows, so a base at or below it needs no read. */
const headSeen = new WeakMap<Db, number>();

async function judgeBaseRevision(trx: Db, change: PushedChange): Promise<void> {
  const base = change.baseRevision ?? 0;
  if (base <= (headSeen.get(trx) ?? 0)) return;
  const head = await currentRevision(trx);
  headSeen.set(trx, head);
  if (base > head)
    throw new Rejection(
      'BAD_BASE_REVISION',
      `The change says it was made against revision ${base}, but central is at revision ${head}; a till's cursor is never ahead of central.`,
    );
}

/** The values a payload gives `field`, on the row itself or on each item of its array field `in`. */
function valuesOf(payload: Payload, ref: Pick<Reference, 'field' | 'in'>): string[] {
  const rows = ref.in ? payload[ref.in] : [payload];
  if (!Array.isArray(rows)) return [];
  return rows.flatMap((r) => {
    const v = r !== null && typeof r === 'object' ? (r as Payload)[ref.field] : undefined;
    return typeof v === 'string' && v !== '' ? [v] : [];
  });
}

/**
 * The branches of the rows a set-wise run's changes reference, read in one query per table before it applies
 * (push-setwise.ts): `table.column` -> id -> branch; an id absent from its map is a row central does not hold.
 */
export const referencesReadAhead = new WeakMap<Db, Map<string, Map<string, string | null>>>();

/** One query per referenced table for the branches of every row the changes name (referencesReadAhead). */
export async function readReferencesAhead(trx: Db, changes: PushedChange[]): Promise<void> {
  const idsByTable = new Map<string, { ref: Reference; ids: Set<string> }>();
  for (const change of changes) {
    const def = getEntity(change.entity);
    for (const ref of def?.references ?? []) {
      if (ref.branchSql) continue;
      const key = `${ref.table}.${ref.branchColumn ?? 'branch_id'}`;
      const entry = idsByTable.get(key) ?? { ref, ids: new Set<string>() };
      for (const id of valuesOf(change.payload, ref)) entry.ids.add(id);
      idsByTable.set(key, entry);
    }
  }
  const byTable = new Map<string, Map<string, string | null>>();
  for (const [key, { ref, ids }] of idsByTable) {
    if (ids.size === 0) continue;
    const { rows } = await sql<{ k: string; b: string | null }>`SELECT id AS k,
      ${sql.ref(ref.branchColumn ?? 'branch_id')} AS b FROM ${sql.table(ref.table)} WHERE id = ANY(${[...ids]})`.execute(
      trx,
    );
    byTable.set(key, new Map(rows.map((r) => [r.k, r.b])));
  }
  referencesReadAhead.set(trx, byTable);
}

async function branchOfReference(trx: Db, ref: Reference, id: string): Promise<string | null | undefined> {
  const readAhead = referencesReadAhead.get(trx)?.get(`${ref.table}.${ref.branchColumn ?? 'branch_id'}`);
  if (readAhead) return readAhead.has(id) ? readAhead.get(id) : undefined;
  const { rows } = ref.branchSql
    ? await sql<{
        b: string | null;
      }>`${sql.raw(ref.branchSql.split('?')[0] ?? '')}${id}${sql.raw(ref.branchSql.split('?')[1] ?? '')}`.execute(
        trx,
      )
    : await sql<{ b: string | null }>`SELECT ${sql.ref(ref.branchColumn ?? 'branch_id')} AS b
        FROM ${sql.table(ref.table)} WHERE id = ${id}`.execute(trx);
  return rows[0] ? rows[0].b : undefined;
}

/**
 * Child rows carried in the payload belong to the row (their parent column is the row's key), and every
 * branch-scoped row the payload names that central holds is of the device's branch. A row central does not hold
 * is left to the entity's apply (a movement of an unknown batch is refused there).
 */
async function judgeReferences(trx: Db, def: EntityDefinition, change: PushedChange, actor: Pusher) {
  for (const [field, parentColumn] of Object.entries(def.children)) {
    const items = change.payload[field];
    if (items === undefined || items === null) continue;
    if (!Array.isArray(items) || items.some((i) => (i as Payload)?.[parentColumn] !== change.entityId))
      throw new Rejection(
        'OTHER_BRANCH',
        `Every row in the ${change.entity}'s ${field} must belong to this ${change.entity}.`,
      );
  }
  for (const ref of def.references)
    for (const id of new Set(valuesOf(change.payload, ref))) {
      const branch = await branchOfReference(trx, ref, id);
      if (branch !== undefined && branch !== actor.device.branch_id)
        throw new Rejection(
          'OTHER_BRANCH',
          `This ${change.entity} names a ${ref.table.replace(/s$/, '').replaceAll('_', ' ')} of another branch than the device's.`,
        );
    }
}

/** Fields naming who did something: `*_by`. */
const personFields = (payload: Payload) =>
  Object.entries(payload).filter(([k, v]) => k.endsWith('_by') && typeof v === 'string' && v !== '');

/**
 * A person's token carries that person only: a role the entity's REST routes allow, and every `*_by` field
 * naming them (a resolver may leave the people the device's own version named). A device pushes on the
 * entity's own rule (registry `push`), which checks the people it names.
 */
function judgeActor(def: EntityDefinition, change: PushedChange, actor: Pusher): void {
  const { user } = actor;
  if (!user) return;
  const roles = def.restAccess;
  if (roles !== 'any' && !roleAllowed(roles, user.role))
    throw new Rejection(
      'FORBIDDEN_ROLE',
      roles.length === 0
        ? `A ${change.entity} is not made by a person through the till's screens; only its device sends it.`
        : `${roleRefusal(roles, user.role)} (a ${change.entity} through sync follows the same rule).`,
    );
  if (change.op !== 'upsert') return;
  for (const [field, named] of personFields(change.payload)) {
    if (named === user.id) continue;
    if (actor.via === 'resolve' && actor.vouched?.[field] === named) continue;
    throw new Rejection(
      'FORBIDDEN_ROLE',
      `Signed in as yourself, you can only record what you did: ${field} names someone else.`,
    );
  }
}
