import {
  PurchaseOrderItemPayload,
  PurchaseOrderPayload,
  PurchaseOrderReceiptPayload,
} from '@pharmacy/contracts';
import type { Db } from '../../db/connection';
import { prepared } from '../../db/prepared';
import { assertNamedUserMay, PushForbidden } from '../sync/push-actors';
import type { PushedChange, Pusher, EntityRegistration } from '../sync/registry';
import { PO_CREATORS, PO_RECEIVERS } from './roles';

/** An order pushed by a till was raised by someone who may raise one for the branch (REST: branch_manager). */
async function authoriseOrder(trx: Db, change: PushedChange, pusher: Pusher): Promise<void> {
  if (change.op !== 'upsert') throw new PushForbidden('A purchase order is cancelled, never deleted.');
  await assertNamedUserMay(trx, change, pusher, {
    field: 'created_by',
    roles: PO_CREATORS,
    what: 'raises a purchase order',
    pusherRoles: PO_RECEIVERS,
  });
}

const orderBranch = prepared((db, p: { id: string }) =>
  db.selectFrom('purchase_orders').select('branch_id').where('id', '=', p.id),
);

/** An item belongs to an order central holds for the same branch (pushed before it, in the same batch or earlier). */
async function authoriseItem(trx: Db, change: PushedChange, pusher: Pusher): Promise<void> {
  if (change.op !== 'upsert') throw new PushForbidden('A purchase order item is never deleted by a till.');
  const order = await orderBranch.first(trx, { id: String(change.payload.purchase_order_id ?? '') });
  if (order?.branch_id !== pusher.device.branch_id)
    throw new PushForbidden("A purchase order item must belong to an order of the device's branch.");
}

/** A receipt was made by someone who may receive against an order (REST: branch_manager, inventory_manager). */
async function authoriseReceipt(trx: Db, change: PushedChange, pusher: Pusher): Promise<void> {
  await authoriseItem(trx, change, pusher);
  await assertNamedUserMay(trx, change, pusher, {
    field: 'received_by',
    roles: PO_RECEIVERS,
    what: 'receives against a purchase order',
  });
}

/**
 * Replication of purchase orders (docs/CONVENTIONS.md, "Sync"): central-owned back-office documents, scoped to
 * the tills of their branch (where goods are received), as three plain tables, parents first. A receipt made
 * at a till pushes the header, items and receipt rows with their base revision, so an order changed at head
 * office meanwhile becomes a sync conflict instead of being overwritten. Stock arrives as the ledger's batches
 * and movements (reference {type: 'purchase_order', id}).
 */
const purchaseOrderEntity: EntityRegistration = {
  entity: 'purchase_order',
  push: authoriseOrder,
  payloadSchema: PurchaseOrderPayload,
  owner: 'central',
  scope: 'branch',
  table: 'purchase_orders',
  order: 400,
  rest: [
    { method: 'post', path: '/purchase-orders' },
    { method: 'put', path: '/purchase-orders/:purchaseOrderId/status' },
    { method: 'post', path: '/purchase-orders/:purchaseOrderId/receive' },
  ],
};
const purchaseOrderItemEntity: EntityRegistration = {
  entity: 'purchase_order_item',
  push: authoriseItem,
  payloadSchema: PurchaseOrderItemPayload,
  owner: 'central',
  scope: 'branch',
  table: 'purchase_order_items',
  order: 401,
  rest: [
    { method: 'post', path: '/purchase-orders' },
    { method: 'put', path: '/purchase-orders/:purchaseOrderId/status' },
    { method: 'post', path: '/purchase-orders/:purchaseOrderId/receive' },
  ],
};
const purchaseOrderReceiptEntity: EntityRegistration = {
  entity: 'purchase_order_receipt',
  push: authoriseReceipt,
  payloadSchema: PurchaseOrderReceiptPayload,
  owner: 'central',
  scope: 'branch',
  table: 'purchase_order_receipts',
  order: 402,
  rest: [{ method: 'post', path: '/purchase-orders/:purchaseOrderId/receive' }],
  references: [{ field: 'batch_id', table: 'batches' }],
};

/** The entities this area replicates, registered once at start-up (modules/index.ts). */
export const purchaseOrdersEntities: readonly EntityRegistration[] = [
  purchaseOrderEntity,
  purchaseOrderItemEntity,
  purchaseOrderReceiptEntity,
];
