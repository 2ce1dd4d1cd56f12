import type { Db } from '../../db/connection';
import { Invalid, NotFound } from '../../lib/errors';

/**
 * The branch a write names, which must exist (404) and be active (400, on `field`): receiving, transfers,
 * stock counts, prescriptions, dispensing and purchase orders take nothing into an inactive branch.
 */
export async function requireActiveBranch(db: Db, branchId: string, field = 'branch_id') {
  const branch = await db
    .selectFrom('branches')
    .select(['id', 'name', 'is_active', 'timezone'])
    .where('id', '=', branchId)
    .executeTakeFirst();
  if (!branch) throw new NotFound('Branch', branchId);
  if (!branch.is_active)
    throw new Invalid(`Branch ${branch.name} is inactive.`, [{ path: field, message: 'inactive branch' }]);
  return branch;
}
