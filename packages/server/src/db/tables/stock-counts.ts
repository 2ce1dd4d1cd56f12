export interface StockCountsTable {
  id: string;
  branch_id: string;
  counted_by: string;
  approval_id: string | null;
  notes: string;
  lines_counted: number;
  lines_with_variance: number;
  total_variance: number;
  created_at: string;
}

export interface StockCountLinesTable {
  id: string;
  stock_count_id: string;
  batch_id: string;
  medicine_id: string;
  expected_qty: number;
  counted_qty: number;
  variance: number;
}

export interface StockCountTables {
  stock_counts: StockCountsTable;
  stock_count_lines: StockCountLinesTable;
}
