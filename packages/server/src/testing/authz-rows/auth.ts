import { type AuthzRow, anyRole } from '../authz';

/** Who may call each auth route (the authorisation table in src/authz.test.ts). */
export const authAuthz: AuthzRow[] = [
  { method: 'POST', path: '/auth/login', body: {}, expect: { ...anyRole(400), anonymous: 400 } },
  { method: 'GET', path: '/auth/me', expect: anyRole(200) },
  { method: 'POST', path: '/auth/change-password', body: {}, expect: anyRole(400) },
  { method: 'POST', path: '/auth/refresh', expect: anyRole(200), spendsToken: true },
  { method: 'POST', path: '/auth/logout', expect: anyRole(204), spendsToken: true },
];
