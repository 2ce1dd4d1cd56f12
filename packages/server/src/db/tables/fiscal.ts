/** The fiscal chain of each device (ICV and previous hash per invoice) and the till's local key/value state. */
export interface LocalStateTable {
  key: string;
  value: string;
}

export interface FiscalChainTable {
  device_id: string;
  icv: number;
  doc_type: 'invoice' | 'credit_note';
  doc_id: string;
  fiscal_hash: string;
  previous_hash: string;
  created_at: string;
}

export interface FiscalTables {
  local_state: LocalStateTable;
  fiscal_chain: FiscalChainTable;
}
