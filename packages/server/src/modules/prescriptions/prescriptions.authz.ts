import { type AuthzRow, anyRole, only } from '../../testing/authz';

/** Prescriptions, dispensing and compliance books (unknown ids are random UUIDs). */
export const prescriptionsAuthz: AuthzRow[] = [
  { method: 'POST', path: '/prescriptions', body: {}, expect: only(['pharmacist'], 400) },
  { method: 'GET', path: '/prescriptions', expect: anyRole(200) },
  { method: 'GET', path: '/prescriptions/{prescriptionId}', expect: anyRole(404) },
  {
    method: 'POST',
    path: '/prescriptions/{prescriptionId}/dispense',
    body: {},
    expect: only(['pharmacist'], 404),
  },
  {
    method: 'POST',
    path: '/prescriptions/{prescriptionId}/cancel',
    body: {},
    expect: only(['pharmacist', 'branch_manager'], 404),
  },
  { method: 'GET', path: '/dispensing/will-call', expect: anyRole(200) },
  { method: 'POST', path: '/dispensing/will-call', body: {}, expect: only(['pharmacist'], 400) },
  {
    method: 'PUT',
    path: '/dispensing/will-call/{willCallId}/pickup',
    body: { name: 'Asha', relationship: 'self' },
    expect: only(['pharmacist', 'cashier'], 404),
  },
  { method: 'GET', path: '/dispensing/generic-search?generic_name=paracetamol', expect: anyRole(200) },
  { method: 'GET', path: '/dispensing/refills', expect: anyRole(200) },
  {
    method: 'POST',
    path: '/dispensing/refills',
    body: {},
    expect: only(['pharmacist', 'cashier', 'branch_manager'], 400),
  },
  {
    method: 'GET',
    path: '/compliance/prescription-book',
    expect: only(['pharmacist', 'branch_manager', 'auditor'], 200),
  },
  {
    method: 'GET',
    path: '/compliance/classified-drugs-book',
    expect: only(['pharmacist', 'branch_manager', 'auditor'], 200),
  },
  {
    method: 'GET',
    path: '/compliance/fiscal-preview/{saleId}',
    expect: only(['cashier', 'pharmacist', 'branch_manager', 'auditor'], 404),
  },
];
