import { registerEntity } from '../sync/registry';

/** Categories: central-owned catalogue, every till; the change payload is the row (generic upsert/delete). */
registerEntity({
  entity: 'category',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  table: 'categories',
  order: 55,
});
