import { BRANCH_BOUND_ROLES, type Role } from '@pharmacy/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/connection';
import { prepared } from '../../db/prepared';
import { AppError } from '../../lib/errors';
import { roleAllowed, roleRefusal } from '../../http/route';
import type { Payload, Pusher, PushedChange } from './registry';

/** A pushed change that names someone who could not have made it through REST. */
export class PushForbidden extends AppError {
  constructor(detail: string) {
    super(403, 'FORBIDDEN_ROLE', detail);
  }
}

const userRow = prepared((db, p: { id: string }) =>
  db.selectFrom('users').select(['id', 'role', 'branch_id', 'is_active']).where('id', '=', p.id),
);

/** The REST rule: a role the route allows, and of the row's branch when the role is branch-bound. */
const mayAct = (user: { role: string; branch_id: string }, roles: readonly Role[], branchId: string) =>
  roleAllowed(roles, user.role as Role) &&
  (!BRANCH_BOUND_ROLES.includes(user.role as Role) || user.branch_id === branchId);

/**
 * Refuses a change unless the user its payload names in `field` may make it through the REST route: a user
 * central knows, active, with one of `roles` (admin always passes), and of the row's branch when branch-bound.
 * A bearer-token pusher must pass the same rule. `optional`: a row that names nobody passes on the pusher alone.
 */
export async function assertNamedUserMay(
  trx: Db,
  change: PushedChange,
  pusher: Pusher,
  rule: {
    field: string;
    roles: readonly Role[];
    what: string;
    optional?: boolean;
    /** Roles a bearer-token pusher must have (default: `roles`). */
    pusherRoles?: readonly Role[];
  },
): Promise<void> {
  const branchId = pusher.device.branch_id;
  const pusherRoles = rule.pusherRoles ?? rule.roles;
  if (
    pusher.user &&
    !mayAct({ role: pusher.user.role, branch_id: pusher.user.branchId }, pusherRoles, branchId)
  )
    throw new PushForbidden(`${roleRefusal(pusherRoles, pusher.user.role)} (${rule.what})`);
  const named = namedUser(change.payload, rule.field);
  if (named === null) {
    if (rule.optional) return;
    throw new PushForbidden(`A ${change.entity} must name who ${rule.what} (${rule.field}).`);
  }
  const user = await userRow.first(trx, { id: named });
  if (!user?.is_active)
    throw new PushForbidden(`${rule.field} ${named} is not an active user of head office (${rule.what}).`);
  if (!mayAct(user, rule.roles, branchId))
    throw new PushForbidden(
      `${rule.field} names a ${user.role}${BRANCH_BOUND_ROLES.includes(user.role as Role) && user.branch_id !== branchId ? ' of another branch' : ''}, who may not ${rule.what}; ${roleRefusal(rule.roles, user.role as Role)}`,
    );
}

function namedUser(payload: Payload, field: string): string | null {
  const value = Object.hasOwn(payload, field) ? payload[field] : null;
  return typeof value === 'string' && value !== '' ? value : null;
}

/**
 * A row a pushed change names, as central holds it or, when central does not hold it yet, as a change of the
 * same push carries it (a sale's ledger row and coupon redemption travel before the sale). Undefined when
 * neither.
 */
export async function heldOrPushed(
  trx: Db,
  pusher: Pusher,
  ref: { entity: string; table: string; id: string },
): Promise<{ row: Payload; held: boolean } | undefined> {
  const { rows } = await sql<Payload>`SELECT * FROM ${sql.table(ref.table)} WHERE id = ${ref.id}`.execute(
    trx,
  );
  if (rows[0]) return { row: rows[0], held: true };
  for (const raw of pusher.batch ?? []) {
    const c = raw as { entity?: unknown; op?: unknown; payload?: unknown } | null;
    const p = c?.payload as Payload | undefined;
    if (c?.entity === ref.entity && c.op === 'upsert' && p?.id === ref.id) return { row: p, held: false };
  }
  return undefined;
}
