import type { EntityRegistration } from '../sync/registry';

/** Supplier invoices and their payments: central-owned, scoped to the invoice's branch, parents first. */
const supplierInvoiceEntity: EntityRegistration = {
  entity: 'supplier_invoice',
  push: 'central-only',
  owner: 'central',
  scope: 'branch',
  label: 'Supplier invoices',
  rest: [
    { method: 'post', path: '/supplier-finance/invoices' },
    { method: 'post', path: '/supplier-finance/invoices/:invoiceId/payments' },
  ],
  table: 'supplier_invoices',
  order: 410,
};
const supplierPaymentEntity: EntityRegistration = {
  entity: 'supplier_payment',
  push: 'central-only',
  owner: 'central',
  scope: 'branch',
  label: 'Supplier payments',
  rest: [{ method: 'post', path: '/supplier-finance/invoices/:invoiceId/payments' }],
  table: 'supplier_payments',
  order: 411,
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const supplierFinanceEntities: readonly EntityRegistration[] = [
  supplierInvoiceEntity,
  supplierPaymentEntity,
];
