import type { EntityRegistration } from '../sync/registry';

/** Suppliers: central-owned, every till (batches name them); the change payload is the row. */
const supplierEntity: EntityRegistration = {
  entity: 'supplier',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  label: 'Suppliers',
  rest: [
    { method: 'post', path: '/suppliers' },
    { method: 'put', path: '/suppliers/:supplierId' },
    { method: 'delete', path: '/suppliers/:supplierId' },
  ],
  table: 'suppliers',
  order: 65,
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const suppliersEntities: readonly EntityRegistration[] = [supplierEntity];
