export type SessionStatus = 'open' | 'on_break' | 'closed';

export interface CashSessionsTable {
  id: string;
  user_id: string;
  branch_id: string;
  device_id: string;
  currency_code: string;
  opening_float: number;
  status: SessionStatus;
  break_minutes: number;
  break_started_at: string | null;
  opened_at: string;
  closed_at: string | null;
  counted_cash: number | null;
  expected_cash: number | null;
  variance: number | null;
  z_number: number | null;
  notes: string;
  updated_at: string;
  /** At close: JSON [{currency_code, rate, expected, counted, expected_base, counted_base}] (minor units). */
  counted_by_currency: string | null;
}

export interface TenderDeclarationsTable {
  id: string;
  session_id: string;
  user_id: string;
  branch_id: string;
  amount: number;
  denominations: string;
  notes: string;
  declared_at: string;
}

export interface SessionTables {
  cash_sessions: CashSessionsTable;
  tender_declarations: TenderDeclarationsTable;
}
