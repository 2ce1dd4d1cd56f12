import { ADMIN_ONLY, BRANCH_MANAGERS } from '@pharmacy/contracts/roles';
import {
  Branch,
  BranchListQuery,
  CreateBranchRequest,
  Id,
  pageOf,
  UpdateBranchRequest,
} from '@pharmacy/contracts';
import { z } from 'zod';
import { assertBranchAccess } from '../../http/auth';
import { created, type ApiRouter } from '../../http/route';
import { actorOf } from '../audit/service';
import { createBranch, getBranch, listBranches, updateBranch } from './service';

const BranchParams = z.object({ branchId: Id });

export function branchRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/branches',
    tag: 'Branches',
    summary: 'List branches',
    description: 'Any signed-in user: tills need branch names for transfers and receipts. Sorted by name.',
    roles: 'any',
    query: BranchListQuery,
    responses: { 200: { description: 'A page of branches', schema: pageOf(Branch) } },
    handler: ({ app, query }) => listBranches(app, query),
  });

  r.route({
    method: 'post',
    path: '/branches',
    tag: 'Branches',
    summary: 'Open a branch',
    description:
      'Admin only. currency_code and timezone default to the organisation settings. Name and code are unique (409).',
    roles: ADMIN_ONLY,
    body: CreateBranchRequest,
    responses: {
      201: { description: 'The branch', schema: Branch },
      409: { description: 'Name or code exists' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await createBranch(app, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'get',
    path: '/branches/:branchId',
    tag: 'Branches',
    summary: 'Read a branch',
    roles: 'any',
    params: BranchParams,
    responses: { 200: { description: 'The branch', schema: Branch }, 404: { description: 'Unknown branch' } },
    handler: ({ app, params }) => getBranch(app, params.branchId),
  });

  r.route({
    method: 'put',
    path: '/branches/:branchId',
    tag: 'Branches',
    summary: 'Update a branch',
    description:
      'Admin, or the branch manager of this branch. Deactivating a branch that still has active users is refused (409). drawer_currencies: the foreign currencies the branch\'s drawers hold (Back office → Branches, "Currencies held in the drawer"): a sale in one of them gives its change in it, any other foreign sale in the base currency; each must be an active currency (400 naming drawer_currencies), duplicates are dropped.',
    roles: BRANCH_MANAGERS,
    params: BranchParams,
    body: UpdateBranchRequest,
    responses: {
      200: { description: 'The branch', schema: Branch },
      403: { description: 'Another branch' },
      404: { description: 'Unknown branch' },
      409: { description: 'Name or code clash, or branch in use' },
    },
    handler: async ({ app, user, params, body, requestId }) => {
      await getBranch(app, params.branchId);
      assertBranchAccess(user, params.branchId, 'branch');
      return updateBranch(app, actorOf(user, requestId), params.branchId, body);
    },
  });
}
