import { STOCK_MANAGERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

const SUPPLIER_WRITERS = STOCK_MANAGERS;

/** Who may call each suppliers route (the authorisation table in src/authz.test.ts). */
export const suppliersAuthz: AuthzRow[] = [
  { method: 'GET', path: '/suppliers', expect: anyRole(200) },
  { method: 'POST', path: '/suppliers', body: {}, expect: only(SUPPLIER_WRITERS, 400) },
  { method: 'GET', path: '/suppliers/{supplierId}', expect: anyRole(404) },
  {
    method: 'PUT',
    path: '/suppliers/{supplierId}',
    body: { name: 'X' },
    expect: only(SUPPLIER_WRITERS, 404),
  },
  { method: 'DELETE', path: '/suppliers/{supplierId}', expect: only(SUPPLIER_WRITERS, 404) },
];
