import type { z } from 'zod';
import type {
  ChangePasswordRequest,
  ChangePasswordResponse,
  CreateBranchRequest,
  CreateUserRequest,
  Health,
  LoginRequest,
  ResetPasswordRequest,
  SettingsResponse,
  UpdateBranchRequest,
  UpdateSettingsRequest,
  UpdateUserRequest,
} from './index';
import type { AuditEntry, Branch, Currency, LoginResponse, Problem, User } from './index';
import { type Query, typedCall } from './api-call';
import { purchasingCalls } from './client-purchasing';
import type {
  AttachImageRequest,
  Batch,
  Category,
  ClassifyScanRequest,
  CreateCategoryRequest,
  CreateMedicineRequest,
  ExpiryAlert,
  LedgerMovement,
  LowStockAlert,
  QuarantineRequest,
  ReceiveBatchRequest,
  ScanClassification,
  UpdateCategoryRequest,
  UpdateMedicineRequest,
  UploadUrlRequest,
  UploadUrlResponse,
  WriteOffRequest,
} from './index';
import type {
  CreatePrinterRequest,
  CreateReceiptTemplateRequest,
  Printer,
  PrinterActionResult,
  PrinterDevices,
  PrinterStatusReport,
  ReceiptTemplate,
  ReprintRequest,
  TemplatePreview,
  TemplatePreviewRequest,
  UpdatePrinterRequest,
  UpdateReceiptTemplateRequest,
} from './printing';
import type {
  CentralBranchList,
  CentralSignInRequest,
  ConnectTillRequest,
  DisconnectTillRequest,
  HeldRecords,
  HeldRecordsArchive,
  Device,
  ResolveConflictRequest,
  SyncConflict,
  SyncStatus,
} from './sync';
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
  CreateExchangeRateRequest,
  CurrencyOverview,
  ExchangeRate,
  RateCheckRequest,
  RateCheckResult,
  BranchCurrency,
} from './currency';
import type { Coupon, CreateCouponRequest, UpdateCouponRequest } from './coupons';
import type {
  CashSession,
  ClassifiedBookEntry,
  CloseSessionRequest,
  CouponValidation,
  CreateCustomerRequest,
  CreatePrescriptionRequest,
  CreatePrintJobRequest,
  CreateReturnRequest,
  CreateSaleRequest,
  CreateWillCallRequest,
  Customer,
  CustomerLedgerRow,
  CustomerPaymentRequest,
  CustomerPaymentResult,
  UpdateCustomerRequest,
  DispenseRequest,
  DispenseResult,
  EffectiveRate,
  GenericSearchResult,
  Medicine,
  MedicineDetail,
  OpenSessionRequest,
  ParkCartRequest,
  ParkedCart,
  PickupRequest,
  ReturnWillCallRequest,
  PrescriptionDetail,
  PrescriptionSummary,
  PrintJob,
  ReturnLookup,
  Sale,
  SaleDetail,
  SaleReceiptText,
  SaleReturn,
  SessionSales,
  TenderDeclaration,
  TenderRequest,
  WillCall,
  ZReport,
} from './index';

export type { Answer, Body, Call, Method, PathOf, Query } from './api-call';

/**
 * Typed client for /api/v1, used by the till UI. It imports only types from the contracts,
 * so it adds no schema code to the UI bundle: the server validates, the client reports.
 * Every call goes through `call(method, pathTemplate, { params, query, body })`, typed by the routes the
 * server declares (api-paths.ts, `npm run gen:api-types`): each function's return type and body type are
 * the contracts' zod-inferred ones, and tsc checks them against the route's generated types.
 */

export type FieldError = { path: string; message: string };

/** A failed request: a problem+json answer from the server, or a network failure (status 0). */
export class ApiError extends Error {
  override readonly name = 'ApiError';
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
    readonly errors: FieldError[] = [],
    /** Seconds from a Retry-After header (429), when the server sent one. */
    readonly retryAfterSeconds?: number,
  ) {
    super(detail);
  }

  /** The message of the first error on a form field, e.g. `fieldError('new_password')`. */
  fieldError(path: string): string | undefined {
    return this.errors.find((e) => e.path === path)?.message;
  }

  get isNetworkError(): boolean {
    return this.status === 0;
  }
}

