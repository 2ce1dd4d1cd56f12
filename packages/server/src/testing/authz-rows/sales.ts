import { SELLERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

/** Who may call each sales route (the authorisation table in src/authz.test.ts). */
export const salesAuthz: AuthzRow[] = [
  { method: 'GET', path: '/sales', expect: anyRole(200) },
  { method: 'POST', path: '/sales', body: {}, expect: only(SELLERS, 400) },
  { method: 'GET', path: '/sales/{saleId}', expect: anyRole(404) },
  { method: 'GET', path: '/sales/{saleId}/invoice', expect: anyRole(404) },
  { method: 'GET', path: '/sales/{saleId}/receipt', expect: anyRole(404) },
];
