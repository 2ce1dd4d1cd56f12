import { registerEntity } from '../sync/registry';

/**
 * Replication of purchase orders (docs/CONVENTIONS.md, "Sync"): central-owned back-office documents, scoped to
 * the tills of their branch (where goods are received), as three plain tables, parents first. A receipt made
 * at a till pushes the header, items and receipt rows with their base revision, so an order changed at head
 * office meanwhile becomes a sync conflict instead of being overwritten. Stock arrives as the ledger's batches
 * and movements (reference {type: 'purchase_order', id}).
 */
registerEntity({
  entity: 'purchase_order',
  owner: 'central',
  scope: 'branch',
  table: 'purchase_orders',
  order: 400,
});
registerEntity({
  entity: 'purchase_order_item',
  owner: 'central',
  scope: 'branch',
  table: 'purchase_order_items',
  order: 401,
});
registerEntity({
  entity: 'purchase_order_receipt',
  owner: 'central',
  scope: 'branch',
  table: 'purchase_order_receipts',
  order: 402,
});
