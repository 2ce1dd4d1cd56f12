import { SELLERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

/** Who may call each parked route (the authorisation table in src/authz.test.ts). */
export const parkedAuthz: AuthzRow[] = [
  { method: 'GET', path: '/parked', expect: anyRole(200) },
  { method: 'POST', path: '/parked', body: {}, expect: only(SELLERS, 400) },
  { method: 'POST', path: '/parked/{parkedId}/recall', expect: only(SELLERS, 404) },
  { method: 'POST', path: '/parked/{parkedId}/void', body: {}, expect: only(SELLERS, 400) },
];
