import { baseExponent } from '../currency/service';
import { STOCK_MANAGERS } from '@pharmacy/contracts/roles';
import {
  Batch,
  BatchListQuery,
  BatchParams,
  ExpiryWindowQuery,
  MovementListQuery,
  pageOf,
  ReceiveBatchRequest,
  StockMovement,
  WriteOffRequest,
} from '@pharmacy/contracts';
import { assertBranchAccess, scopeBranch } from '../../http/auth';
import { created, type ApiRouter } from '../../http/route';
import { actorOf } from '../audit/service';
import { getBatch, listMovements } from '../stock/queries';
import { expiringBatches, listBatches, receivePurchase, writeOff } from './service';
import { BATCH_RECEIVERS } from '@pharmacy/contracts/roles';

const SCOPE_NOTE =
  'Branch-bound roles (cashier, pharmacist, branch_manager) see only their own branch whatever they ask; organisation-wide roles see all branches or branch_id.';

/**
 * The batches area: receiving a supplier's delivery as a batch, reading, listing and writing off batches,
 * batches near expiry, and the stock ledger. Its routes keep their published paths under /purchases.
 */
export function batchRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/purchases',
    tag: 'Purchases',
    summary: 'List received batches, newest first',
    description: `Filters: medicine_id, supplier_id, regulator_status, in_stock (true, false, all), from/to (received day, UTC). ${SCOPE_NOTE}`,
    roles: 'any',
    query: BatchListQuery,
    responses: { 200: { description: 'A page of batches', schema: pageOf(Batch) } },
    handler: ({ app, user, query }) =>
      listBatches(app, { ...query, branch_id: scopeBranch(user, query.branch_id) }),
  });

  r.route({
    method: 'post',
    path: '/purchases',
    tag: 'Purchases',
    summary: 'Receive a batch',
    description:
      "branch_id defaults to the caller's; branch-bound roles receive only into their own branch (403). The medicine and supplier must exist (404) and be active (400); expiry_date must not be in the past in the branch's time zone (400 EXPIRED_BATCH); qty_received is a positive whole number; unit_cost has at most the base currency's decimals. The same medicine + branch + batch_number again adds to that batch when the expiry matches (the unit cost becomes the weighted average of what is on hand and what arrives), else 409 BATCH_EXPIRY_MISMATCH. Writes a purchase movement and an audit row. Roles: admin, inventory_manager, branch_manager and pharmacist (pharmacists receive deliveries in small branches).",
    roles: BATCH_RECEIVERS,
    body: ReceiveBatchRequest,
    responses: {
      201: { description: 'The batch after receipt', schema: Batch },
      400: { description: 'Invalid input, inactive medicine/supplier/branch or expired batch' },
      403: { description: 'Role not allowed or another branch' },
      404: { description: 'Unknown medicine, supplier or branch' },
      409: { description: 'Same batch number with another expiry' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await receivePurchase(app, user, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'get',
    path: '/purchases/expiring',
    tag: 'Purchases',
    summary: 'Batches with stock expiring within a window (default 90 days), soonest first',
    description: `Recalled and quarantined batches are excluded; already expired ones are in /alerts/expired. ${SCOPE_NOTE}`,
    roles: 'any',
    query: ExpiryWindowQuery,
    responses: { 200: { description: 'A page of batches', schema: pageOf(Batch) } },
    handler: ({ app, user, query }) =>
      expiringBatches(app, { ...query, branch_id: scopeBranch(user, query.branch_id) }),
  });

  r.route({
    method: 'get',
    path: '/purchases/movements/all',
    tag: 'Purchases',
    summary: 'The stock ledger, newest first',
    description: `Every movement (purchase, sale, return, transfer_out, transfer_in, adjustment, write_off, count) with filters type, medicine_id, batch_id, from/to (UTC days, inclusive). ${SCOPE_NOTE}`,
    roles: 'any',
    query: MovementListQuery,
    responses: { 200: { description: 'A page of movements', schema: pageOf(StockMovement) } },
    handler: ({ app, user, query }) =>
      listMovements(app.db, { ...query, branch_id: scopeBranch(user, query.branch_id) }),
  });

  r.route({
    method: 'get',
    path: '/purchases/:batchId',
    tag: 'Purchases',
    summary: 'Read a batch',
    description: 'A branch-bound caller asking for another branch’s batch gets 403 OTHER_BRANCH.',
    roles: 'any',
    params: BatchParams,
    responses: {
      200: { description: 'The batch', schema: Batch },
      403: { description: 'Another branch' },
      404: { description: 'Unknown batch' },
    },
    handler: async ({ app, user, params }) => {
      const batch = await getBatch(app.db, params.batchId, await baseExponent(app));
      assertBranchAccess(user, batch.branch_id, 'batch');
      return batch;
    },
  });

  r.route({
    method: 'put',
    path: '/purchases/:batchId/write-off',
    tag: 'Purchases',
    summary: 'Write off units of a batch (damaged, expired, lost)',
    description:
      'quantity (positive whole number, at most what is on hand: 409 INSUFFICIENT_STOCK) and reason (required). Writes a write_off movement and an audit row. Branch-bound roles only in their own branch (403).',
    roles: STOCK_MANAGERS,
    params: BatchParams,
    body: WriteOffRequest,
    responses: {
      200: { description: 'The batch after the write-off', schema: Batch },
      403: { description: 'Role not allowed or another branch' },
      404: { description: 'Unknown batch' },
      409: { description: 'More than on hand' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      writeOff(app, user, actorOf(user, requestId), params.batchId, body),
  });
}
