import { type AuthzRow, anyRole, only } from '../../testing/authz';

const REPORTERS = ['branch_manager', 'auditor'] as const;

export const reportAuthz: AuthzRow[] = [
  { method: 'GET', path: '/reports/sales', expect: only(REPORTERS, 200) },
  { method: 'GET', path: '/reports/sales/by-pharmacist', expect: only(REPORTERS, 200) },
  { method: 'GET', path: '/reports/inventory', expect: only(REPORTERS, 200) },
  { method: 'GET', path: '/reports/purchases', expect: only(REPORTERS, 200) },
  { method: 'GET', path: '/reports/vat', expect: only(REPORTERS, 200) },
  { method: 'GET', path: '/dashboard/summary', expect: anyRole(200) },
  { method: 'GET', path: '/dashboard/branch-comparison', expect: anyRole(200) },
];
