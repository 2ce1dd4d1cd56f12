import type { EntityRegistration } from '../sync/registry';

/**
 * Medicines: central-owned catalogue and prices, every till; the change payload is the row. The generic upsert
 * (ON CONFLICT DO UPDATE) fires the FTS triggers, so search follows. Parent: categories (by slug, order 55).
 */
const medicineEntity: EntityRegistration = {
  entity: 'medicine',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  label: 'Medicines',
  rest: [
    { method: 'post', path: '/medicines' },
    { method: 'put', path: '/medicines/:medicineId' },
    { method: 'delete', path: '/medicines/:medicineId' },
    { method: 'post', path: '/images/medicines/:medicineId/image', atConnectedTill: 'refused' },
  ],
  table: 'medicines',
  order: 60,
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const medicinesEntities: readonly EntityRegistration[] = [medicineEntity];
