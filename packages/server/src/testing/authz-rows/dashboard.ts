import { type AuthzRow, anyRole } from '../authz';

/** Who may call each dashboard route (the authorisation table in src/authz.test.ts). */
export const dashboardAuthz: AuthzRow[] = [
  { method: 'GET', path: '/dashboard/summary', expect: anyRole(200) },
  { method: 'GET', path: '/dashboard/branch-comparison', expect: anyRole(200) },
];
