export interface TransfersTable {
  id: string;
  from_branch_id: string;
  to_branch_id: string;
  status: string;
  notes: string;
  created_by: string | null;
  created_at: string;
}

export interface TransferItemsTable {
  id: string;
  transfer_id: string;
  medicine_id: string;
  from_batch_id: string;
  to_batch_id: string;
  quantity: number;
  unit_cost: number;
}

export interface TransferTables {
  transfers: TransfersTable;
  transfer_items: TransferItemsTable;
}
