import { type AuthzRow, anyRole } from '../authz';

/** Who may call each openapi route (the authorisation table in src/authz.test.ts). */
export const openapiAuthz: AuthzRow[] = [
  { method: 'GET', path: '/openapi.json', expect: { ...anyRole(200), anonymous: 200 } },
  { method: 'GET', path: '/docs', expect: { ...anyRole(200), anonymous: 200 } },
];