export type Page<T> = { items: T[]; total: number; page: number; page_size: number };
export type TokenResponse = { access_token: string; token_type: 'bearer'; expires_in: number };
type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: object;
  body?: unknown;
  signal?: AbortSignal;
  /** Skip the bearer token (login). */
  anonymous?: boolean;
  /** This call's own time limit (one that waits on head office), instead of the client's. */
  timeoutMs?: number;
}

export interface ApiClientOptions {
  /** Origin of the server; empty for the same origin (the till UI). */
  baseUrl?: string;
  getToken?: () => string | null;
  /** Called with every 401 of an authenticated request, before the error is thrown. */
  onUnauthorized?: (error: ApiError) => void;
  fetch?: typeof fetch;
  /** Milliseconds before a request is abandoned as a network error; default 15 s. */
  timeoutMs?: number;
}

export function queryString(query: object | undefined): string {
  if (!query) return '';
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query) as [string, QueryValue][]) {
    if (value === undefined || value === null || value === '') continue;
    params.set(key, String(value));
  }
  const s = params.toString();
  return s ? `?${s}` : '';
}

function parseRetryAfter(header: string | null): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return Math.max(0, Math.ceil(seconds));
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

async function errorFrom(res: Response): Promise<ApiError> {
  const retryAfter = parseRetryAfter(res.headers.get('retry-after'));
  let body: Partial<Problem> & { detail?: unknown } = {};
  try {
    body = (await res.json()) as Partial<Problem>;
  } catch {
    // Not JSON (a proxy page, an empty body): keep the status line as the message.
  }
  const detail =
    typeof body.detail === 'string' && body.detail ? body.detail : `${res.status} ${res.statusText}`.trim();
  const code = typeof body.code === 'string' ? body.code : `HTTP_${res.status}`;
  const errors = Array.isArray(body.errors) ? body.errors : [];
  return new ApiError(res.status, code, detail, errors, retryAfter);
}

/** A serial scanner of this till and how it is (GET /scanners). */
export interface ScannerState {
  path: string;
  baud_rate: number;
  open: boolean;
  last_error: string | null;
  last_scan_at: string | null;
}

export interface ScannersOverview {
  scanners: ScannerState[];
  configured_by: 'environment' | 'till';
  ports: Array<{ path: string; manufacturer?: string; serialNumber?: string }>;
  warning?: string;
}

/** The server's classification of a scan (classifyScan): GS1 fields, a retail code, or why it is neither. */
export interface ClassifiedScan {
  code: string;
  classification: ScanClassification;
}

