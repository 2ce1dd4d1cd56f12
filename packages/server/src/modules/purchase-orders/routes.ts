import {
  CreatePurchaseOrderRequest,
  PurchaseOrderCreated,
  PurchaseOrderDetail,
  PurchaseOrderListQuery,
  PurchaseOrderParams,
  PurchaseOrderSummary,
  pageOf,
  ReceivePurchaseOrderRequest,
  SuggestedOrderQuery,
  SuggestedOrderResponse,
  UpdatePurchaseOrderStatusRequest,
} from '@pharmacy/contracts';
import { scopeBranch } from '../../http/auth';
import { type ApiRouter, created } from '../../http/route';
import { actorOf } from '../audit/service';
import { receiveAgainstOrder } from './receiving';
import { changeOrderStatus, createPurchaseOrder, getPurchaseOrder, listPurchaseOrders } from './service';
import { SUGGESTION_LIMIT, suggestedOrders } from './suggestions';
import { PO_CREATORS, PO_READERS, PO_RECEIVERS } from './roles';

const TAG = 'PurchaseOrders';
const SCOPE_NOTE =
  'Branch-bound roles (branch_manager) see only their own branch whatever they ask; organisation-wide roles see all branches or branch_id.';

export function purchaseOrderRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/purchase-orders',
    tag: TAG,
    summary: 'List purchase orders, newest first',
    description: `Filters: status, supplier_id, branch_id; paged (page, page_size at most 200). sort: created_at (default), expected_date (orders without one last), supplier_name, status or total_amount; order desc (default) or asc; ties newest first. ${SCOPE_NOTE} Roles: admin, branch_manager, inventory_manager, auditor.`,
    roles: PO_READERS,
    query: PurchaseOrderListQuery,
    responses: { 200: { description: 'A page of purchase orders', schema: pageOf(PurchaseOrderSummary) } },
    handler: ({ app, user, query }) =>
      listPurchaseOrders(app, { ...query, branch_id: scopeBranch(user, query.branch_id) }),
  });

  r.route({
    method: 'post',
    path: '/purchase-orders',
    tag: TAG,
    summary: 'Create a purchase order (DRAFT)',
    description:
      "Roles: admin, branch_manager (own branch only: another branch_id gives 403 OTHER_BRANCH). Supplier, branch and every medicine must exist (404) and be active (400, as for receiving a batch). items is non-empty (at most 500), each medicine at most once (400), ordered_qty a positive whole number, agreed_unit_cost at most the base currency's decimals. The order and its items are written in one transaction, opened as DRAFT, audited (purchase_order.create) and replicated to the tills of its branch.",
    roles: PO_CREATORS,
    body: CreatePurchaseOrderRequest,
    responses: {
      201: { description: 'The new order', schema: PurchaseOrderCreated },
      400: { description: 'Invalid body, duplicate medicine, inactive supplier, branch or medicine' },
      403: { description: 'Role not allowed or another branch' },
      404: { description: 'Unknown supplier, branch or medicine' },
    },
    handler: async ({ app, user, body, requestId }) =>
      created(await createPurchaseOrder(app, user, actorOf(user, requestId), body)),
  });

  r.route({
    method: 'get',
    path: '/purchase-orders/suggested',
    tag: TAG,
    summary: 'Reorder suggestions for a branch',
    description: `Active medicines whose sellable stock in the branch (active, unexpired batches) is at or below low_stock_threshold, emptiest first, at most ${SUGGESTION_LIMIT}. suggested_qty = ceil(avg_daily_sales x lead_time_days) + low_stock_threshold - stock_quantity - on_order_qty, never below 0; avg_daily_sales is net units sold (sale minus return movements) over the last \`days\` (default 30); the supplier is the one of the medicine's most recent batch (this branch first), lead time 7 days when unknown. branch_id defaults to the caller's branch; ${SCOPE_NOTE}`,
    roles: PO_READERS,
    query: SuggestedOrderQuery,
    responses: {
      200: { description: 'Suggestions', schema: SuggestedOrderResponse },
      404: { description: 'Unknown branch' },
    },
    handler: ({ app, user, query }) =>
      suggestedOrders(app, scopeBranch(user, query.branch_id) ?? user.branchId, query.days),
  });

  r.route({
    method: 'get',
    path: '/purchase-orders/:purchaseOrderId',
    tag: TAG,
    summary: 'Read a purchase order with its items, received quantities and receipts',
    description: "A branch_manager asking for another branch's order gets 403 OTHER_BRANCH.",
    roles: PO_READERS,
    params: PurchaseOrderParams,
    responses: {
      200: { description: 'The order', schema: PurchaseOrderDetail },
      403: { description: 'Role not allowed or another branch' },
      404: { description: 'Unknown order' },
    },
    handler: ({ app, user, params }) => getPurchaseOrder(app, user, params.purchaseOrderId),
  });

  r.route({
    method: 'put',
    path: '/purchase-orders/:purchaseOrderId/status',
    tag: TAG,
    summary: 'Send or cancel a purchase order',
    description:
      'status SENT (from DRAFT) or CANCELLED (from DRAFT or SENT, with an optional reason). Any other move, including to the state the order is already in, gives 409 INVALID_STATUS_TRANSITION naming the current state; PARTIALLY_RECEIVED and RECEIVED are reached only by receiving. Roles: admin, branch_manager (own branch). Audited and replicated.',
    roles: PO_CREATORS,
    params: PurchaseOrderParams,
    body: UpdatePurchaseOrderStatusRequest,
    responses: {
      200: { description: 'The order after the change', schema: PurchaseOrderDetail },
      403: { description: 'Role not allowed or another branch' },
      404: { description: 'Unknown order' },
      409: { description: 'Move not allowed from the current state' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      changeOrderStatus(app, user, actorOf(user, requestId), params.purchaseOrderId, body),
  });

  r.route({
    method: 'post',
    path: '/purchase-orders/:purchaseOrderId/receive',
    tag: TAG,
    summary: 'Receive goods against a SENT or PARTIALLY_RECEIVED order',
    description:
      "Lines name the order item by item_id or medicine_id (400 when it is not on the order), with received_qty, batch_number, expiry_date (not in the past in the branch's time zone: 400 EXPIRED_BATCH) and unit_cost (default the item's agreed_unit_cost). Each line goes into a batch through the stock ledger (a purchase movement referencing the order; the same batch number and expiry adds to that batch, another expiry is 409 BATCH_EXPIRY_MISMATCH). Receiving more than ordered (over all receipts) gives 409 OVER_RECEIPT unless allow_over_receipt is true. The order becomes RECEIVED when every item is received in full, else PARTIALLY_RECEIVED. Other states: 409 INVALID_STATUS_TRANSITION. All lines or none. Roles: admin, branch_manager (own branch), inventory_manager. Audited and replicated.",
    roles: PO_RECEIVERS,
    params: PurchaseOrderParams,
    body: ReceivePurchaseOrderRequest,
    responses: {
      200: { description: 'The order after the receipt', schema: PurchaseOrderDetail },
      400: { description: 'Invalid body, line not on the order, expired batch' },
      403: { description: 'Role not allowed or another branch' },
      404: { description: 'Unknown order' },
      409: { description: 'Order not receivable, over-receipt, batch expiry mismatch' },
    },
    handler: ({ app, user, params, body, requestId }) =>
      receiveAgainstOrder(app, user, actorOf(user, requestId), params.purchaseOrderId, body),
  });
}
