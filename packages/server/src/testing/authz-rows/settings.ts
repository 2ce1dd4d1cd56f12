import { type AuthzRow, anyRole, only } from '../authz';

/** Who may call each settings route (the authorisation table in src/authz.test.ts). */
export const settingsAuthz: AuthzRow[] = [
  { method: 'GET', path: '/settings', expect: anyRole(200) },
  { method: 'PUT', path: '/settings', body: {}, expect: only([], 400) },
];
