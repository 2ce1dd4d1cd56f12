import { type AuthzRow, anyRole, only } from '../authz';

const COUNTERS = ['pharmacist', 'cashier', 'branch_manager', 'inventory_manager'] as const;

/** Who may call each stockcount route (the authorisation table in src/authz.test.ts). */
export const stockcountAuthz: AuthzRow[] = [
  { method: 'GET', path: '/stockcount', expect: anyRole(200) },
  { method: 'POST', path: '/stockcount/submit', body: {}, expect: only(COUNTERS, 400) },
];
