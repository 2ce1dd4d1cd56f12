import { CUSTOMER_COUNTER, DISPENSERS, WILL_CALL_HANDLERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

/** Who may call each dispensing route (the authorisation table in src/authz.test.ts). */
export const dispensingAuthz: AuthzRow[] = [
  { method: 'GET', path: '/dispensing/will-call', expect: anyRole(200) },
  { method: 'POST', path: '/dispensing/will-call', body: {}, expect: only(DISPENSERS, 400) },
  {
    method: 'PUT',
    path: '/dispensing/will-call/{willCallId}/pickup',
    body: { name: 'Asha', relationship: 'self' },
    expect: only(WILL_CALL_HANDLERS, 404),
  },
  {
    method: 'POST',
    path: '/dispensing/will-call/{willCallId}/return',
    body: { reason: 'Not collected' },
    expect: only(DISPENSERS, 404),
  },
  { method: 'GET', path: '/dispensing/generic-search?generic_name=paracetamol', expect: anyRole(200) },
  { method: 'GET', path: '/dispensing/refills', expect: anyRole(200) },
  {
    method: 'POST',
    path: '/dispensing/refills',
    body: {},
    expect: only(CUSTOMER_COUNTER, 400),
  },
];
