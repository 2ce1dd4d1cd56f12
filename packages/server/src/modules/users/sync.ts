import { BRANCH_BOUND_ROLES } from '@pharmacy/contracts';
import type { UsersTable } from '../../db/schema';
import { defineEntity, type EntityRegistration } from '../sync/registry';
import { writeUser } from './service';

/**
 * Users are head office's: central refuses a pushed one, and a till never sends its local user changes (a
 * password hash never travels from a till to central). A password is changed online, on central.
 */
const userEntity = defineEntity<UsersTable>({
  entity: 'user',
  push: 'central-only',
  keptAtTill: true,
  owner: 'central',
  scope: 'branch',
  label: 'Users',
  rest: [
    { method: 'post', path: '/users' },
    { method: 'put', path: '/users/:userId' },
    { method: 'post', path: '/users/:userId/reset-password' },
  ],
  table: 'users',
  order: 40,
  // Branch-bound users of the device's branch, and every organisation-wide user (userScope).
  snapshotWhere: `branch_id = ? OR role NOT IN (${BRANCH_BOUND_ROLES.map((r) => `'${r}'`).join(', ')})`,
  write: writeUser,
});

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const usersEntities: readonly EntityRegistration[] = [userEntity];
