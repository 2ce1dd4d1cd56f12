export interface ReturnsTable {
  id: string;
  sale_id: string;
  branch_id: string;
  user_id: string;
  session_id: string | null;
  device_id: string;
  credit_note_number: string;
  uuid: string;
  icv: number;
  client_mutation_id: string;
  payload_hash: string;
  refund_method: string;
  reason: string;
  subtotal_amount: number;
  vat_amount: number;
  total_amount: number;
  currency_code: string;
  base_total_amount: number;
  customer_id: string | null;
  fiscal_status: string;
  fiscal_xml: string;
  fiscal_hash: string;
  previous_hash: string;
  sync_status: string;
  created_at: string;
}

export interface ReturnLinesTable {
  id: string;
  return_id: string;
  sale_line_id: string;
  medicine_id: string;
  medicine_name: string;
  quantity: number;
  condition: 'resaleable' | 'damaged' | 'expired';
  net_amount: number;
  vat_amount: number;
  refund_amount: number;
  vat_rate: string;
  /** JSON: [{batch_id, quantity, movement_ids}] */
  batches: string;
}

export interface ReturnTables {
  returns: ReturnsTable;
  return_lines: ReturnLinesTable;
}
