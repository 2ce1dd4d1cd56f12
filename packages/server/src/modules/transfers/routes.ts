import {
  CreateTransferBatchRequest,
  CreateTransferRequest,
  Transfer,
  TransferList,
  TransferListQuery,
} from '@pharmacy/contracts';
import { z } from 'zod';
import { scopeBranch } from '../../http/auth';
import { created, type ApiRouter } from '../../http/route';
import { actorOf } from '../audit/service';
import { createTransfers, listTransfers } from './service';

const MOVERS = ['inventory_manager', 'branch_manager'] as const;

const RULES =
  "Items name a medicine (FEFO picks the source batches, skipping expired, quarantined and recalled ones) or a batch (sent as is, whatever its status). Stock leaves the source as transfer_out movements and arrives at the destination as transfer_in movements in the same batch number and expiry (an existing destination batch with the same medicine, number and expiry is reused, else one is created with the same cost, supplier and status; the same number with another expiry is 409 BATCH_EXPIRY_MISMATCH). There is no in-transit state: a transfer completes at once (status completed). from_branch_id defaults to the caller's branch; branch managers transfer only from their own branch (403). 409 INSUFFICIENT_STOCK names the medicine, wanted and available.";

export function transferRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/transfers',
    tag: 'Transfers',
    summary: 'List transfers, newest first',
    description:
      'branch_id with direction (in, out, both). Branch-bound roles see the transfers leaving or entering their own branch only.',
    roles: 'any',
    query: TransferListQuery,
    responses: { 200: { description: 'A page of transfers', schema: TransferList } },
    handler: ({ app, user, query }) =>
      listTransfers(app, { ...query, branch_id: scopeBranch(user, query.branch_id) }),
  });

  r.route({
    method: 'post',
    path: '/transfers',
    tag: 'Transfers',
    summary: 'Transfer stock to another branch',
    description: `${RULES} Roles: admin, inventory_manager, branch_manager.`,
    roles: MOVERS,
    body: CreateTransferRequest,
    responses: {
      201: { description: 'The transfer', schema: Transfer },
      403: { description: 'Role not allowed, or a source branch not the caller’s' },
      404: { description: 'Unknown branch, medicine or batch' },
      409: { description: 'Not enough stock, or batch expiry clash at the destination' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created((await createTransfers(app, user, actorOf(user, requestId), [body], false))[0]),
  });

  r.route({
    method: 'post',
    path: '/transfers/batch',
    tag: 'Transfers',
    summary: 'Several transfers in one request, all or nothing',
    description: `Up to 50 transfers in one transaction: if any fails, none is applied and the error names it (transfers.N…). ${RULES}`,
    roles: MOVERS,
    body: CreateTransferBatchRequest,
    responses: {
      201: { description: 'The transfers', schema: z.object({ items: z.array(Transfer) }) },
      403: { description: 'Role not allowed, or a source branch not the caller’s' },
      404: { description: 'Unknown branch, medicine or batch' },
      409: { description: 'Not enough stock, or batch expiry clash at the destination' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created({ items: await createTransfers(app, user, actorOf(user, requestId), body.transfers, true) }),
  });
}
