import type { z } from 'zod';
import type {
  AuditListQuery,
  BranchListQuery,
  ChangePasswordRequest,
  ChangePasswordResponse,
  CreateBranchRequest,
  CreateUserRequest,
  CurrencyListQuery,
  Health,
  LoginRequest,
  ResetPasswordRequest,
  SettingsResponse,
  UpdateBranchRequest,
  UpdateSettingsRequest,
  UpdateUserRequest,
  UserListQuery,
} from './index';
import type { AuditEntry, Branch, Currency, LoginResponse, Problem, User } from './index';
import { purchasingCalls } from './client-purchasing';
import type {
  AttachImageRequest,
  Batch,
  BatchListQuery,
  BranchPageQuery,
  Category,
  ClassifyScanRequest,
  CreateCategoryRequest,
  CreateMedicineRequest,
  ExpiryAlert,
  ExpiryWindowQuery,
  LedgerMovement,
  LowStockAlert,
  MovementListQuery,
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
  PrinterListQuery,
  PrinterStatusReport,
  PrintJobListQuery,
  ReceiptTemplate,
  ReceiptTemplateListQuery,
  ReprintRequest,
  TemplatePreview,
  TemplatePreviewRequest,
  UpdatePrinterRequest,
  UpdateReceiptTemplateRequest,
} from './printing';
import type {
  CentralBranchList,
  CentralSignInRequest,
  ConflictListQuery,
  ConnectTillRequest,
  Device,
  DeviceListQuery,
  ResolveConflictRequest,
  SyncConflict,
  SyncStatus,
} from './sync';
import type { BranchComparison, BranchComparisonQuery, DashboardQuery, DashboardSummary } from './dashboard';
import type {
  InventoryReport,
  InventoryReportQuery,
  PharmacistReport,
  PurchasesReport,
  PurchasesReportQuery,
  ReportWindowQuery,
  SalesReport,
  SalesReportQuery,
  VatReport,
} from './reports';
import type { ChangelogEntry, ChangelogListQuery, CreateChangelogRequest } from './announcements';
import type { Approval, ApprovalListQuery, CreateApprovalRequest, DecideApprovalRequest } from './approvals';
import type {
  CreateExchangeRateRequest,
  CurrencyOverview,
  ExchangeRate,
  ExchangeRateListQuery,
  RateCheckRequest,
  RateCheckResult,
  BranchCurrency,
} from './currency';
import type { Coupon, CouponListQuery, CreateCouponRequest, UpdateCouponRequest } from './coupons';
import type {
  BookWindowQuery,
  CashSession,
  ClassifiedBookEntry,
  CloseSessionRequest,
  CouponValidateQuery,
  CouponValidation,
  CreateCustomerRequest,
  CreatePrescriptionRequest,
  CreatePrintJobRequest,
  CreateReturnRequest,
  CreateSaleRequest,
  CreateWillCallRequest,
  Customer,
  CustomerLedgerQuery,
  CustomerLedgerRow,
  CustomerListQuery,
  CustomerPaymentRequest,
  CustomerPaymentResult,
  DispenseRequest,
  DispenseResult,
  EffectiveRate,
  EffectiveRateQuery,
  GenericSearchQuery,
  GenericSearchResult,
  Medicine,
  MedicineDetail,
  MedicineListQuery,
  OpenSessionRequest,
  ParkCartRequest,
  ParkedCart,
  ParkedListQuery,
  PickupRequest,
  PrescriptionDetail,
  PrescriptionListQuery,
  PrescriptionSummary,
  PrintJob,
  ReturnLookup,
  Sale,
  SaleDetail,
  SaleListQuery,
  SaleReturn,
  SessionSales,
  TenderDeclaration,
  TenderRequest,
  WillCall,
  WillCallListQuery,
  ZReport,
} from './index';

