import { WORKING_STAFF } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

const COUNTERS = WORKING_STAFF;

/** Who may call each route of the stock-counts area, /stockcount… (the authorisation table in src/authz.test.ts). */
export const stockCountsAuthz: AuthzRow[] = [
  { method: 'GET', path: '/stockcount', expect: anyRole(200) },
  { method: 'POST', path: '/stockcount/submit', body: {}, expect: only(COUNTERS, 400) },
];
