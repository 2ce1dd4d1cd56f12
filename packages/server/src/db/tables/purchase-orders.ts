import type { PurchaseOrderStatus } from '@pharmacy/contracts';

export interface PurchaseOrdersTable {
  id: string;
  supplier_id: string;
  branch_id: string;
  status: PurchaseOrderStatus;
  expected_date: string | null;
  notes: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
  cancelled_at: string | null;
  cancel_reason: string | null;
  /** When every item was received in full. */
  received_at: string | null;
}

export interface PurchaseOrderItemsTable {
  id: string;
  purchase_order_id: string;
  /** The order's branch, so the row replicates to that branch's tills on its own. */
  branch_id: string;
  medicine_id: string;
  ordered_qty: number;
  received_qty: number;
  /** Minor units of the base currency. */
  agreed_unit_cost: number;
}

/** One line of a delivery against an order: which batch it went into, through which movement. */
export interface PurchaseOrderReceiptsTable {
  id: string;
  purchase_order_id: string;
  branch_id: string;
  item_id: string;
  batch_id: string;
  movement_id: string;
  quantity: number;
  unit_cost: number;
  received_by: string | null;
  received_at: string;
}

export interface PurchaseOrderTables {
  purchase_orders: PurchaseOrdersTable;
  purchase_order_items: PurchaseOrderItemsTable;
  purchase_order_receipts: PurchaseOrderReceiptsTable;
}
