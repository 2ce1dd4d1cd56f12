import { type AuthzRow, anyRole, only } from '../authz';

/** Who may call each currency route (the authorisation table in src/authz.test.ts). */
export const currencyAuthz: AuthzRow[] = [
  { method: 'GET', path: '/currency', expect: anyRole(200) },
  { method: 'POST', path: '/currency', body: {}, expect: only([], 400) },
  { method: 'PATCH', path: '/currency/XXX', body: { name: 'X' }, expect: only([], 404) },
  { method: 'GET', path: '/currency/branch', expect: anyRole(200) },
  { method: 'GET', path: '/currency/overview', expect: anyRole(200) },
  { method: 'GET', path: '/currency/effective?from=EUR', expect: anyRole(404) },
  { method: 'GET', path: '/currency/rates', expect: anyRole(200) },
  { method: 'POST', path: '/currency/rates', body: {}, expect: only([], 400) },
  { method: 'POST', path: '/currency/rates/check', body: {}, expect: anyRole(400) },
];
