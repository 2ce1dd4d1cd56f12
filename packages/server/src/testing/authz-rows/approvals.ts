import { APPROVAL_DECIDERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

/** Who may call each approvals route (the authorisation table in src/authz.test.ts). */
export const approvalsAuthz: AuthzRow[] = [
  { method: 'GET', path: '/approvals', expect: anyRole(200) },
  { method: 'POST', path: '/approvals', body: {}, expect: anyRole(400, { auditor: 403 }) },
  {
    method: 'PUT',
    path: '/approvals/{approvalId}',
    body: { status: 'approved', reason: 'ok' },
    expect: only(APPROVAL_DECIDERS, 404),
  },
  {
    method: 'POST',
    path: '/approvals/{approvalId}/override',
    body: { email: 'manager@example.com', password: 'not-checked' },
    expect: anyRole(404, { auditor: 403 }),
  },
];
