export type TransferStatus = 'in_transit' | 'received' | 'cancelled' | 'completed';

export interface TransfersTable {
  id: string;
  from_branch_id: string;
  to_branch_id: string;
  /** in_transit, received, cancelled; `completed` for transfers booked at both branches before 0016. */
  status: string;
  notes: string;
  created_by: string | null;
  created_at: string;
  cancelled_at: string | null;
  cancelled_by: string | null;
  cancel_reason: string;
}

/** A line as sent: enough to book it in at the destination without the source's batch row. */
export interface TransferItemsTable {
  id: string;
  transfer_id: string;
  medicine_id: string;
  from_batch_id: string;
  /** Only for `completed` (pre-0016) transfers; a receipt line names the destination batch. */
  to_batch_id: string | null;
  batch_number: string;
  expiry_date: string;
  quantity: number;
  unit_cost: number;
  supplier_id: string | null;
  regulator_status: string;
}

/** The destination's receipt of a transfer (its own document: one per transfer). */
export interface TransferReceiptsTable {
  id: string;
  transfer_id: string;
  /** The destination branch. */
  branch_id: string;
  received_by: string | null;
  received_at: string;
  notes: string;
}

export interface TransferReceiptLinesTable {
  id: string;
  receipt_id: string;
  transfer_item_id: string;
  /** The destination batch booked in; null when nothing of the line arrived. */
  to_batch_id: string | null;
  received_quantity: number;
  discrepancy_reason: 'short' | 'damaged' | null;
}

export interface TransferTables {
  transfers: TransfersTable;
  transfer_items: TransferItemsTable;
  transfer_receipts: TransferReceiptsTable;
  transfer_receipt_lines: TransferReceiptLinesTable;
}
