import { openReviewItem } from './review-item';
import { paginate } from '../../db/paginate';
import type { SyncConflict } from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { AppContext } from '../../app-context';
import { recordChange, withChangeOrigin } from '../../db/changes';
import type { Db } from '../../db/connection';
import { type AuthUser, assertBranchAccess } from '../../http/auth';
import { AppError, Conflict, NotFound } from '../../lib/errors';
import { nowIso } from '../../lib/time';
import { type Actor, writeAudit } from '../audit/service';
import { Rejection, judgeChange } from './gate';
import { isTemporary, permanentError } from './push-change';
import { getEntity, type Payload } from './registry';
import { describeActions, describeReason, describeTitle } from './describe';
import { newId } from '../../lib/ids';
import { RETRY_MARK } from './retried';
import { tillBranch } from './till-identity';
import type { ResolveConflictRequest } from '@pharmacy/contracts';
import type { z } from 'zod';
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

/** Where this server keeps its review items: central's record of pushed rejections, or the till's own. */
const sideOf = (app: AppContext): 'central' | 'till' => (app.config.mode === 'central' ? 'central' : 'till');

const toConflict = (r: SyncConflictsTable, side: 'central' | 'till'): SyncConflict => {
  const till = readable(r.till_payload);
  const central = readable(r.central_payload);
  return {
    ...r,
    resolution: r.resolution as SyncConflict['resolution'],
    resolution_note: r.resolution_note ?? '',
    till_payload: till,
    central_payload: central,
    resolved_payload: readable(r.resolved_payload),
    side,
    title: describeTitle(r.entity, r.entity_id, till ?? central),
    reason: describeReason(r.kind, r.code, r.message),
    actions: describeActions(side, r),
  };
};

