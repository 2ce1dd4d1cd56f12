import { BRANCH_BOUND_ROLES, type Role } from '@pharmacy/contracts';
import type { Db } from '../../db/connection';
import { prepared } from '../../db/prepared';
import { PushForbidden } from '../sync/push-actors';
import type { PushedChange, Pusher } from '../sync/registry';

/** What a self-service password change at a till may change in a user row; everything else is head office's. */
const PASSWORD_CHANGE_FIELDS = new Set([
  'password_hash',
  'must_change_password',
  'token_version',
  'updated_at',
  'last_login_at',
]);

const centralUser = prepared((db, p: { id: string }) =>
  db.selectFrom('users').selectAll().where('id', '=', p.id),
);

/**
 * Users are head office's, with one exception a till must be able to send: a user of the till's branch
 * replacing their own password there (POST /auth/change-password at the till, e.g. at first sign-in). Central
 * takes that change only when it touches nothing but the password (a new argon2id hash, a higher token
 * version, the flag cleared) of a branch-bound user of the device's branch; a role, a branch, an email, a
 * reactivation or an organisation-wide user's password is refused, so a till can never grant itself more.
 */
export async function authoriseOwnPasswordChange(
  trx: Db,
  change: PushedChange,
  pusher: Pusher,
): Promise<void> {
  const refuse = (why: string) =>
    new PushForbidden(`A till may change a user only as their own password change: ${why}.`);
  if (change.op !== 'upsert') throw refuse('users are never deleted by a till');
  const stored = await centralUser.first(trx, { id: change.entityId });
  if (!stored) throw refuse('head office does not know this user');
  if (!BRANCH_BOUND_ROLES.includes(stored.role as Role) || stored.branch_id !== pusher.device.branch_id)
    throw refuse("only a user of the till's own branch changes their password there");
  const p = change.payload;
  for (const [field, value] of Object.entries(stored))
    if (!PASSWORD_CHANGE_FIELDS.has(field) && Object.hasOwn(p, field) && p[field] !== value)
      throw refuse(`${field} is not the password`);
  if (typeof p.password_hash !== 'string' || !p.password_hash.startsWith('$argon2id$'))
    throw refuse('the password must arrive as an argon2id hash');
  if (p.must_change_password !== 0 || Number(p.token_version) <= stored.token_version)
    throw refuse('a change of one’s own password clears the flag and revokes older tokens');
}
