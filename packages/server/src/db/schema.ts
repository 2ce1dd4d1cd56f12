import type { ColumnType, Generated } from 'kysely';
import type { AnnouncementTables } from './tables/announcements';
import type { ApprovalTables } from './tables/approvals';
import type { CategoryTables } from './tables/categories';
import type { CouponTables } from './tables/coupons';
import type { CustomerTables } from './tables/customers';
import type { FiscalTables } from './tables/fiscal';
import type { ImageTables } from './tables/images';
import type { MedicineTables } from './tables/medicines';
import type { ParkedTables } from './tables/parked';
import type { PrescriptionTables } from './tables/prescriptions';
import type { PrintingTables } from './tables/printing';
import type { PurchaseOrderTables } from './tables/purchase-orders';
import type { ReturnTables } from './tables/returns';
import type { SaleTables } from './tables/sales';
import type { SessionTables } from './tables/sessions';
import type { StockTables } from './tables/stock';
import type { StockCountTables } from './tables/stock-counts';
import type { SupplierFinanceTables } from './tables/supplier-finance';
import type { SupplierTables } from './tables/suppliers';
import type { SyncChangeLogColumns, SyncTables } from './tables/sync';
import type { TransferTables } from './tables/transfers';
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
  /** JSON array of the foreign currencies this branch's drawers hold (change is given in them). */
  drawer_currencies: string;
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
  // 0005_sync (db/tables/sync.ts explains them)
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

/** The organisation and its people: branches, users and their sessions, currencies, settings, audit, change log. */
export interface OrganisationTables {
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

/** Every table, each area's from its own file under db/tables/. */
export interface Database
  extends OrganisationTables,
    SyncTables,
    CategoryTables,
    MedicineTables,
    SupplierTables,
    StockTables,
    TransferTables,
    StockCountTables,
    ImageTables,
    PrintingTables,
    PrescriptionTables,
    PurchaseOrderTables,
    SupplierFinanceTables,
    ApprovalTables,
    AnnouncementTables,
    FiscalTables,
    SessionTables,
    CustomerTables,
    CouponTables,
    SaleTables,
    ReturnTables,
    ParkedTables {}
