import { type AuthzRow, anyRole } from '../authz';

/** Who may call each alerts route (the authorisation table in src/authz.test.ts). */
export const alertsAuthz: AuthzRow[] = [
  { method: 'GET', path: '/alerts/low-stock', expect: anyRole(200) },
  { method: 'GET', path: '/alerts/expiry', expect: anyRole(200) },
  { method: 'GET', path: '/alerts/expired', expect: anyRole(200) },
];
