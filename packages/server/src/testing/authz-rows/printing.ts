import { BRANCH_MANAGERS, WORKING_STAFF } from '@pharmacy/contracts/roles';
import { type AuthzRow, anyRole, only } from '../authz';

/** Print jobs are made and cancelled by everyone but the auditor, who only reads (issue 26 L5). */
const JOB_WRITERS = (ok: number) => only(WORKING_STAFF, ok);

/** Who may call each printing route (the authorisation table in src/authz.test.ts). */
export const printingAuthz: AuthzRow[] = [
  { method: 'GET', path: '/printing/printers', expect: anyRole(200) },
  { method: 'POST', path: '/printing/printers', body: {}, expect: only(BRANCH_MANAGERS, 400) },
  {
    method: 'PUT',
    path: '/printing/printers/{printerId}',
    body: { name: 'X' },
    expect: only(BRANCH_MANAGERS, 404),
  },
  { method: 'DELETE', path: '/printing/printers/{printerId}', expect: only(BRANCH_MANAGERS, 404) },
  { method: 'GET', path: '/printing/printers/{printerId}/status', expect: anyRole(404) },
  { method: 'POST', path: '/printing/printers/{printerId}/test', expect: only(BRANCH_MANAGERS, 404) },
  { method: 'POST', path: '/printing/printers/{printerId}/drawer', expect: only(BRANCH_MANAGERS, 404) },
  { method: 'GET', path: '/printing/devices', expect: only(BRANCH_MANAGERS, 200) },
  { method: 'GET', path: '/printing/receipt-templates', expect: anyRole(200) },
  { method: 'POST', path: '/printing/receipt-templates', body: {}, expect: only(BRANCH_MANAGERS, 400) },
  {
    method: 'PUT',
    path: '/printing/receipt-templates/{templateId}',
    body: { name: 'X' },
    expect: only(BRANCH_MANAGERS, 404),
  },
  {
    method: 'POST',
    path: '/printing/receipt-templates/preview',
    body: {},
    expect: only(BRANCH_MANAGERS, 200),
  },
  { method: 'GET', path: '/printing/print-jobs', expect: anyRole(200) },
  { method: 'POST', path: '/printing/print-jobs', body: {}, expect: JOB_WRITERS(400) },
  { method: 'GET', path: '/printing/print-jobs/{jobId}', expect: anyRole(404) },
  { method: 'POST', path: '/printing/print-jobs/{jobId}/reprint', body: {}, expect: JOB_WRITERS(404) },
  { method: 'POST', path: '/printing/print-jobs/{jobId}/cancel', expect: JOB_WRITERS(404) },
];
