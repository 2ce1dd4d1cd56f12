import { CATALOGUE_EDITORS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

const CATALOGUE = CATALOGUE_EDITORS;

/** Who may call each categories route (the authorisation table in src/authz.test.ts). */
export const categoriesAuthz: AuthzRow[] = [
  { method: 'GET', path: '/categories', expect: anyRole(200) },
  { method: 'POST', path: '/categories', body: {}, expect: only(CATALOGUE, 400) },
  { method: 'PUT', path: '/categories/{slug}', body: { name: 'X' }, expect: only(CATALOGUE, 404) },
  { method: 'DELETE', path: '/categories/{slug}', expect: only(CATALOGUE, 404) },
];
