import { BRANCH_MANAGERS, STOCK_MANAGERS, STOCK_READERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, only } from '../authz';

const READERS = STOCK_READERS;
const WRITERS = STOCK_MANAGERS;

/** Who may call each supplier-finance route (the authorisation table in src/authz.test.ts). */
export const supplierFinanceAuthz: AuthzRow[] = [
  { method: 'GET', path: '/supplier-finance/invoices', expect: only(READERS, 200) },
  { method: 'POST', path: '/supplier-finance/invoices', body: {}, expect: only(WRITERS, 400) },
  {
    method: 'GET',
    path: '/supplier-finance/invoices/{invoiceId}/payments',
    expect: only(READERS, 404),
  },
  {
    method: 'POST',
    path: '/supplier-finance/invoices/{invoiceId}/payments',
    body: { amount: 1 },
    expect: only(BRANCH_MANAGERS, 404),
  },
  { method: 'GET', path: '/supplier-finance/reorder-suggestions', expect: only(READERS, 200) },
  {
    method: 'POST',
    path: '/supplier-finance/batches/{batchId}/quarantine',
    body: { status: 'quarantined' },
    expect: only(WRITERS, 404),
  },
];
