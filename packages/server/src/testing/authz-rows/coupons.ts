import { BRANCH_MANAGERS, OVERSEERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

/** Who may call each coupons route (the authorisation table in src/authz.test.ts). */
export const couponsAuthz: AuthzRow[] = [
  { method: 'GET', path: '/coupons/validate/{code}', expect: anyRole(404) },
  { method: 'GET', path: '/coupons', expect: only(OVERSEERS, 200) },
  { method: 'POST', path: '/coupons', body: {}, expect: only(BRANCH_MANAGERS, 400) },
  {
    method: 'PUT',
    path: '/coupons/{couponId}',
    body: { description: 'x' },
    expect: only(BRANCH_MANAGERS, 404),
  },
];
