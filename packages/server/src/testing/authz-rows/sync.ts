import { type AuthzRow, anyRole, only } from '../authz';

/** Who may call each sync route (the authorisation table in src/authz.test.ts). */
export const syncAuthz: AuthzRow[] = [
  { method: 'POST', path: '/sync/devices/register', body: {}, expect: only(['branch_manager'], 400) },
  {
    method: 'POST',
    path: '/sync/push',
    body: {},
    expect: only(['cashier', 'pharmacist', 'branch_manager', 'inventory_manager'], 400),
  },
  { method: 'GET', path: '/sync/pull', expect: only([], 400) },
  { method: 'GET', path: '/sync/snapshot', expect: only([], 400) },
  { method: 'GET', path: '/sync/conflicts', expect: only(['branch_manager', 'auditor'], 200) },
  {
    method: 'POST',
    path: '/sync/conflicts/{id}/resolve',
    body: { resolution: 'keep_central' },
    expect: only(['branch_manager'], 404),
  },
  { method: 'GET', path: '/sync/status', expect: anyRole(200) },
  { method: 'POST', path: '/sync/connect/branches', body: {}, expect: only(['branch_manager'], 400) },
  { method: 'POST', path: '/sync/connect', body: {}, expect: only(['branch_manager'], 400) },
  { method: 'POST', path: '/sync/now', expect: only(['branch_manager'], 409) },
  { method: 'GET', path: '/sync/connect/held-records', expect: only(['branch_manager'], 200) },
  { method: 'POST', path: '/sync/connect/archive', expect: only(['branch_manager'], 200) },
  { method: 'POST', path: '/sync/disconnect', body: {}, expect: only([], 400) },
];
