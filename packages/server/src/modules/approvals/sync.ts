import { registerEntity } from '../sync/registry';

/**
 * Approvals are asked, decided and used at a branch (often all on one till, offline): till-owned and
 * branch-scoped, so central keeps the record and the branch's other tills see the decision.
 */
registerEntity({ entity: 'approval', owner: 'till', scope: 'branch', table: 'approvals', order: 420 });
