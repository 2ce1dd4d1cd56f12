import { testingOnPostgres } from '../harness';
import { BRANCH_MANAGERS, OVERSEERS, SYNC_PUSHERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

const tillAnswer = testingOnPostgres() ? 409 : 200;

/** Who may call each sync route (the authorisation table in src/authz.test.ts). */
export const syncAuthz: AuthzRow[] = [
  { method: 'POST', path: '/sync/devices/register', body: {}, expect: only(BRANCH_MANAGERS, 400) },
  {
    method: 'POST',
    path: '/sync/push',
    body: {},
    expect: only(SYNC_PUSHERS, 400),
  },
  { method: 'GET', path: '/sync/pull', expect: only([], 400) },
  { method: 'GET', path: '/sync/snapshot', expect: only([], 400) },
  { method: 'GET', path: '/sync/conflicts', expect: only(OVERSEERS, 200) },
  {
    method: 'POST',
    path: '/sync/conflicts/{id}/resolve',
    body: { resolution: 'keep_central' },
    expect: only(BRANCH_MANAGERS, 404),
  },
  { method: 'GET', path: '/sync/status', expect: anyRole(200) },
  { method: 'POST', path: '/sync/connect/branches', body: {}, expect: only(BRANCH_MANAGERS, 400) },
  { method: 'POST', path: '/sync/connect', body: {}, expect: only(BRANCH_MANAGERS, 400) },
  { method: 'POST', path: '/sync/now', expect: only(BRANCH_MANAGERS, 409) },
  // A till's own records: the PostgreSQL run's server is a central, which has none (409 CENTRAL_MODE).
  { method: 'GET', path: '/sync/connect/held-records', expect: only(BRANCH_MANAGERS, tillAnswer) },
  { method: 'POST', path: '/sync/connect/archive', expect: only(BRANCH_MANAGERS, tillAnswer) },
  { method: 'POST', path: '/sync/disconnect', body: {}, expect: only([], 400) },
];
