import { paginate } from '../../db/paginate';
import type { SyncConflict } from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { recordChange, withChangeOrigin } from '../../db/changes';
import type { Db } from '../../db/connection';
import { type AuthUser, assertBranchAccess } from '../../http/auth';
import { AppError, Conflict, NotFound } from '../../http/errors';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { Rejection, judgeChange } from './gate';
import { isTemporary, permanentError } from './push-change';
import { getEntity, type Payload } from './registry';
import type { SyncConflictsTable } from '../../db/tables/sync';

const parse = (s: string | null): unknown => (s === null ? null : JSON.parse(s));

/** Fields a conflict never shows, whoever reads it: a pushed user row's password verifier (issue 26 H1). */
const SECRET_FIELDS = ['password_hash'];

/** A stored payload as a manager may read it: JSON, without its secret fields. */
function readable(s: string | null): unknown {
  const value = parse(s);
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return value;
  return Object.fromEntries(Object.entries(value).filter(([key]) => !SECRET_FIELDS.includes(key)));
}

const toConflict = (r: SyncConflictsTable): SyncConflict => ({
  ...r,
  resolution: r.resolution as SyncConflict['resolution'],
  till_payload: readable(r.till_payload),
  central_payload: readable(r.central_payload),
  resolved_payload: readable(r.resolved_payload),
});

export async function listConflicts(
  app: AppContext,
  f: { branch_id?: string; status?: 'open' | 'resolved'; entity?: string; page: number; page_size: number },
) {
  let q = app.db.selectFrom('sync_conflicts');
  if (f.branch_id) q = q.where('branch_id', '=', f.branch_id);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.entity) q = q.where('entity', '=', f.entity);
  const found = await paginate(q, f, (q) =>
    q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
  );
  return { ...found, items: found.items.map(toConflict) };
}

async function currentRow(trx: Db, table: string, key: string, id: string): Promise<Payload | undefined> {
  const r = await sql<Payload>`SELECT * FROM ${sql.table(table)} WHERE ${sql.ref(key)} = ${id}`.execute(trx);
  return r.rows[0];
}

/** The codes of a change its maker may not make at all (403), as opposed to one that cannot apply now (409). */
const REFUSED = new Set(['CENTRAL_ONLY', 'FORBIDDEN_ROLE', 'OTHER_BRANCH', 'IMMUTABLE', 'UNKNOWN_ENTITY']);

/** Why a chosen version was not applied, as a 403 or 409 naming it; a temporary failure is thrown as it is. */
function refusedResolution(err: unknown): never {
  if (isTemporary(err)) throw err;
  const { code, message } =
    err instanceof Rejection ? { code: err.code, message: err.detail } : permanentError(err);
  if (REFUSED.has(code) || (err instanceof AppError && err.status === 403))
    throw new AppError(403, code, `The chosen version cannot be applied: ${message}`);
  throw new Conflict(`The chosen version cannot be applied: ${message}`, 'RESOLUTION_FAILED');
}

/**
 * Applies a manager's choice as a new central revision (so every till converges on it):
 * keep_central re-emits central's current row (a till that diverged gets it back; for a rejected till-owned
 * record it records that staff dropped it), keep_till applies the till's version, merged applies the given
 * payload. A choice that still cannot apply answers 409 and leaves the conflict open.
 */
export async function resolveConflict(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  input: { resolution: 'keep_central' | 'keep_till' | 'merged'; payload?: Record<string, unknown> },
): Promise<SyncConflict> {
  const before = await app.db
    .selectFrom('sync_conflicts')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirst();
  if (!before) throw new NotFound('Conflict', id);
  if (before.branch_id) assertBranchAccess(user, before.branch_id, 'conflict');
  if (before.status === 'resolved')
    throw new Conflict('This conflict is already resolved.', 'ALREADY_RESOLVED');
  const def = getEntity(before.entity);
  const device = before.device_id
    ? await app.db
        .selectFrom('sync_devices')
        .selectAll()
        .where('id', '=', before.device_id)
        .executeTakeFirst()
    : undefined;
  const chosen =
    input.resolution === 'merged'
      ? (input.payload ?? null)
      : input.resolution === 'keep_till'
        ? (parse(before.till_payload) as Payload | null)
        : null;
  await app.db.transaction().execute(async (trx) => {
    if (def && before.entity_id) {
      await withChangeOrigin(trx, {}, async () => {
        if (chosen) {
          if (!device) throw new Conflict('The device of this conflict no longer exists.', 'NO_DEVICE');
          const change = {
            clientMutationId: `resolve:${id}`,
            entity: before.entity,
            entityId: before.entity_id!,
            op: 'upsert' as const,
            payload: chosen,
            seq: null,
            baseRevision: null,
          };
          // The same door as a push, with the resolver as the actor (gate.ts).
          await judgeChange(trx, change, {
            device,
            user,
            via: 'resolve',
            vouched: parse(before.till_payload) as Payload | null,
          });
          await def.applyPush(trx, change, device, app);
        } else if (def.owner === 'central') {
          const row = await currentRow(trx, def.table, def.key, before.entity_id!);
          if (row) {
            await recordChange(trx, {
              entity: def.entity,
              entityId: before.entity_id!,
              op: 'upsert',
              payload: def.fromRow(row),
              branchId: def.scope === 'branch' ? String(row[def.branchColumn] ?? '') || null : null,
            });
          }
        }
      }).catch(refusedResolution);
    }
    const revision = Number(
      (await sql<{ r: number | null }>`SELECT max(revision) AS r FROM change_log`.execute(trx)).rows[0]?.r ??
        0,
    );
    await trx
      .updateTable('sync_conflicts')
      .set({
        status: 'resolved',
        resolution: input.resolution,
        resolved_payload: chosen ? JSON.stringify(chosen) : null,
        resolved_by: user.id,
        resolved_at: nowIso(),
        resolved_revision: revision,
      })
      .where('id', '=', id)
      .execute();
    await writeAudit(trx, actor, {
      action: 'sync_conflict.resolve',
      entity: 'sync_conflict',
      entityId: id,
      branchId: before.branch_id,
      before: { status: before.status },
      after: { resolution: input.resolution, payload: chosen },
    });
  });
  def?.afterApply?.(app);
  const after = await app.db
    .selectFrom('sync_conflicts')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return toConflict(after);
}
