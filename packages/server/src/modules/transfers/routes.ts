import { STOCK_MANAGERS } from '@pharmacy/contracts/roles';
import {
  CancelTransferRequest,
  CreateTransferBatchRequest,
  CreateTransferRequest,
  Transfer,
  TransferList,
  TransferListQuery,
  ReceiveTransferRequest,
} from '@pharmacy/contracts';
import { z } from 'zod';
import { assertBranchAccess, isBranchBound, scopeBranch } from '../../http/auth';
import { created, type ApiRouter } from '../../http/route';
import { actorOf } from '../audit/service';
import { cancelTransfer, receiveTransfer } from './lifecycle';
import { createTransfers, getTransfer, listTransfers } from './service';

const TransferParams = z.object({ transferId: z.string().min(1).max(64) });

const MOVERS = STOCK_MANAGERS;

const RULES =
  "Items name a medicine (FEFO picks the source batches, skipping expired, quarantined and recalled ones) or a batch (sent as is, whatever its status). Sending takes the stock out of the source as transfer_out movements into a transfer with status in_transit (not shown in the spec: this API's states are in_transit, then received or cancelled; transfers booked before in-transit transfers read as completed). Each line keeps the batch number, expiry, unit cost, supplier and regulator status it left with; to_batch_id and received_quantity stay null until the destination receives it (POST /transfers/{transferId}/receive), and the source may cancel it until then (POST /transfers/{transferId}/cancel). from_branch_id defaults to the caller's branch; branch managers transfer only from their own branch (403), and a till registered with head office sends only from its own branch (403 OTHER_BRANCH_TILL). 409 INSUFFICIENT_STOCK names the medicine, wanted and available.";

export function transferRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/transfers',
    tag: 'Transfers',
    summary: 'List transfers, newest first',
    description:
      'branch_id with direction (in, out, both); status (in_transit, received, cancelled, completed) narrows it, e.g. the transfers in transit towards a branch: direction=in&status=in_transit. Branch-bound roles see the transfers leaving or entering their own branch only.',
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
      409: { description: 'Not enough stock' },
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
      409: { description: 'Not enough stock' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created({ items: await createTransfers(app, user, actorOf(user, requestId), body.transfers, true) }),
  });

  r.route({
    method: 'get',
    path: '/transfers/:transferId',
    tag: 'Transfers',
    summary: 'One transfer with its lines and what arrived of each',
    description:
      'Not shown in the spec. Branch-bound roles read only transfers leaving or entering their branch (403 otherwise).',
    roles: 'any',
    params: TransferParams,
    responses: {
      200: { description: 'The transfer', schema: Transfer },
      403: { description: 'A transfer of other branches' },
      404: { description: 'No such transfer' },
    },
    handler: async ({ app, user, params }) => {
      const t = await getTransfer(app, params.transferId);
      if (isBranchBound(user) && user.branchId !== t.from_branch_id && user.branchId !== t.to_branch_id)
        assertBranchAccess(user, t.to_branch_id, 'transfer');
      return t;
    },
  });

  r.route({
    method: 'post',
    path: '/transfers/:transferId/receive',
    tag: 'Transfers',
    summary: 'Receive a transfer in transit at its destination',
    description:
      "Not shown in the spec. One transaction: what arrived of each line is booked in at the destination as transfer_in movements in the same batch number and expiry (an existing batch of that medicine, number and expiry is reused; the same number with another expiry is 409 BATCH_EXPIRY_MISMATCH; else a batch is made with the line's cost, supplier and regulator status). lines lists only the lines that did not arrive in full: received_quantity from 0 to the quantity sent, with discrepancy_reason short or damaged (400 DISCREPANCY_REASON without it, or with it on a full line); the missing units are recorded on the transfer and booked nowhere. The transfer becomes received; a transfer already received or cancelled is 409 TRANSFER_NOT_IN_TRANSIT. Branch managers receive only at their own branch, and a till registered with head office only transfers to its own branch (403). Roles: admin, inventory_manager, branch_manager.",
    roles: MOVERS,
    params: TransferParams,
    body: ReceiveTransferRequest,
    responses: {
      200: { description: 'The received transfer', schema: Transfer },
      403: { description: 'Role not allowed, or a destination not the caller’s' },
      404: { description: 'No such transfer' },
      409: { description: 'Not in transit any more, or a batch expiry clash at the destination' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      receiveTransfer(app, user, actorOf(user, requestId), params.transferId, body),
  });

  r.route({
    method: 'post',
    path: '/transfers/:transferId/cancel',
    tag: 'Transfers',
    summary: 'Cancel a transfer not yet received; its stock goes back',
    description:
      "Not shown in the spec. One transaction: every line's units go back into the source batch they left, as transfer_in movements at the source with the reason given; the transfer becomes cancelled. A transfer already received or cancelled is 409 TRANSFER_NOT_IN_TRANSIT. Only the source cancels: branch managers of the source branch, and on a till registered with head office only a till of the source branch (403). Roles: admin, inventory_manager, branch_manager.",
    roles: MOVERS,
    params: TransferParams,
    body: CancelTransferRequest,
    responses: {
      200: { description: 'The cancelled transfer', schema: Transfer },
      403: { description: 'Role not allowed, or a source not the caller’s' },
      404: { description: 'No such transfer' },
      409: { description: 'Not in transit any more' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      cancelTransfer(app, user, actorOf(user, requestId), params.transferId, body),
  });
}
