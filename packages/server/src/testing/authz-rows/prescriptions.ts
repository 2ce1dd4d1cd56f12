import { DISPENSERS, PRESCRIPTION_CANCELLERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

/** Who may call each prescriptions route (the authorisation table in src/authz.test.ts). */
export const prescriptionsAuthz: AuthzRow[] = [
  { method: 'POST', path: '/prescriptions', body: {}, expect: only(DISPENSERS, 400) },
  { method: 'GET', path: '/prescriptions', expect: anyRole(200) },
  { method: 'GET', path: '/prescriptions/{prescriptionId}', expect: anyRole(404) },
  {
    method: 'POST',
    path: '/prescriptions/{prescriptionId}/dispense',
    body: {},
    expect: only(DISPENSERS, 404),
  },
  {
    method: 'POST',
    path: '/prescriptions/{prescriptionId}/cancel',
    body: {},
    expect: only(PRESCRIPTION_CANCELLERS, 404),
  },
];
