import { type AuthzRow, anyRole, only } from '../authz';

const TILL = ['cashier', 'pharmacist', 'branch_manager'] as const;

/** Who may call each parked route (the authorisation table in src/authz.test.ts). */
export const parkedAuthz: AuthzRow[] = [
  { method: 'GET', path: '/parked', expect: anyRole(200) },
  { method: 'POST', path: '/parked', body: {}, expect: only(TILL, 400) },
  { method: 'POST', path: '/parked/{parkedId}/recall', expect: only(TILL, 404) },
  { method: 'POST', path: '/parked/{parkedId}/void', body: {}, expect: only(TILL, 400) },
];
