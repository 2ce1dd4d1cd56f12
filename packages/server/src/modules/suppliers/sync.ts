import { registerEntity } from '../sync/registry';

/** Suppliers: central-owned, every till (batches name them); the change payload is the row. */
registerEntity({
  entity: 'supplier',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  table: 'suppliers',
  order: 65,
});
