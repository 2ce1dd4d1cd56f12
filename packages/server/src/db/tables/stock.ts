export interface BatchesTable {
  id: string;
  medicine_id: string;
  branch_id: string;
  batch_number: string;
  expiry_date: string;
  qty_received: number;
  qty_on_hand: number;
  /** Minor units of the base currency. */
  unit_cost: number;
  supplier_id: string | null;
  regulator_status: 'quarantined' | 'active' | 'recalled';
  received_at: string;
  received_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface StockMovementsTable {
  id: string;
  batch_id: string;
  branch_id: string;
  medicine_id: string;
  type: string;
  quantity: number;
  reference_type: string | null;
  reference_id: string | null;
  user_id: string | null;
  reason: string;
  created_at: string;
}

/** Units of a batch held for a prescription waiting on the will-call shelf: on hand, not available. */
export interface StockReservationsTable {
  id: string;
  branch_id: string;
  batch_id: string;
  medicine_id: string;
  quantity: number;
  prescription_id: string;
  dispense_id: string;
  status: 'held' | 'sold' | 'released';
  sale_id: string | null;
  created_by: string | null;
  created_at: string;
  closed_at: string | null;
}

/**
 * Per branch and medicine: units of its active batches less those held for the will-call shelf, expired
 * batches included (trigger-kept, migration 0028). No row: none.
 */
export interface MedicineStockTable {
  branch_id: string;
  medicine_id: string;
  qty: number;
  name: string;
  is_active: number;
  /** The medicine's low-stock threshold (migration 0030). */
  low_stock_threshold: number;
}

export interface StockTables {
  batches: BatchesTable;
  stock_movements: StockMovementsTable;
  stock_reservations: StockReservationsTable;
  medicine_stock: MedicineStockTable;
}
