import { type AuthzRow, anyRole } from '../authz';

/** Who may call each marketing route (the authorisation table in src/authz.test.ts). */
export const marketingAuthz: AuthzRow[] = [
  { method: 'POST', path: '/marketing/contact', body: {}, expect: { ...anyRole(400), anonymous: 400 } },
];
