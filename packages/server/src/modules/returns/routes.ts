import { SELLERS } from '@pharmacy/contracts/roles';
import {
  CreateReturnRequest,
  pageOf,
  ReturnListQuery,
  ReturnLookup,
  ReturnLookupParams,
  ReturnParams,
  SaleReturn,
} from '@pharmacy/contracts';
import { type ApiRouter, created, Reply } from '../../http/route';
import { actorOf } from '../audit/service';
import { createReturn, getReturn, listReturns, lookupForReturn } from './service';

const SCOPE =
  'Branch-bound roles see and act only on their own branch (lists are scoped, one record of another branch is 403).';

export function returnRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/returns/lookup/:invoiceNumber',
    tag: 'Returns',
    summary: 'Find a sale by invoice number, with the quantity still returnable per line',
    description: `Any signed-in user. Unknown invoice number (or one of another branch for branch-bound roles): 404. ${SCOPE}`,
    roles: 'any',
    params: ReturnLookupParams,
    responses: {
      200: { description: 'The sale and its returnable lines', schema: ReturnLookup },
      404: { description: 'Unknown invoice' },
    },
    handler: ({ app, user, params }) => lookupForReturn(app, user, params.invoiceNumber),
  });

  r.route({
    method: 'get',
    path: '/returns',
    tag: 'Returns',
    summary: 'List returns (credit notes), newest first',
    description: `Any signed-in user. Filters: sale_id, from/to (UTC days), branch_id for organisation-wide roles. ${SCOPE}`,
    roles: 'any',
    query: ReturnListQuery,
    responses: { 200: { description: 'A page of returns', schema: pageOf(SaleReturn) } },
    handler: ({ app, user, query }) => listReturns(app, user, query),
  });

  r.route({
    method: 'post',
    path: '/returns',
    tag: 'Returns',
    summary: 'Return lines of a sale: restock or write off, refund, credit note',
    description: [
      'Roles: admin, branch_manager, pharmacist, cashier.',
      'Per line (each sale line at most once per request): never more than sold minus already returned (409 RETURN_EXCEEDS_SOLD).',
      'condition resaleable puts the units back into the batch they were sold from (movement return); damaged or expired, or a batch that has expired since, brings them back and writes them off at once (return + write_off movements).',
      'The refund is the line amounts pro rata (cumulative, so all returns of a line add up to exactly the line). refund_method defaults to credit for a sale paid (partly) on credit, to the single method of the sale, else cash. A cash refund needs the caller to have an open session (409 NO_OPEN_SESSION) and lowers its expected cash; a credit refund lowers the customer balance (REFUND ledger row; the balance may go below zero).',
      'The refund goes back to the tenders that paid the sale, each up to what it paid (cash less the change) less earlier refunds to it. Refunding more to a tender (a card sale refunded in cash) needs a branch_manager or admin, or approval_id of a refund_tender approval requested by the caller that covers it (sale_id, from_method a tender of the sale, to_method = refund_method, max_amount >= the refund): without one 403 APPROVAL_REQUIRED, beyond its bounds 403 APPROVAL_MISMATCH; nothing is written either way.',
      'The credit note gets its own number CN-BRANCH-DEVICE-ICV from the same per-device ICV sequence and hash chain as invoices, a UBL CreditNote referencing the invoice, fiscal_status pending. client_mutation_id as for sales (replay 200, different body 409 MUTATION_ID_REUSED).',
    ].join(' '),
    roles: SELLERS,
    body: CreateReturnRequest,
    responses: {
      200: { description: 'Replay of an already recorded return', schema: SaleReturn },
      201: { description: 'The return', schema: SaleReturn },
      400: { description: 'Invalid lines or refund method' },
      403: { description: 'Role, branch, APPROVAL_REQUIRED or APPROVAL_MISMATCH' },
      404: { description: 'Unknown sale' },
      409: { description: 'More than returnable, no open session, mutation id reused' },
    },
    handler: async ({ app, user, body, requestId }) => {
      const res = await createReturn(app, user, actorOf(user, requestId), body);
      return res.replay ? new Reply(200, res.ret) : created(res.ret);
    },
  });

  r.route({
    method: 'get',
    path: '/returns/:returnId',
    tag: 'Returns',
    summary: 'One return with its lines',
    description: `Any signed-in user. ${SCOPE}`,
    roles: 'any',
    params: ReturnParams,
    responses: {
      200: { description: 'The return', schema: SaleReturn },
      403: { description: 'Another branch' },
      404: { description: 'Unknown return' },
    },
    handler: ({ app, user, params }) => getReturn(app, params.returnId, user),
  });
}
