import { SELLERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

const TILL = SELLERS;

/** Who may call each returns route (the authorisation table in src/authz.test.ts). */
export const returnsAuthz: AuthzRow[] = [
  { method: 'GET', path: '/returns/lookup/{invoiceNumber}', expect: anyRole(404) },
  { method: 'GET', path: '/returns', expect: anyRole(200) },
  { method: 'POST', path: '/returns', body: {}, expect: only(TILL, 400) },
  { method: 'GET', path: '/returns/{returnId}', expect: anyRole(404) },
];
