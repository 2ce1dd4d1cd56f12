import { BOOK_READERS, BRANCH_MANAGERS, FISCAL_READERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, only } from '../authz';

/** Who may call each compliance route (the authorisation table in src/authz.test.ts). */
export const complianceAuthz: AuthzRow[] = [
  {
    method: 'GET',
    path: '/compliance/prescription-book',
    expect: only(BOOK_READERS, 200),
  },
  {
    method: 'GET',
    path: '/compliance/classified-drugs-book',
    expect: only(BOOK_READERS, 200),
  },
  {
    method: 'GET',
    path: '/compliance/fiscal-preview/{saleId}',
    expect: only(FISCAL_READERS, 404),
  },
  { method: 'GET', path: '/compliance/devices', expect: only(BRANCH_MANAGERS, 200) },
  { method: 'POST', path: '/compliance/devices/{deviceId}/revoke', expect: only(BRANCH_MANAGERS, 404) },
  { method: 'POST', path: '/compliance/devices/{deviceId}/restore', expect: only(BRANCH_MANAGERS, 404) },
];
