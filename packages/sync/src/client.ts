import {
  APP_VERSION_HEADER,
  DEVICE_TOKEN_HEADER,
  type SyncChange,
  type SyncPullResponse,
  type SyncPushResponse,
} from '@pharmacy/contracts';
import { AddressRefused, checkedLookup, hostProblem } from '@pharmacy/contracts/net-address';
import type { Agent, fetch as undiciFetch, RequestInit, Response } from 'undici';

/** Central answered with an error status (problem+json code when it gave one). */
export class SyncHttpError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    readonly detail: string,
  ) {
    super(`${status} ${code}: ${detail}`);
  }
}

/** Central could not be reached (refused, reset, timed out): the till is offline. */
export class SyncNetworkError extends Error {
  readonly code = 'OFFLINE';
}

export interface CentralClientOptions {
  centralUrl: string;
  deviceId: string;
  deviceToken: string;
  appVersion: string;
  timeoutMs?: number;
}

/**
 * Connections to head office go only where a person may point the connect form (contracts/net-address.ts,
 * issue 26 M3): every new connection resolves and checks the host again, so a name that later resolves to a
 * link-local or metadata address is refused like a typed one. undici is loaded on the first call to head
 * office: evaluating it cost about 40 ms of CPU at every server's start, central's and unconnected tills' too.
 */
let toHeadOffice: Promise<{ fetch: typeof undiciFetch; dispatcher: Agent }> | undefined;
const headOffice = () =>
  (toHeadOffice ??= import('undici').then(({ Agent, fetch }) => ({
    fetch,
    dispatcher: new Agent({ connect: { lookup: checkedLookup } }),
  })));

/** The till's HTTP face to central's sync API, authenticated by the device credential. */
export class CentralClient {
  constructor(readonly opts: CentralClientOptions) {}

  private headers(extra: Record<string, string> = {}): Record<string, string> {
    return {
      [DEVICE_TOKEN_HEADER]: this.opts.deviceToken,
      [APP_VERSION_HEADER]: this.opts.appVersion,
      ...extra,
    };
  }

  private async request(
    path: string,
    init: RequestInit,
    timeoutMs = this.opts.timeoutMs ?? 30_000,
  ): Promise<Response> {
    let res: Response;
    const url = new URL(`/api/v1${path}`, this.opts.centralUrl);
    const refused = hostProblem(url.hostname);
    if (refused) throw new SyncNetworkError(`central unreachable: ${new AddressRefused(refused).message}`);
    const { fetch, dispatcher } = await headOffice();
    try {
      res = await fetch(url, { ...init, dispatcher, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new SyncNetworkError(`central unreachable: ${(err as Error).cause ?? (err as Error).message}`);
    }
    if (!res.ok) {
      const text = await res.text().catch(() => '');
      let code = `HTTP_${res.status}`;
      let detail = text.slice(0, 300);
      try {
        const body = JSON.parse(text) as { code?: string; detail?: string };
        if (body.code) code = body.code;
        if (body.detail) detail = body.detail;
      } catch {
        // not JSON: a proxy or a dying server
      }
      if (res.status === 502 || res.status === 504)
        throw new SyncNetworkError(`central unreachable: ${res.status}`);
      throw new SyncHttpError(res.status, code, detail);
    }
    return res;
  }

  async push(changes: SyncChange[]): Promise<SyncPushResponse> {
    const res = await this.request('/sync/push', {
      method: 'POST',
      headers: this.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify({ device_id: this.opts.deviceId, changes }),
    });
    return parseJson<SyncPushResponse>(res);
  }

  async pull(since: number, limit: number, epoch: string | null): Promise<SyncPullResponse> {
    const q = new URLSearchParams({
      device_id: this.opts.deviceId,
      since: String(since),
      limit: String(limit),
    });
    if (epoch) q.set('epoch', epoch);
    const res = await this.request(`/sync/pull?${q}`, { method: 'GET', headers: this.headers() });
    return parseJson<SyncPullResponse>(res);
  }

  /** Sends this till's figures of a day; central compares them with its own and answers the comparison. */
  async books<T>(book: unknown): Promise<T> {
    const res = await this.request('/sync/books', {
      method: 'POST',
      headers: this.headers({ 'content-type': 'application/json' }),
      body: JSON.stringify({ device_id: this.opts.deviceId, book }),
    });
    return parseJson<T>(res);
  }

  /** The snapshot as an async iterable of NDJSON lines, decoded as it downloads. */
  async *snapshot(): AsyncGenerator<string> {
    const q = new URLSearchParams({ device_id: this.opts.deviceId });
    const res = await this.request(
      `/sync/snapshot?${q}`,
      { method: 'GET', headers: this.headers() },
      30 * 60_000,
    );
    if (!res.body) throw new SyncNetworkError('snapshot without a body');
    const decoder = new TextDecoder();
    let buffered = '';
    try {
      // undici types the body's chunks as any: check what Node's fetch gives (bytes).
      const body: AsyncIterable<unknown> = res.body;
      for await (const chunk of body) {
        if (!(chunk instanceof Uint8Array)) throw new Error('a chunk that is not bytes');
        const parts = (buffered + decoder.decode(chunk, { stream: true })).split('\n');
        buffered = parts.pop() ?? '';
        for (const line of parts) yield line;
      }
    } catch (err) {
      throw new SyncNetworkError(`snapshot download failed: ${(err as Error).message}`);
    }
    buffered += decoder.decode();
    if (buffered) yield buffered;
  }
}

async function parseJson<T>(res: Response): Promise<T> {
  try {
    return (await res.json()) as T;
  } catch (err) {
    throw new SyncNetworkError(`central answer unreadable: ${(err as Error).message}`);
  }
}
