import type { EntityRegistration } from '../sync/registry';

/** Categories: central-owned catalogue, every till; the change payload is the row (generic upsert/delete). */
const categoryEntity: EntityRegistration = {
  entity: 'category',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  label: 'Categories',
  rest: [
    { method: 'post', path: '/categories' },
    { method: 'put', path: '/categories/:slug' },
    { method: 'delete', path: '/categories/:slug' },
  ],
  table: 'categories',
  order: 55,
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const categoriesEntities: readonly EntityRegistration[] = [categoryEntity];
