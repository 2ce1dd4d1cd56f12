import { type AuthzRow, anyRole, only } from '../../testing/authz';

const TILL = ['cashier', 'pharmacist', 'branch_manager'] as const;

/** Sessions, sales, returns, parked carts, coupons, customers. */
export const sellingAuthz: AuthzRow[] = [
  { method: 'POST', path: '/sessions/open', body: {}, expect: only(TILL, 400) },
  { method: 'GET', path: '/sessions/current', expect: anyRole(404) },
  { method: 'GET', path: '/sessions/history', expect: anyRole(200) },
  { method: 'POST', path: '/sessions/break/start', expect: only(TILL, 409) },
  { method: 'POST', path: '/sessions/break/end', expect: only(TILL, 409) },
  { method: 'POST', path: '/sessions/close', body: {}, expect: only(TILL, 400) },
  { method: 'POST', path: '/sessions/tender', body: {}, expect: only(TILL, 400) },
  { method: 'GET', path: '/sessions/tender/history', expect: anyRole(200) },
  { method: 'GET', path: '/sessions/{sessionId}/sales', expect: anyRole(404) },
  { method: 'GET', path: '/sessions/{sessionId}/z-report', expect: anyRole(404) },
  { method: 'GET', path: '/sales', expect: anyRole(200) },
  { method: 'POST', path: '/sales', body: {}, expect: only(TILL, 400) },
  { method: 'GET', path: '/sales/{saleId}', expect: anyRole(404) },
  { method: 'GET', path: '/sales/{saleId}/invoice', expect: anyRole(404) },
  { method: 'GET', path: '/returns/lookup/{invoiceNumber}', expect: anyRole(404) },
  { method: 'GET', path: '/returns', expect: anyRole(200) },
  { method: 'POST', path: '/returns', body: {}, expect: only(TILL, 400) },
  { method: 'GET', path: '/returns/{returnId}', expect: anyRole(404) },
  { method: 'GET', path: '/parked', expect: anyRole(200) },
  { method: 'POST', path: '/parked', body: {}, expect: only(TILL, 400) },
  { method: 'POST', path: '/parked/{parkedId}/recall', expect: only(TILL, 404) },
  { method: 'POST', path: '/parked/{parkedId}/void', body: {}, expect: only(TILL, 400) },
  { method: 'GET', path: '/coupons/validate/{code}', expect: anyRole(404) },
  { method: 'GET', path: '/coupons', expect: only(['branch_manager', 'auditor'], 200) },
  { method: 'POST', path: '/coupons', body: {}, expect: only(['branch_manager'], 400) },
  {
    method: 'PUT',
    path: '/coupons/{couponId}',
    body: { description: 'x' },
    expect: only(['branch_manager'], 404),
  },
  { method: 'GET', path: '/customers', expect: anyRole(200) },
  { method: 'POST', path: '/customers', body: {}, expect: only(TILL, 400) },
  { method: 'GET', path: '/customers/{customerId}', expect: anyRole(404) },
  { method: 'PUT', path: '/customers/{customerId}', body: { notes: 'x' }, expect: only(TILL, 404) },
  { method: 'GET', path: '/customers/{customerId}/ledger', expect: anyRole(404) },
  { method: 'POST', path: '/customers/{customerId}/payments', body: {}, expect: only(TILL, 400) },
];
