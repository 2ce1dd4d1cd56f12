import { CashSessionPayload, TenderDeclarationPayload } from '@pharmacy/contracts';
import type { EntityRegistration } from '../sync/registry';

/**
 * Cash sessions and tender declarations: created at a till, branch scope. A session is upserted as its status
 * moves open -> on_break -> closed (the payload is the row); a tender declaration is written once (an upsert of
 * an immutable row). Parents of sales (sales.session_id), so ordered before them.
 */
const cashSessionEntity: EntityRegistration = {
  entity: 'cash_session',
  push: 'till-owned',
  payloadSchema: CashSessionPayload,
  owner: 'till',
  scope: 'branch',
  table: 'cash_sessions',
  order: 190,
  rest: [
    { method: 'post', path: '/sessions/open' },
    { method: 'post', path: '/sessions/break/start' },
    { method: 'post', path: '/sessions/break/end' },
    { method: 'post', path: '/sessions/close' },
  ],
};
const tenderDeclarationEntity: EntityRegistration = {
  entity: 'tender_declaration',
  push: 'till-owned',
  payloadSchema: TenderDeclarationPayload,
  owner: 'till',
  scope: 'branch',
  table: 'tender_declarations',
  order: 195,
  rest: [{ method: 'post', path: '/sessions/tender' }],
  references: [{ field: 'session_id', table: 'cash_sessions' }],
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const sessionsEntities: readonly EntityRegistration[] = [cashSessionEntity, tenderDeclarationEntity];
