import type { ColumnType, Generated } from 'kysely';
import type { CatalogueTables } from '../modules/stock/tables';
import type { SyncChangeLogColumns, SyncTables } from '../modules/sync/tables';
import type { SellingTables } from '../modules/sales/tables';
import type { PrintingTables } from '../modules/printing/tables';
import type { PurchaseOrderTables } from '../modules/purchase-orders/tables';
import type { SupplierFinanceTables } from '../modules/supplier-finance/tables';
import type { ApprovalTables } from '../modules/approvals/tables';
import type { ChangelogTables } from '../modules/announcements/tables';
import type { PrescriptionTables } from '../modules/prescriptions/tables';

import type { Bool } from './types';

export type { Bool };

export interface BranchesTable {
  id: string;
  name: string;
  code: string;
  address: string;
  phone: string;
  vat_number: string;
  currency_code: string;
  timezone: string;
  is_active: Bool;
  created_at: string;
  updated_at: string;
}

export interface UsersTable {
  id: string;
  branch_id: string;
  email: string;
  password_hash: string;
  full_name: string;
  phone: string;
  role: string;
  is_active: Bool;
  token_version: number;
  must_change_password: Bool;
  last_login_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CurrenciesTable {
  code: string;
  name: string;
  symbol: string;
  exponent: number;
  is_active: Bool;
  created_at: string;
  updated_at: string;
}

export interface ExchangeRatesTable {
  id: string;
  from_code: string;
  to_code: string;
  rate: string;
  effective_at: string;
  source: string;
  created_by: string;
  created_at: string;
}

export interface SettingsTable {
  key: string;
  value: string;
  updated_at: string;
  updated_by: string | null;
}

export interface AuditLogTable {
  id: string;
  user_id: string | null;
  action: string;
  entity: string;
  entity_id: string | null;
  branch_id: string | null;
  before_json: string | null;
  after_json: string | null;
  request_id: string | null;
  created_at: string;
}

export interface ChangeLogTable {
  revision: Generated<number>;
  entity: string;
  entity_id: string;
  op: string;
  payload: string;
  branch_id: string | null;
  origin_device_id: string | null;
  client_mutation_id: string | null;
  from_remote: ColumnType<Bool, Bool | undefined, Bool>;
  created_at: string;
  // 0005_sync (modules/sync/tables.ts explains them)
  base_revision: ColumnType<number | null, number | null | undefined, number | null>;
  remote_revision: ColumnType<number | null, number | null | undefined, number | null>;
  sync_status: ColumnType<
    SyncChangeLogColumns['sync_status'],
    SyncChangeLogColumns['sync_status'] | undefined
  >;
  sync_result: ColumnType<string | null, string | null | undefined, string | null>;
  acked_revision: ColumnType<number | null, number | null | undefined, number | null>;
}

export interface MarketingContactsTable {
  id: string;
  name: string;
  email: string;
  phone: string;
  company: string;
  message: string;
  client_address: string | null;
  created_at: string;
}

export interface AuthSessionsTable {
  id: string;
  user_id: string;
  generation: number;
  refreshed_at: string | null;
  started_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export interface FoundationTables {
  auth_sessions: AuthSessionsTable;
  branches: BranchesTable;
  users: UsersTable;
  currencies: CurrenciesTable;
  exchange_rates: ExchangeRatesTable;
  settings: SettingsTable;
  audit_log: AuditLogTable;
  change_log: ChangeLogTable;
  marketing_contacts: MarketingContactsTable;
}

/** The whole database: each feature area adds its tables interface here. */
export interface Database
  extends FoundationTables,
    SyncTables,
    CatalogueTables,
    PrintingTables,
    PrescriptionTables,
    PurchaseOrderTables,
    SupplierFinanceTables,
    ApprovalTables,
    ChangelogTables,
    SellingTables {}
