import type { BranchesTable } from '../../db/schema';
import type { EntityRegistration } from '../sync/registry';
import { writeBranch } from './service';

const branchEntity: EntityRegistration = {
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
  write: (trx, payload) => writeBranch(trx, payload as unknown as BranchesTable),
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const branchesEntities: readonly EntityRegistration[] = [branchEntity];
