import { BATCH_RECEIVERS, STOCK_MANAGERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

const RECEIVERS = BATCH_RECEIVERS;

/** Who may call each route of the batches area, /purchases… (the authorisation table in src/authz.test.ts). */
export const batchesAuthz: AuthzRow[] = [
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
