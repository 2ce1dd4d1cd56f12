import { BRANCH_BOUND_ROLES } from '@pharmacy/contracts';
import type { UsersTable } from '../../db/schema';
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