/**
 * Typed client for /api/v1, used by the till UI. It imports only types from the contracts,
 * so it adds no schema code to the UI bundle: the server validates, the client reports.
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
type QueryOf<T extends z.ZodType> = Partial<z.input<T>>;
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

  const get = <T>(path: string, query?: RequestOptions['query']) => request<T>('GET', path, { query });
  const send = <T>(method: string, path: string, body: unknown) => request<T>(method, path, { body });
  const id = encodeURIComponent;

  return {
    request,
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
      login: (body: z.input<typeof LoginRequest>) =>
        request<LoginResponse>('POST', '/auth/login', { body, anonymous: true }),
      me: () => get<User>('/auth/me'),
      changePassword: (body: z.input<typeof ChangePasswordRequest>) =>
        send<z.infer<typeof ChangePasswordResponse>>('POST', '/auth/change-password', body),
      refresh: () => request<TokenResponse>('POST', '/auth/refresh'),
      logout: () => request<undefined>('POST', '/auth/logout'),
    },
    users: {
      list: (query: QueryOf<typeof UserListQuery> = {}) => get<Page<User>>('/users', query),
      get: (userId: string) => get<User>(`/users/${id(userId)}`),
      unlock: (userId: string) => request<User>('POST', `/users/${id(userId)}/unlock`),
      create: (body: z.input<typeof CreateUserRequest>) => send<User>('POST', '/users', body),
      update: (userId: string, body: z.input<typeof UpdateUserRequest>) =>
        send<User>('PUT', `/users/${id(userId)}`, body),
      resetPassword: (userId: string, body: z.input<typeof ResetPasswordRequest>) =>
        send<User>('POST', `/users/${id(userId)}/reset-password`, body),
    },
    branches: {
      list: (query: QueryOf<typeof BranchListQuery> = {}) => get<Page<Branch>>('/branches', query),
      get: (branchId: string) => get<Branch>(`/branches/${id(branchId)}`),
      create: (body: z.input<typeof CreateBranchRequest>) => send<Branch>('POST', '/branches', body),
      update: (branchId: string, body: z.input<typeof UpdateBranchRequest>) =>
        send<Branch>('PUT', `/branches/${id(branchId)}`, body),
    },
    settings: {
      get: () => get<z.infer<typeof SettingsResponse>>('/settings'),
      update: (body: z.input<typeof UpdateSettingsRequest>) =>
        send<z.infer<typeof SettingsResponse>>('PUT', '/settings', body),
    },
    audit: {
      list: (query: QueryOf<typeof AuditListQuery> = {}) => get<Page<AuditEntry>>('/audit', query),
      get: (auditId: string) => get<AuditEntry>(`/audit/${id(auditId)}`),
    },
    currency: {
      list: (query: QueryOf<typeof CurrencyListQuery> = {}) => get<{ items: Currency[] }>('/currency', query),
      effective: (query: z.input<typeof EffectiveRateQuery>) =>
        get<z.infer<typeof EffectiveRate>>('/currency/effective', query),
      overview: () => get<z.infer<typeof CurrencyOverview>>('/currency/overview'),
      branch: () => get<z.infer<typeof BranchCurrency>>('/currency/branch'),
      rates: (query: QueryOf<typeof ExchangeRateListQuery> = {}) =>
        get<Page<ExchangeRate>>('/currency/rates', query),
      addRate: (body: z.input<typeof CreateExchangeRateRequest>) =>
        send<ExchangeRate>('POST', '/currency/rates', body),
      checkRate: (body: z.input<typeof RateCheckRequest>) =>
        send<z.infer<typeof RateCheckResult>>('POST', '/currency/rates/check', body),
    },
    dashboard: {
      summary: (query: QueryOf<typeof DashboardQuery> = {}) =>
        get<z.infer<typeof DashboardSummary>>('/dashboard/summary', query),
      branchComparison: (query: QueryOf<typeof BranchComparisonQuery> = {}) =>
        get<z.infer<typeof BranchComparison>>('/dashboard/branch-comparison', query),
    },
    /** JSON reports; the CSV of a section is downloaded through `request` by the Reports screen. */
    reports: {
      sales: (query: QueryOf<typeof SalesReportQuery> = {}) =>
        get<z.infer<typeof SalesReport>>('/reports/sales', query),
      byPharmacist: (query: QueryOf<typeof ReportWindowQuery> = {}) =>
        get<z.infer<typeof PharmacistReport>>('/reports/sales/by-pharmacist', query),
      inventory: (query: QueryOf<typeof InventoryReportQuery> = {}) =>
        get<z.infer<typeof InventoryReport>>('/reports/inventory', query),
      purchases: (query: QueryOf<typeof PurchasesReportQuery> = {}) =>
        get<z.infer<typeof PurchasesReport>>('/reports/purchases', query),
      vat: (query: QueryOf<typeof ReportWindowQuery> = {}) =>
        get<z.infer<typeof VatReport>>('/reports/vat', query),
    },
    approvals: {
      list: (query: QueryOf<typeof ApprovalListQuery> = {}) => get<Page<Approval>>('/approvals', query),
      create: (body: z.input<typeof CreateApprovalRequest>) => send<Approval>('POST', '/approvals', body),
      decide: (approvalId: string, body: z.input<typeof DecideApprovalRequest>) =>
        send<Approval>('PUT', `/approvals/${id(approvalId)}`, body),
    },
    changelog: {
      list: (query: QueryOf<typeof ChangelogListQuery> = {}) =>
        get<Page<z.infer<typeof ChangelogEntry>>>('/changelog', query),
      create: (body: z.input<typeof CreateChangelogRequest>) =>
        send<z.infer<typeof ChangelogEntry>>('POST', '/changelog', body),
    },
    devices: {
      list: (query: QueryOf<typeof DeviceListQuery> = {}) => get<Page<Device>>('/compliance/devices', query),
      revoke: (deviceId: string) => request<Device>('POST', `/compliance/devices/${id(deviceId)}/revoke`),
      restore: (deviceId: string) => request<Device>('POST', `/compliance/devices/${id(deviceId)}/restore`),
    },
    medicines: {
      list: (query: QueryOf<typeof MedicineListQuery> = {}, signal?: AbortSignal) =>
        request<Page<Medicine>>('GET', '/medicines', { query, signal }),
      byBarcode: (code: string) => get<Medicine>(`/medicines/barcode/${id(code)}`),
      get: (medicineId: string, query: { branch_id?: string } = {}) =>
        get<MedicineDetail>(`/medicines/${id(medicineId)}`, query),
      create: (body: z.input<typeof CreateMedicineRequest>) => send<Medicine>('POST', '/medicines', body),
      update: (medicineId: string, body: z.input<typeof UpdateMedicineRequest>) =>
        send<Medicine>('PUT', `/medicines/${id(medicineId)}`, body),
      deactivate: (medicineId: string) => request<undefined>('DELETE', `/medicines/${id(medicineId)}`),
      movements: (medicineId: string, query: QueryOf<typeof MovementListQuery> = {}) =>
        get<Page<LedgerMovement>>(`/medicines/${id(medicineId)}/movements`, query),
    },
    categories: {
      list: () => get<{ items: Category[] }>('/categories'),
      create: (body: z.input<typeof CreateCategoryRequest>) => send<Category>('POST', '/categories', body),
      update: (slug: string, body: z.input<typeof UpdateCategoryRequest>) =>
        send<Category>('PUT', `/categories/${id(slug)}`, body),
      remove: (slug: string) => request<undefined>('DELETE', `/categories/${id(slug)}`),
    },
    images: {
      medicineUploadUrl: (body: z.input<typeof UploadUrlRequest>) =>
        send<z.infer<typeof UploadUrlResponse>>('POST', '/images/medicines/upload-url', body),
      attachToMedicine: (medicineId: string, body: z.input<typeof AttachImageRequest>) =>
        send<Medicine>('POST', `/images/medicines/${id(medicineId)}/image`, body),
    },
    purchases: {
      list: (query: QueryOf<typeof BatchListQuery> = {}) => get<Page<Batch>>('/purchases', query),
      get: (batchId: string) => get<Batch>(`/purchases/${id(batchId)}`),
      receive: (body: z.input<typeof ReceiveBatchRequest>) => send<Batch>('POST', '/purchases', body),
      writeOff: (batchId: string, body: z.input<typeof WriteOffRequest>) =>
        send<Batch>('PUT', `/purchases/${id(batchId)}/write-off`, body),
      /** Quarantine, recall or release (the route lives with supplier finance). */
      setStatus: (batchId: string, body: z.input<typeof QuarantineRequest>) =>
        send<Batch>('POST', `/supplier-finance/batches/${id(batchId)}/quarantine`, body),
    },
    alerts: {
      lowStock: (query: QueryOf<typeof BranchPageQuery> = {}) =>
        get<Page<z.infer<typeof LowStockAlert>>>('/alerts/low-stock', query),
      expiring: (query: QueryOf<typeof ExpiryWindowQuery> = {}) =>
        get<Page<z.infer<typeof ExpiryAlert>>>('/alerts/expiry', query),
      expired: (query: QueryOf<typeof BranchPageQuery> = {}) =>
        get<Page<z.infer<typeof ExpiryAlert>>>('/alerts/expired', query),
    },
    scanners: {
      list: () => get<ScannersOverview>('/scanners'),
      configure: (scanners: Array<{ path: string; baud_rate: number }>) =>
        send<{ scanners: ScannerState[] }>('PUT', '/scanners', { scanners }),
      classify: (body: z.input<typeof ClassifyScanRequest>) =>
        send<ScanClassification>('POST', '/scanners/classify', body),
    },
    sessions: {
      current: () => get<CashSession>('/sessions/current'),
      open: (body: z.input<typeof OpenSessionRequest>) => send<CashSession>('POST', '/sessions/open', body),
      close: (body: z.input<typeof CloseSessionRequest>) =>
        send<CashSession>('POST', '/sessions/close', body),
      startBreak: () => request<CashSession>('POST', '/sessions/break/start'),
      endBreak: () => request<CashSession>('POST', '/sessions/break/end'),
      tender: (body: z.input<typeof TenderRequest>) =>
        send<z.infer<typeof TenderDeclaration>>('POST', '/sessions/tender', body),
      sales: (sessionId: string) => get<z.infer<typeof SessionSales>>(`/sessions/${id(sessionId)}/sales`),
      zReport: (sessionId: string) => get<ZReport>(`/sessions/${id(sessionId)}/z-report`),
    },
    sales: {
      list: (query: QueryOf<typeof SaleListQuery> = {}) => get<Page<Sale>>('/sales', query),
      get: (saleId: string) => get<SaleDetail>(`/sales/${id(saleId)}`),
      create: (body: z.input<typeof CreateSaleRequest>) => send<SaleDetail>('POST', '/sales', body),
    },
    returns: {
      lookup: (invoiceNumber: string) =>
        get<z.infer<typeof ReturnLookup>>(`/returns/lookup/${id(invoiceNumber)}`),
      create: (body: z.input<typeof CreateReturnRequest>) => send<SaleReturn>('POST', '/returns', body),
    },
    parked: {
      list: (query: QueryOf<typeof ParkedListQuery> = {}) => get<Page<ParkedCart>>('/parked', query),
      park: (body: z.input<typeof ParkCartRequest>) => send<ParkedCart>('POST', '/parked', body),
      recall: (parkedId: string) => request<ParkedCart>('POST', `/parked/${id(parkedId)}/recall`),
      void: (parkedId: string, reason: string) =>
        send<ParkedCart>('POST', `/parked/${id(parkedId)}/void`, { reason }),
    },
    coupons: {
      list: (query: QueryOf<typeof CouponListQuery> = {}) => get<Page<Coupon>>('/coupons', query),
      create: (body: z.input<typeof CreateCouponRequest>) => send<Coupon>('POST', '/coupons', body),
      update: (couponId: string, body: z.input<typeof UpdateCouponRequest>) =>
        send<Coupon>('PUT', `/coupons/${id(couponId)}`, body),
      validate: (code: string, query: QueryOf<typeof CouponValidateQuery> = {}) =>
        get<z.infer<typeof CouponValidation>>(`/coupons/validate/${id(code)}`, query),
    },
    customers: {
      list: (query: QueryOf<typeof CustomerListQuery> = {}) => get<Page<Customer>>('/customers', query),
      get: (customerId: string) => get<Customer>(`/customers/${id(customerId)}`),
      create: (body: z.input<typeof CreateCustomerRequest>) => send<Customer>('POST', '/customers', body),
      ledger: (customerId: string, query: QueryOf<typeof CustomerLedgerQuery> = {}) =>
        get<Page<CustomerLedgerRow>>(`/customers/${id(customerId)}/ledger`, query),
      pay: (customerId: string, body: z.input<typeof CustomerPaymentRequest>) =>
        send<z.infer<typeof CustomerPaymentResult>>('POST', `/customers/${id(customerId)}/payments`, body),
    },
    prescriptions: {
      list: (query: QueryOf<typeof PrescriptionListQuery> = {}) =>
        get<Page<z.infer<typeof PrescriptionSummary>>>('/prescriptions', query),
      get: (prescriptionId: string) => get<PrescriptionDetail>(`/prescriptions/${id(prescriptionId)}`),
      create: (body: z.input<typeof CreatePrescriptionRequest>) =>
        send<PrescriptionDetail>('POST', '/prescriptions', body),
      dispense: (prescriptionId: string, body: z.input<typeof DispenseRequest> = {}) =>
        send<z.infer<typeof DispenseResult>>('POST', `/prescriptions/${id(prescriptionId)}/dispense`, body),
    },
    dispensing: {
      willCall: (query: QueryOf<typeof WillCallListQuery> = {}) =>
        get<Page<WillCall>>('/dispensing/will-call', query),
      placeOnWillCall: (body: z.input<typeof CreateWillCallRequest>) =>
        send<WillCall>('POST', '/dispensing/will-call', body),
      pickup: (willCallId: string, body: z.input<typeof PickupRequest>) =>
        send<WillCall>('PUT', `/dispensing/will-call/${id(willCallId)}/pickup`, body),
      genericSearch: (query: QueryOf<typeof GenericSearchQuery>) =>
        get<z.infer<typeof GenericSearchResult>>('/dispensing/generic-search', query),
    },
    compliance: {
      classifiedBook: (query: QueryOf<typeof BookWindowQuery> = {}) =>
        get<Page<z.infer<typeof ClassifiedBookEntry>>>('/compliance/classified-drugs-book', query),
    },
    printing: {
      createJob: (body: z.input<typeof CreatePrintJobRequest>) =>
        send<PrintJob>('POST', '/printing/print-jobs', body),
      getJob: (jobId: string) => get<PrintJob>(`/printing/print-jobs/${id(jobId)}`),
      printers: (query: QueryOf<typeof PrinterListQuery> = {}) =>
        get<Page<Printer>>('/printing/printers', { page_size: 50, ...query }),
      printerStatus: (printerId: string) =>
        get<PrinterStatusReport>(`/printing/printers/${id(printerId)}/status`),
      createPrinter: (body: z.input<typeof CreatePrinterRequest>) =>
        send<Printer>('POST', '/printing/printers', body),
      updatePrinter: (printerId: string, body: z.input<typeof UpdatePrinterRequest>) =>
        send<Printer>('PUT', `/printing/printers/${id(printerId)}`, body),
      removePrinter: (printerId: string) =>
        request<undefined>('DELETE', `/printing/printers/${id(printerId)}`),
      testPrint: (printerId: string) =>
        request<PrinterActionResult>('POST', `/printing/printers/${id(printerId)}/test`),
      openDrawer: (printerId: string) =>
        request<PrinterActionResult>('POST', `/printing/printers/${id(printerId)}/drawer`),
      devices: () => get<PrinterDevices>('/printing/devices'),
      templates: (query: QueryOf<typeof ReceiptTemplateListQuery> = {}) =>
        get<Page<ReceiptTemplate>>('/printing/receipt-templates', { page_size: 100, ...query }),
      createTemplate: (body: z.input<typeof CreateReceiptTemplateRequest>) =>
        send<ReceiptTemplate>('POST', '/printing/receipt-templates', body),
      updateTemplate: (templateId: string, body: z.input<typeof UpdateReceiptTemplateRequest>) =>
        send<ReceiptTemplate>('PUT', `/printing/receipt-templates/${id(templateId)}`, body),
      previewTemplate: (body: z.input<typeof TemplatePreviewRequest>, signal?: AbortSignal) =>
        request<TemplatePreview>('POST', '/printing/receipt-templates/preview', { body, signal }),
      jobs: (query: QueryOf<typeof PrintJobListQuery> = {}) =>
        get<Page<PrintJob>>('/printing/print-jobs', query),
      cancelJob: (jobId: string) => request<PrintJob>('POST', `/printing/print-jobs/${id(jobId)}/cancel`),
      reprintJob: (jobId: string, body: z.input<typeof ReprintRequest> = {}) =>
        send<PrintJob>('POST', `/printing/print-jobs/${id(jobId)}/reprint`, body),
    },
    sync: {
      status: () => get<SyncStatus>('/sync/status'),
      centralBranches: (body: z.input<typeof CentralSignInRequest>) =>
        send<z.infer<typeof CentralBranchList>>('POST', '/sync/connect/branches', body),
      connect: (body: z.input<typeof ConnectTillRequest>) =>
        request<SyncStatus>('POST', '/sync/connect', { body, timeoutMs: 60_000 }),
      syncNow: () => request<SyncStatus>('POST', '/sync/now', { timeoutMs: 60_000 }),
      disconnect: () => request<SyncStatus>('POST', '/sync/disconnect'),
      conflicts: (query: QueryOf<typeof ConflictListQuery> = {}) =>
        get<Page<SyncConflict>>('/sync/conflicts', query),
      resolveConflict: (conflictId: string, body: z.input<typeof ResolveConflictRequest>) =>
        send<SyncConflict>('POST', `/sync/conflicts/${id(conflictId)}/resolve`, body),
    },
    ...purchasingCalls(request),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
