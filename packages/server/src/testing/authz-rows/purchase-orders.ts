import { BRANCH_MANAGERS, STOCK_MANAGERS, STOCK_READERS } from '@pharmacy/contracts/roles';
import { type AuthzRow, only } from '../authz';

const RECEIVERS = STOCK_MANAGERS;
const READERS = STOCK_READERS;
const RECEIVE_BODY = {
  items: [
    {
      medicine_id: '00000000-0000-4000-8000-000000000000',
      received_qty: 1,
      batch_number: 'B1',
      expiry_date: '2099-01-01',
    },
  ],
};

/** Who may call each purchase-orders route (the authorisation table in src/authz.test.ts). */
export const purchaseOrdersAuthz: AuthzRow[] = [
  { method: 'GET', path: '/purchase-orders', expect: only(READERS, 200) },
  { method: 'POST', path: '/purchase-orders', body: {}, expect: only(BRANCH_MANAGERS, 400) },
  { method: 'GET', path: '/purchase-orders/suggested', expect: only(READERS, 200) },
  { method: 'GET', path: '/purchase-orders/{purchaseOrderId}', expect: only(READERS, 404) },
  {
    method: 'PUT',
    path: '/purchase-orders/{purchaseOrderId}/status',
    body: { status: 'SENT' },
    expect: only(BRANCH_MANAGERS, 404),
  },
  {
    method: 'POST',
    path: '/purchase-orders/{purchaseOrderId}/receive',
    body: RECEIVE_BODY,
    expect: only(RECEIVERS, 404),
  },
];
