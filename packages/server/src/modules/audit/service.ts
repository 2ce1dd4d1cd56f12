import type { AuditEntry } from '@pharmacy/contracts';
import type { AppContext } from '../../app-context';
import type { Db } from '../../db/connection';
import { prepared } from '../../db/prepared';
import type { AuditLogTable } from '../../db/schema';
import { NotFound } from '../../lib/errors';
import type { AuthUser } from '../../http/auth';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { paginate } from '../../db/paginate';

/** Who did it: the signed-in user (or null for the system) and the request that carried it. */
export interface Actor {
  userId: string | null;
  requestId: string | null;
}

export const actorOf = (user: AuthUser | null, requestId: string | null): Actor => ({
  userId: user?.id ?? null,
  requestId,
});
export const SYSTEM: Actor = { userId: null, requestId: null };

export interface AuditInput {
  action: string;
  entity: string;
  entityId: string | null;
  branchId: string | null;
  before?: unknown;
  after?: unknown;
}

/** Appends to the audit trail inside the caller's transaction (the table refuses updates and deletes). */
const insertAudit = prepared((db, row: AuditLogTable) =>
  db.insertInto('audit_log').values({
    id: row.id,
    user_id: row.user_id,
    action: row.action,
    entity: row.entity,
    entity_id: row.entity_id,
    branch_id: row.branch_id,
    before_json: row.before_json,
    after_json: row.after_json,
    request_id: row.request_id,
    created_at: row.created_at,
  }),
);

export async function writeAudit(trx: Db, actor: Actor, entry: AuditInput): Promise<void> {
  await insertAudit.run(trx, {
    id: newId(),
    user_id: actor.userId,
    action: entry.action,
    entity: entry.entity,
    entity_id: entry.entityId,
    branch_id: entry.branchId,
    before_json: entry.before === undefined ? null : JSON.stringify(entry.before),
    after_json: entry.after === undefined ? null : JSON.stringify(entry.after),
    request_id: actor.requestId,
    created_at: nowIso(),
  });
}

export interface AuditFilter {
  entity?: string;
  entity_id?: string;
  action?: string;
  user_id?: string;
  branch_id?: string;
  from?: string;
  to?: string;
  page: number;
  page_size: number;
}

const parseJson = (text: string | null): unknown => (text === null ? null : JSON.parse(text));

function baseQuery(app: AppContext) {
  return app.db
    .selectFrom('audit_log as a')
    .leftJoin('users as u', 'u.id', 'a.user_id')
    .select([
      'a.id',
      'a.user_id',
      'u.full_name as user_name',
      'a.action',
      'a.entity',
      'a.entity_id',
      'a.branch_id',
      'a.before_json',
      'a.after_json',
      'a.request_id',
      'a.created_at',
    ]);
}

type AuditRow = Awaited<ReturnType<ReturnType<typeof baseQuery>['executeTakeFirstOrThrow']>>;

const toEntry = (r: AuditRow): AuditEntry => ({
  id: r.id,
  user_id: r.user_id,
  user_name: r.user_name,
  action: r.action,
  entity: r.entity,
  entity_id: r.entity_id,
  branch_id: r.branch_id,
  before: parseJson(r.before_json),
  after: parseJson(r.after_json),
  request_id: r.request_id,
  created_at: r.created_at,
});

export async function listAudit(app: AppContext, f: AuditFilter) {
  let q = baseQuery(app);
  if (f.entity) q = q.where('a.entity', '=', f.entity);
  if (f.entity_id) q = q.where('a.entity_id', '=', f.entity_id);
  if (f.action) q = q.where('a.action', '=', f.action);
  if (f.user_id) q = q.where('a.user_id', '=', f.user_id);
  if (f.branch_id) q = q.where('a.branch_id', '=', f.branch_id);
  if (f.from) q = q.where('a.created_at', '>=', new Date(f.from).toISOString());
  if (f.to) q = q.where('a.created_at', '<=', new Date(f.to).toISOString());
  const found = await paginate(q, f, (q) => q.orderBy('a.created_at', 'desc').orderBy('a.id', 'desc'));
  return { ...found, items: found.items.map(toEntry) };
}

export async function getAudit(app: AppContext, id: string): Promise<AuditEntry> {
  const row = await baseQuery(app).where('a.id', '=', id).executeTakeFirst();
  if (!row) throw new NotFound('Audit entry', id);
  return toEntry(row);
}
