import { type AuthzRow, anyRole, only } from '../../testing/authz';

export const approvalAuthz: AuthzRow[] = [
  { method: 'GET', path: '/approvals', expect: anyRole(200) },
  { method: 'POST', path: '/approvals', body: {}, expect: anyRole(400, { auditor: 403 }) },
  {
    method: 'PUT',
    path: '/approvals/{approvalId}',
    body: { status: 'approved', reason: 'ok' },
    expect: only(['branch_manager'], 404),
  },
];
