import { registerEntity } from '../sync/registry';

/**
 * Medicines: central-owned catalogue and prices, every till; the change payload is the row. The generic upsert
 * (ON CONFLICT DO UPDATE) fires the FTS triggers, so search follows. Parent: categories (by slug, order 55).
 */
registerEntity({
  entity: 'medicine',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  table: 'medicines',
  order: 60,
});
