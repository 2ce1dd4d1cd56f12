import { type AuthzRow, anyRole, only } from '../authz';

const RECEIVERS = ['inventory_manager', 'branch_manager', 'pharmacist'] as const;
const STOCK_MANAGERS = ['inventory_manager', 'branch_manager'] as const;

/** Who may call each purchases route (the authorisation table in src/authz.test.ts). */
export const purchasesAuthz: AuthzRow[] = [
  { method: 'GET', path: '/purchases', expect: anyRole(200) },
  { method: 'POST', path: '/purchases', body: {}, expect: only(RECEIVERS, 400) },
  { method: 'GET', path: '/purchases/expiring', expect: anyRole(200) },
  { method: 'GET', path: '/purchases/movements/all', expect: anyRole(200) },
  { method: 'GET', path: '/purchases/{batchId}', expect: anyRole(404) },
  {
    method: 'PUT',
    path: '/purchases/{batchId}/write-off',
    body: { quantity: 1, reason: 'damaged' },
    expect: only(STOCK_MANAGERS, 404),
  },
];
