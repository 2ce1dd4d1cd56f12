import { OVERSEERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, only } from '../authz';

const REPORTERS = OVERSEERS;

/** Who may call each reports route (the authorisation table in src/authz.test.ts). */
export const reportsAuthz: AuthzRow[] = [
  { method: 'GET', path: '/reports/sales', expect: only(REPORTERS, 200) },
  { method: 'GET', path: '/reports/sales/by-pharmacist', expect: only(REPORTERS, 200) },
  { method: 'GET', path: '/reports/inventory', expect: only(REPORTERS, 200) },
  { method: 'GET', path: '/reports/purchases', expect: only(REPORTERS, 200) },
  { method: 'GET', path: '/reports/vat', expect: only(REPORTERS, 200) },
];
