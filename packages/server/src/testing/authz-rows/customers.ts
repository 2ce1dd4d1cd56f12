import { CUSTOMER_COUNTER } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

const TILL = CUSTOMER_COUNTER;

/** Who may call each customers route (the authorisation table in src/authz.test.ts). */
export const customersAuthz: AuthzRow[] = [
  { method: 'GET', path: '/customers', expect: anyRole(200) },
  { method: 'POST', path: '/customers', body: {}, expect: only(TILL, 400) },
  { method: 'GET', path: '/customers/possible-duplicates', expect: anyRole(200) },
  { method: 'GET', path: '/customers/{customerId}', expect: anyRole(404) },
  { method: 'PUT', path: '/customers/{customerId}', body: { notes: 'x' }, expect: only(TILL, 404) },
  { method: 'GET', path: '/customers/{customerId}/ledger', expect: anyRole(404) },
  { method: 'POST', path: '/customers/{customerId}/payments', body: {}, expect: only(TILL, 400) },
];
