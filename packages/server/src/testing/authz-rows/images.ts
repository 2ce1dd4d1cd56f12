import { STOCK_MANAGERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

/** Who may call each images route (the authorisation table in src/authz.test.ts). */
export const imagesAuthz: AuthzRow[] = [
  { method: 'POST', path: '/images/medicines/upload-url', body: {}, expect: only(STOCK_MANAGERS, 400) },
  {
    method: 'POST',
    path: '/images/medicines/{medicineId}/image',
    body: {},
    expect: only(STOCK_MANAGERS, 400),
  },
  { method: 'POST', path: '/images/branding/upload-url', body: {}, expect: only([], 400) },
  { method: 'PUT', path: '/images/branding/logo', body: {}, expect: only([], 400) },
  { method: 'GET', path: '/images/branding/logo', expect: anyRole(200) },
  // Signed-URL blob endpoints: public, the signature authorises; a malformed path is 400 for everybody.
  { method: 'PUT', path: '/images/blob/{prefix}/{file}', expect: { ...anyRole(400), anonymous: 400 } },
  { method: 'GET', path: '/images/blob/{prefix}/{file}', expect: { ...anyRole(400), anonymous: 400 } },
];
