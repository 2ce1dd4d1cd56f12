import { OVERSEERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, only } from '../authz';

/** Who may call each audit route (the authorisation table in src/authz.test.ts). */
export const auditAuthz: AuthzRow[] = [
  { method: 'GET', path: '/audit', expect: only(OVERSEERS, 200) },
  { method: 'GET', path: '/audit/{auditId}', expect: only(OVERSEERS, 404) },
];
