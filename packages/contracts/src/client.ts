import type { z } from 'zod';
import { typedCall } from './api-call';
import { backOfficeCalls } from './client-back-office';
import { counterCalls } from './client-counter';
import { hardwareCalls } from './client-hardware';
import { purchasingCalls } from './client-purchasing';
import { stockCalls } from './client-stock';
import { syncCalls } from './client-sync';
import type {
  ChangePasswordRequest,
  ChangePasswordResponse,
  Health,
  LoginRequest,
  LoginResponse,
  Problem,
  User,
} from './index';

export type { Answer, Body, Call, Method, Page, PathOf, Query } from './api-call';
export type { ClassifiedScan, ScannerState, ScannersOverview } from './client-hardware';

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
    ...backOfficeCalls(call),
    ...stockCalls(call),
    ...counterCalls(call),
    ...hardwareCalls(call),
    ...syncCalls(call),
    ...purchasingCalls(call),
  };
}

export type ApiClient = ReturnType<typeof createApiClient>;
