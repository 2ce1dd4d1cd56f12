import { BRANCH_MANAGERS, OVERSEERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, only } from '../authz';

/** Who may call each users route (the authorisation table in src/authz.test.ts). */
export const usersAuthz: AuthzRow[] = [
  { method: 'GET', path: '/users', expect: only(OVERSEERS, 200) },
  { method: 'POST', path: '/users', body: {}, expect: only(BRANCH_MANAGERS, 400) },
  { method: 'GET', path: '/users/{userId}', expect: only(OVERSEERS, 404) },
  { method: 'PUT', path: '/users/{userId}', body: { full_name: 'X' }, expect: only(BRANCH_MANAGERS, 404) },
  { method: 'POST', path: '/users/{userId}/reset-password', body: {}, expect: only([], 400) },
  { method: 'POST', path: '/users/{userId}/unlock', expect: only(BRANCH_MANAGERS, 404) },
];
