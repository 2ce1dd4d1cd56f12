import { BRANCH_BOUND_ROLES, type Role } from '@pharmacy/contracts';
import type { UsersTable } from '../../db/schema';
import type { FeedAudience } from '../sync/feed';
import type { EntityRegistration } from '../sync/registry';
import { authoriseOwnPasswordChange } from './password-sync';
import { writeUser } from './service';

const userEntity: EntityRegistration = {
  entity: 'user',
  push: authoriseOwnPasswordChange,
  owner: 'central',
  scope: 'branch',
  table: 'users',
  order: 40,
  // Branch-bound users of the device's branch, and every organisation-wide user (userScope).
  snapshotWhere: `branch_id = ? OR role NOT IN (${BRANCH_BOUND_ROLES.map((r) => `'${r}'`).join(', ')})`,
  write: (trx, payload) => writeUser(trx, payload as unknown as UsersTable),
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const usersEntities: readonly EntityRegistration[] = [userEntity];

/**
 * What a user row carries in place of its password hash when the reader may not have it: a till then has no
 * verifier for the account, and signs the person in through head office while it is connected.
 */
export const HASH_NOT_SERVED = '';

/**
 * A user row as pull and snapshot serve it (H1): a till's device receives the password verifier only of the
 * people who sign in at its tills, the branch-bound staff (cashier, pharmacist, branch manager) of its own
 * branch; every other row (organisation-wide accounts, staff of another branch, anything an admin reads)
 * travels without it.
 */
export function servedUser(
  payload: Record<string, unknown>,
  audience: FeedAudience,
): Record<string, unknown> {
  const staffOfTheTill =
    audience.kind === 'device' &&
    BRANCH_BOUND_ROLES.includes(payload.role as Role) &&
    payload.branch_id === audience.branchId;
  if (staffOfTheTill || !Object.hasOwn(payload, 'password_hash')) return payload;
  return { ...payload, password_hash: HASH_NOT_SERVED };
}
