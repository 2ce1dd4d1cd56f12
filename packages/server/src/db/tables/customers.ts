import type { Bool } from '../types';

export interface CustomersTable {
  id: string;
  name: string;
  phone: string;
  national_id: string;
  notes: string;
  credit_limit: number;
  is_credit_allowed: Bool;
  /** Who last set credit_limit or is_credit_allowed (a branch manager or an admin); null when nobody did. */
  credit_terms_by: string | null;
  current_balance: number;
  created_at: string;
  updated_at: string;
}

export interface CustomerLedgerTable {
  id: string;
  customer_id: string;
  branch_id: string | null;
  transaction_type: string;
  amount: number;
  balance_after: number;
  reference_type: string | null;
  reference_id: string | null;
  notes: string;
  created_by: string | null;
  created_at: string;
  /** PAYMENT rows: the cash session the money was taken in, and its tender; null on other rows. */
  session_id?: string | null;
  tender?: string | null;
}

export interface CustomerTables {
  customers: CustomersTable;
  customer_ledger: CustomerLedgerTable;
}
