import { BRANCH_MANAGERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

/** Who may call each scanners route (the authorisation table in src/authz.test.ts). */
export const scannersAuthz: AuthzRow[] = [
  { method: 'GET', path: '/scanners', expect: anyRole(200) },
  { method: 'GET', path: '/scanners/events', expect: anyRole(200) },
  { method: 'POST', path: '/scanners/classify', body: {}, expect: anyRole(400) },
  { method: 'PUT', path: '/scanners', body: { scanners: 'x' }, expect: only(BRANCH_MANAGERS, 400) },
];