export async function listConflicts(
  app: AppContext,
  f: { branch_id?: string; status?: 'open' | 'resolved'; entity?: string; page: number; page_size: number },
) {
  if (sideOf(app) === 'till') await recordTillRejections(app.db, tillBranch(app));
  let q = app.db.selectFrom('sync_conflicts');
  if (f.branch_id) q = q.where('branch_id', '=', f.branch_id);
  if (f.status) q = q.where('status', '=', f.status);
  if (f.entity) q = q.where('entity', '=', f.entity);
  const found = await paginate(q, f, (q) =>
    q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc'),
  );
  return { ...found, items: found.items.map((r) => toConflict(r, sideOf(app))) };
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

type ResolveInput = z.output<typeof ResolveConflictRequest>;

/**
 * Applies a manager's choice. On central, as a new central revision (so every till converges on it):
 * keep_central re-emits central's current row (a till that diverged gets it back; for a rejected till-owned
 * record it records that staff dropped it), keep_till and retry apply the till's version, merged applies the
 * given payload, dismiss closes a rejection with its reason and changes nothing. On a till, retry sends the
 * rejected change again and dismiss takes it out of the outbox. A choice that does not fit the item, or still
 * cannot apply, answers 403 or 409 and leaves it open.
 */
export async function resolveConflict(
  app: AppContext,
  user: AuthUser,
  actor: Actor,
  id: string,
  input: ResolveInput,
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
  const side = sideOf(app);
  assertActionFits(side, before, input.resolution);
  const resolved = { user, actor, before, input };
  if (side === 'till') await resolveOnTill(app, resolved);
  else await resolveOnCentral(app, resolved);
  const after = await app.db
    .selectFrom('sync_conflicts')
    .selectAll()
    .where('id', '=', id)
    .executeTakeFirstOrThrow();
  return toConflict(after, side);
}

const ACTION_WORDS: Record<string, string> = {
  retry: 'sent again',
  dismiss: 'dismissed',
  keep_central: "settled with head office's version",
  keep_till: "settled with this till's version",
  merged: 'settled with a merged version',
};

/**
 * A choice the item does not offer is refused before anything is written (409, never a 500). Head office may
 * still choose a version (keep_central, keep_till, merged) for any item: the push gate judges it.
 */
function assertActionFits(side: 'central' | 'till', c: SyncConflictsTable, resolution: string): void {
  const offered: string[] = describeActions(side, c);
  const versionAtCentral = side === 'central' && ['keep_central', 'keep_till', 'merged'].includes(resolution);
  if (versionAtCentral || offered.includes(resolution)) return;
  const where = side === 'till' ? 'On this till' : 'At head office';
  throw new Conflict(
    `${where} this item cannot be ${ACTION_WORDS[resolution] ?? resolution}; it can be ${offered.map((a) => ACTION_WORDS[a]).join(' or ')}.`,
    'ACTION_NOT_OFFERED',
  );
}

interface Resolution {
  user: AuthUser;
  actor: Actor;
  before: SyncConflictsTable;
  input: ResolveInput;
}

/** Marks the item resolved and audits the choice, in the transaction that carried it out. */
async function closeItem(trx: Db, r: Resolution, chosen: Payload | null): Promise<void> {
  const revision = Number(
    (await sql<{ r: number | null }>`SELECT max(revision) AS r FROM change_log`.execute(trx)).rows[0]?.r ?? 0,
  );
  const note = r.input.resolution === 'dismiss' ? (r.input.reason ?? '') : '';
  await trx
    .updateTable('sync_conflicts')
    .set({
      status: 'resolved',
      resolution: r.input.resolution,
      resolution_note: note,
      resolved_payload: chosen ? JSON.stringify(chosen) : null,
      resolved_by: r.user.id,
      resolved_at: nowIso(),
      resolved_revision: revision,
    })
    .where('id', '=', r.before.id)
    .execute();
  await writeAudit(trx, r.actor, {
    action: 'sync_conflict.resolve',
    entity: 'sync_conflict',
    entityId: r.before.id,
    branchId: r.before.branch_id,
    before: { status: r.before.status },
    after: { resolution: r.input.resolution, payload: chosen, ...(note && { reason: note }) },
  });
}

async function resolveOnCentral(app: AppContext, r: Resolution): Promise<void> {
  const { before, input, user } = r;
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
      : input.resolution === 'keep_till' || input.resolution === 'retry'
        ? (parse(before.till_payload) as Payload | null)
        : null;
  await app.db.transaction().execute(async (trx) => {
    if (def && before.entity_id && input.resolution !== 'dismiss') {
      await withChangeOrigin(trx, {}, async () => {
        if (chosen) {
          if (!device) throw new Conflict('The device of this conflict no longer exists.', 'NO_DEVICE');
          const change = {
            clientMutationId: `resolve:${before.id}`,
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
    await closeItem(trx, r, chosen);
  });
  def?.afterApply?.(app);
}

/** The till's rejected outbox rows of one change (older ones carry no mutation id: rev-<revision>). */
function outboxRowsOf(trx: Db, clientMutationId: string) {
  const legacy = /^rev-(\d+)$/.exec(clientMutationId);
  return trx
    .updateTable('change_log')
    .where('from_remote', '=', sql.lit(0))
    .where('sync_status', '=', 'rejected')
    .where((eb) =>
      legacy
        ? eb.and([eb('revision', '=', Number(legacy[1])), eb('client_mutation_id', 'is', null)])
        : eb('client_mutation_id', '=', clientMutationId),
    );
}

const retryId = (clientMutationId: string) =>
  `${clientMutationId.split(RETRY_MARK)[0]}${RETRY_MARK}${newId().slice(-8)}`;

async function resolveOnTill(app: AppContext, r: Resolution): Promise<void> {
  const clientMutationId = r.before.client_mutation_id;
  await app.db.transaction().execute(async (trx) => {
    if (clientMutationId) {
      const updated = await outboxRowsOf(trx, clientMutationId)
        .set(
          r.input.resolution === 'retry'
            ? { sync_status: null, sync_result: null, client_mutation_id: retryId(clientMutationId) }
            : { sync_status: 'skipped' },
        )
        .executeTakeFirst();
      if (r.input.resolution === 'retry' && Number(updated.numUpdatedRows) === 0)
        throw new Conflict(
          'This change is no longer waiting on this till; nothing to send again.',
          'NOTHING_TO_RETRY',
        );
    }
    await closeItem(trx, r, null);
  });
}

/**
 * The till's review items for its rejected pushes: one per rejected change, under the id central gave its own
 * record of the rejection (so both sides name the same item). Idempotent; runs where rejections are recorded.
 */
export async function recordTillRejections(db: Db, tillBranchId: string | null): Promise<void> {
  const rows = await db
    .selectFrom('change_log as c')
    .select(['c.revision', 'c.entity', 'c.entity_id', 'c.payload', 'c.client_mutation_id', 'c.sync_result'])
    .where('c.from_remote', '=', sql.lit(0))
    .where('c.sync_status', '=', 'rejected')
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('sync_conflicts as k')
            .select(sql.lit(1).as('one'))
            .whereRef(
              'k.client_mutation_id',
              '=',
              sql<string>`coalesce(c.client_mutation_id, 'rev-' || c.revision)`,
            ),
        ),
      ),
    )
    .execute();
  const seen = new Set<string>();
  for (const row of rows) {
    const clientMutationId = row.client_mutation_id ?? `rev-${row.revision}`;
    if (seen.has(clientMutationId)) continue;
    seen.add(clientMutationId);
    const answer = JSON.parse(row.sync_result ?? '{}') as {
      code?: string;
      message?: string;
      conflict_id?: string;
    };
    const taken =
      answer.conflict_id &&
      (await db
        .selectFrom('sync_conflicts')
        .select('id')
        .where('id', '=', answer.conflict_id)
        .executeTakeFirst());
    await db
      .insertInto('sync_conflicts')
      .values(
        openReviewItem({
          id: answer.conflict_id && !taken ? answer.conflict_id : newId(),
          device_id: null,
          // A record without a branch of its own (a catalogue edit) is the till's branch's to review.
          branch_id: branchOf(row.payload) ?? tillBranchId,
          entity: row.entity,
          entity_id: row.entity_id,
          client_mutation_id: clientMutationId,
          kind: 'rejected',
          code: answer.code ?? 'REJECTED',
          message: answer.message ?? 'Head office refused the change.',
          till_payload: row.payload,
          central_payload: null,
          base_revision: null,
          central_revision: null,
        }),
      )
      .execute();
  }
}

function branchOf(payload: string): string | null {
  const p = JSON.parse(payload) as { branch_id?: unknown };
  return typeof p.branch_id === 'string' ? p.branch_id : null;
}

/**
 * A till-owned record head office now holds (pulled: a manager applied it there) settles the till's open
 * rejection of it; its outbox rows count as accepted at that revision, so they leave with the next clean-up.
 */
export async function settlePulledRejections(
  trx: Db,
  changes: ReadonlyArray<{ entity: string; entity_id: string; op: string; revision: number }>,
): Promise<void> {
  const open = await trx
    .selectFrom('sync_conflicts')
    .select(['id', 'entity', 'entity_id', 'client_mutation_id'])
    .where('status', '=', 'open')
    .where('kind', '=', 'rejected')
    .where('client_mutation_id', 'is not', null)
    .execute();
  if (open.length === 0) return;
  const pulled = new Map(
    changes.filter((c) => c.op === 'upsert').map((c) => [`${c.entity}:${c.entity_id}`, c.revision]),
  );
  for (const item of open) {
    const revision = pulled.get(`${item.entity}:${item.entity_id}`);
    if (revision === undefined || getEntity(item.entity)?.owner !== 'till') continue;
    await outboxRowsOf(trx, item.client_mutation_id!)
      .set({ sync_status: 'accepted', acked_revision: revision })
      .execute();
    await trx
      .updateTable('sync_conflicts')
      .set({
        status: 'resolved',
        resolution: 'retry',
        resolution_note: 'Applied at head office.',
        resolved_at: nowIso(),
        resolved_revision: revision,
      })
      .where('id', '=', item.id)
      .execute();
  }
}
