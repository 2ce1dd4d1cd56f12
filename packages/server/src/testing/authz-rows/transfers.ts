import { STOCK_MANAGERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

/** Who may call each transfers route (the authorisation table in src/authz.test.ts). */
export const transfersAuthz: AuthzRow[] = [
  { method: 'GET', path: '/transfers', expect: anyRole(200) },
  { method: 'POST', path: '/transfers', body: {}, expect: only(STOCK_MANAGERS, 400) },
  { method: 'POST', path: '/transfers/batch', body: {}, expect: only(STOCK_MANAGERS, 400) },
  { method: 'GET', path: '/transfers/{id}', expect: anyRole(404) },
  { method: 'POST', path: '/transfers/{id}/receive', body: { lines: 1 }, expect: only(STOCK_MANAGERS, 400) },
  { method: 'POST', path: '/transfers/{id}/cancel', body: { reason: 1 }, expect: only(STOCK_MANAGERS, 400) },
];
