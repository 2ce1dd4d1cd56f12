import { BRANCH_MANAGERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

/** Who may call each branches route (the authorisation table in src/authz.test.ts). */
export const branchesAuthz: AuthzRow[] = [
  { method: 'GET', path: '/branches', expect: anyRole(200) },
  { method: 'POST', path: '/branches', body: {}, expect: only([], 400) },
  { method: 'GET', path: '/branches/{branchId}', expect: anyRole(404) },
  { method: 'PUT', path: '/branches/{branchId}', body: { name: 'X' }, expect: only(BRANCH_MANAGERS, 404) },
];
