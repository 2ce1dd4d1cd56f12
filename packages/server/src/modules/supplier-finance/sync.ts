import { registerEntity } from '../sync/registry';

/** Supplier invoices and their payments: central-owned, scoped to the invoice's branch, parents first. */
registerEntity({
  entity: 'supplier_invoice',
  push: 'central-only',
  owner: 'central',
  scope: 'branch',
  table: 'supplier_invoices',
  order: 410,
});
registerEntity({
  entity: 'supplier_payment',
  push: 'central-only',
  owner: 'central',
  scope: 'branch',
  table: 'supplier_payments',
  order: 411,
});
