import { SELLERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

/** Who may call each sessions route (the authorisation table in src/authz.test.ts). */
export const sessionsAuthz: AuthzRow[] = [
  { method: 'POST', path: '/sessions/open', body: {}, expect: only(SELLERS, 400) },
  { method: 'GET', path: '/sessions/current', expect: anyRole(404) },
  { method: 'GET', path: '/sessions/history', expect: anyRole(200) },
  { method: 'POST', path: '/sessions/break/start', expect: only(SELLERS, 409) },
  { method: 'POST', path: '/sessions/break/end', expect: only(SELLERS, 409) },
  { method: 'POST', path: '/sessions/close', body: {}, expect: only(SELLERS, 400) },
  { method: 'POST', path: '/sessions/tender', body: {}, expect: only(SELLERS, 400) },
  { method: 'GET', path: '/sessions/tender/history', expect: anyRole(200) },
  { method: 'GET', path: '/sessions/{sessionId}/sales', expect: anyRole(404) },
  { method: 'GET', path: '/sessions/{sessionId}/z-report', expect: anyRole(404) },
];
