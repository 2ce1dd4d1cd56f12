import type { BranchesTable } from '../../db/schema';
import { defineEntity, type EntityRegistration } from '../sync/registry';
import { writeBranch } from './service';

const branchEntity = defineEntity<BranchesTable>({
  entity: 'branch',
  push: 'central-only',
  owner: 'central',
  scope: 'organisation',
  label: 'Branches',
  rest: [
    { method: 'post', path: '/branches' },
    { method: 'put', path: '/branches/:branchId' },
  ],
  table: 'branches',
  order: 20,
  write: writeBranch,
});

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const branchesEntities: readonly EntityRegistration[] = [branchEntity];
