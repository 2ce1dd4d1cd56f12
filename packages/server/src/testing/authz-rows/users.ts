import { type AuthzRow, only } from '../authz';

/** Who may call each users route (the authorisation table in src/authz.test.ts). */
export const usersAuthz: AuthzRow[] = [
  { method: 'GET', path: '/users', expect: only(['branch_manager', 'auditor'], 200) },
  { method: 'POST', path: '/users', body: {}, expect: only(['branch_manager'], 400) },
  { method: 'GET', path: '/users/{userId}', expect: only(['branch_manager', 'auditor'], 404) },
  { method: 'PUT', path: '/users/{userId}', body: { full_name: 'X' }, expect: only(['branch_manager'], 404) },
  { method: 'POST', path: '/users/{userId}/reset-password', body: {}, expect: only([], 400) },
  { method: 'POST', path: '/users/{userId}/unlock', expect: only(['branch_manager'], 404) },
];
