import { CATALOGUE_EDITORS, CONTROLLED_REGISTRY_READERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

const CATALOGUE = CATALOGUE_EDITORS;

/** Who may call each medicines route (the authorisation table in src/authz.test.ts). */
export const medicinesAuthz: AuthzRow[] = [
  { method: 'GET', path: '/medicines', expect: anyRole(200) },
  { method: 'POST', path: '/medicines', body: {}, expect: only(CATALOGUE, 400) },
  { method: 'GET', path: '/medicines/barcode/{code}', expect: anyRole(404) },
  { method: 'GET', path: '/medicines/controlled/registry', expect: only(CONTROLLED_REGISTRY_READERS, 200) },
  { method: 'GET', path: '/medicines/{medicineId}', expect: anyRole(404) },
  { method: 'PUT', path: '/medicines/{medicineId}', body: { name: 'X' }, expect: only(CATALOGUE, 404) },
  { method: 'DELETE', path: '/medicines/{medicineId}', expect: only(CATALOGUE, 404) },
  { method: 'GET', path: '/medicines/{medicineId}/movements', expect: anyRole(404) },
];