export function createApiClient(options: ApiClientOptions = {}) {
  const baseUrl = (options.baseUrl ?? '').replace(/\/$/, '');
  const doFetch = options.fetch ?? ((...args: Parameters<typeof fetch>) => fetch(...args));
  const timeoutMs = options.timeoutMs ?? 15_000;

  async function request<T>(method: string, path: string, opts: RequestOptions = {}): Promise<T> {
    const headers: Record<string, string> = { Accept: 'application/json, application/problem+json' };
    const token = opts.anonymous ? null : (options.getToken?.() ?? null);
    if (token) headers.Authorization = `Bearer ${token}`;
    if (opts.body !== undefined) headers['Content-Type'] = 'application/json';
    const timeout = AbortSignal.timeout(opts.timeoutMs ?? timeoutMs);
    const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout;

    let res: Response;
    try {
      res = await doFetch(`${baseUrl}/api/v1${path}${queryString(opts.query)}`, {
        method,
        headers,
        body: opts.body === undefined ? undefined : JSON.stringify(opts.body),
        signal,
      });
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      const timedOut = timeout.aborted;
      throw new ApiError(
        0,
        timedOut ? 'TIMEOUT' : 'NETWORK',
        timedOut ? 'The till server did not answer in time.' : 'The till server cannot be reached.',
      );
    }
    if (!res.ok) {
      const error = await errorFrom(res);
      if (res.status === 401 && token) options.onUnauthorized?.(error);
      throw error;
    }
    if (res.status === 204) return undefined as T;
    return (await res.json()) as T;
  }

  const call = typedCall(request);

  return {
    async health(): Promise<z.infer<typeof Health>> {
      let res: Response;
      try {
        res = await doFetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(5_000) });
      } catch {
        throw new ApiError(0, 'NETWORK', 'The till server cannot be reached.');
      }
      if (!res.ok && res.status !== 503) throw await errorFrom(res);
      return (await res.json()) as z.infer<typeof Health>;
    },
    auth: {
      login: (body: z.input<typeof LoginRequest>): Promise<LoginResponse> =>
        call('POST', '/auth/login', { body, anonymous: true }),
      me: (): Promise<User> => call('GET', '/auth/me'),
      changePassword: (
        body: z.input<typeof ChangePasswordRequest>,
      ): Promise<z.infer<typeof ChangePasswordResponse>> => call('POST', '/auth/change-password', { body }),
      refresh: (): Promise<TokenResponse> => call('POST', '/auth/refresh'),
      logout: (): Promise<undefined> => call('POST', '/auth/logout'),
    },
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
    devices: {
      list: (query: Query<'GET', '/compliance/devices'> = {}): Promise<Page<Device>> =>
        call('GET', '/compliance/devices', { query }),
      revoke: (deviceId: string): Promise<Device> =>
        call('POST', '/compliance/devices/{deviceId}/revoke', { params: { deviceId } }),
      restore: (deviceId: string): Promise<Device> =>
        call('POST', '/compliance/devices/{deviceId}/restore', { params: { deviceId } }),
    },
    medicines: {
      list: (query: Query<'GET', '/medicines'> = {}, signal?: AbortSignal): Promise<Page<Medicine>> =>
        call('GET', '/medicines', { query, signal }),
      byBarcode: (code: string): Promise<Medicine> =>
        call('GET', '/medicines/barcode/{code}', { params: { code } }),
      get: (
        medicineId: string,
        query: Query<'GET', '/medicines/{medicineId}'> = {},
      ): Promise<MedicineDetail> => call('GET', '/medicines/{medicineId}', { params: { medicineId }, query }),
      create: (body: z.input<typeof CreateMedicineRequest>): Promise<Medicine> =>
        call('POST', '/medicines', { body }),
      update: (medicineId: string, body: z.input<typeof UpdateMedicineRequest>): Promise<Medicine> =>
        call('PUT', '/medicines/{medicineId}', { params: { medicineId }, body }),
      deactivate: (medicineId: string): Promise<undefined> =>
        call('DELETE', '/medicines/{medicineId}', { params: { medicineId } }),
      movements: (
        medicineId: string,
        query: Query<'GET', '/medicines/{medicineId}/movements'> = {},
      ): Promise<Page<LedgerMovement>> =>
        call('GET', '/medicines/{medicineId}/movements', { params: { medicineId }, query }),
    },
    categories: {
      list: (): Promise<{ items: Category[] }> => call('GET', '/categories'),
      create: (body: z.input<typeof CreateCategoryRequest>): Promise<Category> =>
        call('POST', '/categories', { body }),
      update: (slug: string, body: z.input<typeof UpdateCategoryRequest>): Promise<Category> =>
        call('PUT', '/categories/{slug}', { params: { slug }, body }),
      remove: (slug: string): Promise<undefined> =>
        call('DELETE', '/categories/{slug}', { params: { slug } }),
    },
    images: {
      medicineUploadUrl: (
        body: z.input<typeof UploadUrlRequest>,
      ): Promise<z.infer<typeof UploadUrlResponse>> => call('POST', '/images/medicines/upload-url', { body }),
      attachToMedicine: (medicineId: string, body: z.input<typeof AttachImageRequest>): Promise<Medicine> =>
        call('POST', '/images/medicines/{medicineId}/image', { params: { medicineId }, body }),
    },
    purchases: {
      list: (query: Query<'GET', '/purchases'> = {}): Promise<Page<Batch>> =>
        call('GET', '/purchases', { query }),
      get: (batchId: string): Promise<Batch> => call('GET', '/purchases/{batchId}', { params: { batchId } }),
      receive: (body: z.input<typeof ReceiveBatchRequest>): Promise<Batch> =>
        call('POST', '/purchases', { body }),
      writeOff: (batchId: string, body: z.input<typeof WriteOffRequest>): Promise<Batch> =>
        call('PUT', '/purchases/{batchId}/write-off', { params: { batchId }, body }),
      /** Quarantine, recall or release (the route lives with supplier finance). */
      setStatus: (batchId: string, body: z.input<typeof QuarantineRequest>): Promise<Batch> =>
        call('POST', '/supplier-finance/batches/{batchId}/quarantine', { params: { batchId }, body }),
    },
    alerts: {
      lowStock: (
        query: Query<'GET', '/alerts/low-stock'> = {},
      ): Promise<Page<z.infer<typeof LowStockAlert>>> => call('GET', '/alerts/low-stock', { query }),
      expiring: (query: Query<'GET', '/alerts/expiry'> = {}): Promise<Page<z.infer<typeof ExpiryAlert>>> =>
        call('GET', '/alerts/expiry', { query }),
      expired: (query: Query<'GET', '/alerts/expired'> = {}): Promise<Page<z.infer<typeof ExpiryAlert>>> =>
        call('GET', '/alerts/expired', { query }),
    },
    scanners: {
      list: (): Promise<ScannersOverview> => call('GET', '/scanners'),
      configure: (
        scanners: Array<{ path: string; baud_rate: number }>,
      ): Promise<{ scanners: ScannerState[] }> => call('PUT', '/scanners', { body: { scanners } }),
      classify: (body: z.input<typeof ClassifyScanRequest>): Promise<ScanClassification> =>
        call('POST', '/scanners/classify', { body }),
    },
    sessions: {
      current: (): Promise<CashSession> => call('GET', '/sessions/current'),
      history: (query: Query<'GET', '/sessions/history'> = {}): Promise<Page<CashSession>> =>
        call('GET', '/sessions/history', { query }),
      open: (body: z.input<typeof OpenSessionRequest>): Promise<CashSession> =>
        call('POST', '/sessions/open', { body }),
      close: (body: z.input<typeof CloseSessionRequest>): Promise<CashSession> =>
        call('POST', '/sessions/close', { body }),
      startBreak: (): Promise<CashSession> => call('POST', '/sessions/break/start'),
      endBreak: (): Promise<CashSession> => call('POST', '/sessions/break/end'),
      tender: (body: z.input<typeof TenderRequest>): Promise<z.infer<typeof TenderDeclaration>> =>
        call('POST', '/sessions/tender', { body }),
      sales: (sessionId: string): Promise<z.infer<typeof SessionSales>> =>
        call('GET', '/sessions/{sessionId}/sales', { params: { sessionId } }),
      zReport: (sessionId: string): Promise<ZReport> =>
        call('GET', '/sessions/{sessionId}/z-report', { params: { sessionId } }),
    },
    sales: {
      list: (query: Query<'GET', '/sales'> = {}): Promise<Page<Sale>> => call('GET', '/sales', { query }),
      get: (saleId: string): Promise<SaleDetail> => call('GET', '/sales/{saleId}', { params: { saleId } }),
      receipt: (
        saleId: string,
        query: Query<'GET', '/sales/{saleId}/receipt'> = {},
      ): Promise<SaleReceiptText> => call('GET', '/sales/{saleId}/receipt', { params: { saleId }, query }),
      create: (body: z.input<typeof CreateSaleRequest>): Promise<SaleDetail> =>
        call('POST', '/sales', { body }),
    },
    returns: {
      lookup: (invoiceNumber: string): Promise<z.infer<typeof ReturnLookup>> =>
        call('GET', '/returns/lookup/{invoiceNumber}', { params: { invoiceNumber } }),
      create: (body: z.input<typeof CreateReturnRequest>): Promise<SaleReturn> =>
        call('POST', '/returns', { body }),
    },
    parked: {
      list: (query: Query<'GET', '/parked'> = {}): Promise<Page<ParkedCart>> =>
        call('GET', '/parked', { query }),
      park: (body: z.input<typeof ParkCartRequest>): Promise<ParkedCart> => call('POST', '/parked', { body }),
      recall: (parkedId: string): Promise<ParkedCart> =>
        call('POST', '/parked/{parkedId}/recall', { params: { parkedId } }),
      void: (parkedId: string, reason: string): Promise<ParkedCart> =>
        call('POST', '/parked/{parkedId}/void', { params: { parkedId }, body: { reason } }),
    },
    coupons: {
      list: (query: Query<'GET', '/coupons'> = {}): Promise<Page<Coupon>> =>
        call('GET', '/coupons', { query }),
      create: (body: z.input<typeof CreateCouponRequest>): Promise<Coupon> =>
        call('POST', '/coupons', { body }),
      update: (couponId: string, body: z.input<typeof UpdateCouponRequest>): Promise<Coupon> =>
        call('PUT', '/coupons/{couponId}', { params: { couponId }, body }),
      validate: (
        code: string,
        query: Query<'GET', '/coupons/validate/{code}'> = {},
      ): Promise<z.infer<typeof CouponValidation>> =>
        call('GET', '/coupons/validate/{code}', { params: { code }, query }),
    },
    customers: {
      list: (query: Query<'GET', '/customers'> = {}): Promise<Page<Customer>> =>
        call('GET', '/customers', { query }),
      get: (customerId: string): Promise<Customer> =>
        call('GET', '/customers/{customerId}', { params: { customerId } }),
      create: (body: z.input<typeof CreateCustomerRequest>): Promise<Customer> =>
        call('POST', '/customers', { body }),
      update: (customerId: string, body: z.input<typeof UpdateCustomerRequest>): Promise<Customer> =>
        call('PUT', '/customers/{customerId}', { params: { customerId }, body }),
      possibleDuplicates: (query: Query<'GET', '/customers/possible-duplicates'>): Promise<Customer[]> =>
        call('GET', '/customers/possible-duplicates', { query }),
      ledger: (
        customerId: string,
        query: Query<'GET', '/customers/{customerId}/ledger'> = {},
      ): Promise<Page<CustomerLedgerRow>> =>
        call('GET', '/customers/{customerId}/ledger', { params: { customerId }, query }),
      pay: (
        customerId: string,
        body: z.input<typeof CustomerPaymentRequest>,
      ): Promise<z.infer<typeof CustomerPaymentResult>> =>
        call('POST', '/customers/{customerId}/payments', { params: { customerId }, body }),
    },
    prescriptions: {
      list: (
        query: Query<'GET', '/prescriptions'> = {},
      ): Promise<Page<z.infer<typeof PrescriptionSummary>>> => call('GET', '/prescriptions', { query }),
      get: (prescriptionId: string): Promise<PrescriptionDetail> =>
        call('GET', '/prescriptions/{prescriptionId}', { params: { prescriptionId } }),
      create: (body: z.input<typeof CreatePrescriptionRequest>): Promise<PrescriptionDetail> =>
        call('POST', '/prescriptions', { body }),
      dispense: (
        prescriptionId: string,
        body: z.input<typeof DispenseRequest> = {},
      ): Promise<z.infer<typeof DispenseResult>> =>
        call('POST', '/prescriptions/{prescriptionId}/dispense', { params: { prescriptionId }, body }),
    },
    dispensing: {
      willCall: (query: Query<'GET', '/dispensing/will-call'> = {}): Promise<Page<WillCall>> =>
        call('GET', '/dispensing/will-call', { query }),
      placeOnWillCall: (body: z.input<typeof CreateWillCallRequest>): Promise<WillCall> =>
        call('POST', '/dispensing/will-call', { body }),
      pickup: (willCallId: string, body: z.input<typeof PickupRequest>): Promise<WillCall> =>
        call('PUT', '/dispensing/will-call/{willCallId}/pickup', { params: { willCallId }, body }),
      returnToStock: (willCallId: string, body: z.input<typeof ReturnWillCallRequest>): Promise<WillCall> =>
        call('POST', '/dispensing/will-call/{willCallId}/return', { params: { willCallId }, body }),
      genericSearch: (
        query: Query<'GET', '/dispensing/generic-search'>,
      ): Promise<z.infer<typeof GenericSearchResult>> => call('GET', '/dispensing/generic-search', { query }),
    },
    compliance: {
      classifiedBook: (
        query: Query<'GET', '/compliance/classified-drugs-book'> = {},
      ): Promise<Page<z.infer<typeof ClassifiedBookEntry>>> =>
        call('GET', '/compliance/classified-drugs-book', { query }),
    },
    printing: {
      createJob: (body: z.input<typeof CreatePrintJobRequest>): Promise<PrintJob> =>
        call('POST', '/printing/print-jobs', { body }),
      getJob: (jobId: string): Promise<PrintJob> =>
        call('GET', '/printing/print-jobs/{jobId}', { params: { jobId } }),
      printers: (query: Query<'GET', '/printing/printers'> = {}): Promise<Page<Printer>> =>
        call('GET', '/printing/printers', { query: { page_size: 50, ...query } }),
      printerStatus: (printerId: string): Promise<PrinterStatusReport> =>
        call('GET', '/printing/printers/{printerId}/status', { params: { printerId } }),
      createPrinter: (body: z.input<typeof CreatePrinterRequest>): Promise<Printer> =>
        call('POST', '/printing/printers', { body }),
      updatePrinter: (printerId: string, body: z.input<typeof UpdatePrinterRequest>): Promise<Printer> =>
        call('PUT', '/printing/printers/{printerId}', { params: { printerId }, body }),
      removePrinter: (printerId: string): Promise<undefined> =>
        call('DELETE', '/printing/printers/{printerId}', { params: { printerId } }),
      testPrint: (printerId: string): Promise<PrinterActionResult> =>
        call('POST', '/printing/printers/{printerId}/test', { params: { printerId } }),
      openDrawer: (printerId: string): Promise<PrinterActionResult> =>
        call('POST', '/printing/printers/{printerId}/drawer', { params: { printerId } }),
      devices: (): Promise<PrinterDevices> => call('GET', '/printing/devices'),
      templates: (query: Query<'GET', '/printing/receipt-templates'> = {}): Promise<Page<ReceiptTemplate>> =>
        call('GET', '/printing/receipt-templates', { query: { page_size: 100, ...query } }),
      createTemplate: (body: z.input<typeof CreateReceiptTemplateRequest>): Promise<ReceiptTemplate> =>
        call('POST', '/printing/receipt-templates', { body }),
      updateTemplate: (
        templateId: string,
        body: z.input<typeof UpdateReceiptTemplateRequest>,
      ): Promise<ReceiptTemplate> =>
        call('PUT', '/printing/receipt-templates/{templateId}', { params: { templateId }, body }),
      previewTemplate: (
        body: z.input<typeof TemplatePreviewRequest>,
        signal?: AbortSignal,
      ): Promise<TemplatePreview> => call('POST', '/printing/receipt-templates/preview', { body, signal }),
      jobs: (query: Query<'GET', '/printing/print-jobs'> = {}): Promise<Page<PrintJob>> =>
        call('GET', '/printing/print-jobs', { query }),
      cancelJob: (jobId: string): Promise<PrintJob> =>
        call('POST', '/printing/print-jobs/{jobId}/cancel', { params: { jobId } }),
      reprintJob: (jobId: string, body: z.input<typeof ReprintRequest> = {}): Promise<PrintJob> =>
        call('POST', '/printing/print-jobs/{jobId}/reprint', { params: { jobId }, body }),
    },
    sync: {
      status: (): Promise<SyncStatus> => call('GET', '/sync/status'),
      centralBranches: (
        body: z.input<typeof CentralSignInRequest>,
      ): Promise<z.infer<typeof CentralBranchList>> => call('POST', '/sync/connect/branches', { body }),
      connect: (body: z.input<typeof ConnectTillRequest>): Promise<SyncStatus> =>
        call('POST', '/sync/connect', { body, timeoutMs: 60_000 }),
      syncNow: (): Promise<SyncStatus> => call('POST', '/sync/now', { timeoutMs: 60_000 }),
      heldRecords: (): Promise<HeldRecords> => call('GET', '/sync/connect/held-records'),
      archiveHeldRecords: (): Promise<HeldRecordsArchive> =>
        call('POST', '/sync/connect/archive', { timeoutMs: 60_000 }),
      disconnect: (body: z.input<typeof DisconnectTillRequest>): Promise<SyncStatus> =>
        call('POST', '/sync/disconnect', { body }),
      conflicts: (query: Query<'GET', '/sync/conflicts'> = {}): Promise<Page<SyncConflict>> =>
        call('GET', '/sync/conflicts', { query }),
      resolveConflict: (
        conflictId: string,
        body: z.input<typeof ResolveConflictRequest>,
      ): Promise<SyncConflict> =>
        call('POST', '/sync/conflicts/{id}/resolve', { params: { id: conflictId }, body }),
    },
    books: {
      report: (query: Query<'GET', '/books'> = {}): Promise<BooksReport> =>
        call('GET', '/books', { query, timeoutMs: 60_000 }),
      warnings: (): Promise<BooksWarnings> => call('GET', '/books/warnings'),
    },
    ...purchasingCalls(call),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
