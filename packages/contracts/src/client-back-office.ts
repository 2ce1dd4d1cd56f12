import type { z } from 'zod';
import type { Call, Page, Query } from './api-call';
import type {
  AuditEntry,
  Branch,
  CreateBranchRequest,
  CreateUserRequest,
  Currency,
  EffectiveRate,
  ResetPasswordRequest,
  SettingsResponse,
  UpdateBranchRequest,
  UpdateSettingsRequest,
  UpdateUserRequest,
  User,
} from './index';
import type { BooksReport, BooksWarnings } from './books';
import type { BranchComparison, DashboardSummary } from './dashboard';
import type { InventoryReport, PharmacistReport, PurchasesReport, SalesReport, VatReport } from './reports';
import type {
  AcknowledgeNoticeRequest,
  ChangelogEntry,
  CounterNotices,
  CreateChangelogRequest,
} from './announcements';
import type {
  Approval,
  CreateApprovalRequest,
  DecideApprovalRequest,
  OverrideApprovalRequest,
} from './approvals';
import type {
  BranchCurrency,
  CreateExchangeRateRequest,
  CurrencyOverview,
  ExchangeRate,
  RateCheckRequest,
  RateCheckResult,
} from './currency';

/**
 * The calls of the back office (users, branches, settings, the audit trail, currency and rates, the dashboard and
 * reports, approvals, counter notices and the changelog, the books), spread into the typed client by
 * createApiClient. Types only.
 */
export function backOfficeCalls(call: Call) {
  return {
    users: {
      list: (query: Query<'GET', '/users'> = {}): Promise<Page<User>> => call('GET', '/users', { query }),
      get: (userId: string): Promise<User> => call('GET', '/users/{userId}', { params: { userId } }),
      unlock: (userId: string): Promise<User> =>
        call('POST', '/users/{userId}/unlock', { params: { userId } }),
      create: (body: z.input<typeof CreateUserRequest>): Promise<User> => call('POST', '/users', { body }),
      update: (userId: string, body: z.input<typeof UpdateUserRequest>): Promise<User> =>
        call('PUT', '/users/{userId}', { params: { userId }, body }),
      resetPassword: (userId: string, body: z.input<typeof ResetPasswordRequest>): Promise<User> =>
        call('POST', '/users/{userId}/reset-password', { params: { userId }, body }),
    },
    branches: {
      list: (query: Query<'GET', '/branches'> = {}): Promise<Page<Branch>> =>
        call('GET', '/branches', { query }),
      get: (branchId: string): Promise<Branch> =>
        call('GET', '/branches/{branchId}', { params: { branchId } }),
      create: (body: z.input<typeof CreateBranchRequest>): Promise<Branch> =>
        call('POST', '/branches', { body }),
      update: (branchId: string, body: z.input<typeof UpdateBranchRequest>): Promise<Branch> =>
        call('PUT', '/branches/{branchId}', { params: { branchId }, body }),
    },
    settings: {
      get: (): Promise<z.infer<typeof SettingsResponse>> => call('GET', '/settings'),
      update: (body: z.input<typeof UpdateSettingsRequest>): Promise<z.infer<typeof SettingsResponse>> =>
        call('PUT', '/settings', { body }),
    },
    audit: {
      list: (query: Query<'GET', '/audit'> = {}): Promise<Page<AuditEntry>> =>
        call('GET', '/audit', { query }),
      get: (auditId: string): Promise<AuditEntry> => call('GET', '/audit/{auditId}', { params: { auditId } }),
    },
    currency: {
      list: (query: Query<'GET', '/currency'> = {}): Promise<{ items: Currency[] }> =>
        call('GET', '/currency', { query }),
      effective: (query: Query<'GET', '/currency/effective'>): Promise<z.infer<typeof EffectiveRate>> =>
        call('GET', '/currency/effective', { query }),
      overview: (): Promise<z.infer<typeof CurrencyOverview>> => call('GET', '/currency/overview'),
      branch: (): Promise<z.infer<typeof BranchCurrency>> => call('GET', '/currency/branch'),
      rates: (query: Query<'GET', '/currency/rates'> = {}): Promise<Page<ExchangeRate>> =>
        call('GET', '/currency/rates', { query }),
      addRate: (body: z.input<typeof CreateExchangeRateRequest>): Promise<ExchangeRate> =>
        call('POST', '/currency/rates', { body }),
      checkRate: (body: z.input<typeof RateCheckRequest>): Promise<z.infer<typeof RateCheckResult>> =>
        call('POST', '/currency/rates/check', { body }),
    },
    dashboard: {
      summary: (query: Query<'GET', '/dashboard/summary'> = {}): Promise<z.infer<typeof DashboardSummary>> =>
        call('GET', '/dashboard/summary', { query }),
      branchComparison: (
        query: Query<'GET', '/dashboard/branch-comparison'> = {},
      ): Promise<z.infer<typeof BranchComparison>> => call('GET', '/dashboard/branch-comparison', { query }),
    },
    /** JSON reports. */
    reports: {
      sales: (query: Query<'GET', '/reports/sales'> = {}): Promise<z.infer<typeof SalesReport>> =>
        call('GET', '/reports/sales', { query }),
      byPharmacist: (
        query: Query<'GET', '/reports/sales/by-pharmacist'> = {},
      ): Promise<z.infer<typeof PharmacistReport>> => call('GET', '/reports/sales/by-pharmacist', { query }),
      inventory: (query: Query<'GET', '/reports/inventory'> = {}): Promise<z.infer<typeof InventoryReport>> =>
        call('GET', '/reports/inventory', { query }),
      purchases: (query: Query<'GET', '/reports/purchases'> = {}): Promise<z.infer<typeof PurchasesReport>> =>
        call('GET', '/reports/purchases', { query }),
      vat: (query: Query<'GET', '/reports/vat'> = {}): Promise<z.infer<typeof VatReport>> =>
        call('GET', '/reports/vat', { query }),
    },
    approvals: {
      list: (query: Query<'GET', '/approvals'> = {}): Promise<Page<Approval>> =>
        call('GET', '/approvals', { query }),
      create: (body: z.input<typeof CreateApprovalRequest>): Promise<Approval> =>
        call('POST', '/approvals', { body }),
      decide: (approvalId: string, body: z.input<typeof DecideApprovalRequest>): Promise<Approval> =>
        call('PUT', '/approvals/{approvalId}', { params: { approvalId }, body }),
      override: (approvalId: string, body: z.input<typeof OverrideApprovalRequest>): Promise<Approval> =>
        call('POST', '/approvals/{approvalId}/override', { params: { approvalId }, body }),
    },
    notices: {
      list: (): Promise<z.infer<typeof CounterNotices>> => call('GET', '/notices'),
      acknowledge: (body: z.input<typeof AcknowledgeNoticeRequest>): Promise<undefined> =>
        call('POST', '/notices/acknowledge', { body }),
    },
    changelog: {
      list: (query: Query<'GET', '/changelog'> = {}): Promise<Page<z.infer<typeof ChangelogEntry>>> =>
        call('GET', '/changelog', { query }),
      create: (body: z.input<typeof CreateChangelogRequest>): Promise<z.infer<typeof ChangelogEntry>> =>
        call('POST', '/changelog', { body }),
    },
    books: {
      report: (query: Query<'GET', '/books'> = {}): Promise<BooksReport> =>
        call('GET', '/books', { query, timeoutMs: 60_000 }),
      warnings: (): Promise<BooksWarnings> => call('GET', '/books/warnings'),
    },
  };
}
