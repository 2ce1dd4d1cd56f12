import http from 'node:http';
import type net from 'node:net';
import { mulberry32 } from '@pharmacy/server/random';

/**
 * A fault-injecting HTTP proxy on loopback, put between tills and central (a till's CENTRAL_URL points at it).
 * Every request is read whole, then, by a seeded random draw, one of:
 * - `pass`: forwarded, central's answer relayed;
 * - `drop_request`: the client socket is closed before anything reaches central;
 * - `drop_response`: forwarded, central commits and answers, the client socket is closed without an answer;
 * - `duplicate`: forwarded twice in a row, the client gets the second answer (a replay);
 * - `delay`: held (the client waits) until a later request has gone through, or `holdMaxMs`, then forwarded;
 * - `stale`: the client socket is closed at once (it retries), the request is held and delivered to central
 *   after a later one: an old retransmission arriving after newer pushes. Its answer goes nowhere.
 * `partition(ms)` drops every request for a while; `setFaults(false)` makes it a plain proxy.
 */
export type FaultAction = 'pass' | 'drop_request' | 'drop_response' | 'duplicate' | 'delay' | 'stale';

export interface FaultProxyOptions {
  target: string;
  seed: number;
  /** Relative weights of the actions when faults are on. */
  weights?: Partial<Record<FaultAction, number>>;
  /** Longest a held (`delay`/`stale`) request waits for a later one. */
  holdMaxMs?: number;
}

const DEFAULT_WEIGHTS: Record<FaultAction, number> = {
  pass: 50,
  drop_request: 10,
  drop_response: 12,
  duplicate: 12,
  delay: 8,
  stale: 8,
};

interface Forwarded {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export class FaultProxy {
  url = '';
  faults = false;
  readonly stats: Record<FaultAction | 'partitioned', number> = {
    pass: 0,
    drop_request: 0,
    drop_response: 0,
    duplicate: 0,
    delay: 0,
    stale: 0,
    partitioned: 0,
  };
  private server: http.Server | null = null;
  private readonly random: () => number;
  private readonly weights: Array<[FaultAction, number]>;
  private partitionUntil = 0;
  private held: Array<() => void> = [];
  private readonly sockets = new Set<net.Socket>();
  private readonly target: URL;

  constructor(readonly opts: FaultProxyOptions) {
    this.random = mulberry32(opts.seed); // the proxy's decisions are reproducible from the seed
    this.target = new URL(opts.target);
    this.weights = Object.entries({ ...DEFAULT_WEIGHTS, ...opts.weights }) as Array<[FaultAction, number]>;
  }

  async start(port = 0): Promise<string> {
    const server = http.createServer((req, res) => {
      void this.handle(req, res).catch(() => res.socket?.destroy());
    });
    server.on('connection', (s) => {
      this.sockets.add(s);
      s.once('close', () => this.sockets.delete(s));
    });
    this.server = server;
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.releaseAll();
    for (const s of this.sockets) s.destroy();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  setFaults(on: boolean): void {
    this.faults = on;
  }

  /** Drops every request for `ms` from now (0 heals at once). */
  partition(ms: number): void {
    this.partitionUntil = ms > 0 ? Date.now() + ms : 0;
  }

  get partitioned(): boolean {
    return Date.now() < this.partitionUntil;
  }

  /** Heals everything: no partition, no faults, held requests delivered. */
  heal(): void {
    this.partition(0);
    this.setFaults(false);
    this.releaseAll();
  }

  private releaseAll(): void {
    const held = this.held;
    this.held = [];
    for (const release of held) release();
  }

  private pick(): FaultAction {
    if (!this.faults) return 'pass';
    const total = this.weights.reduce((a, [, w]) => a + w, 0);
    let r = this.random() * total;
    for (const [action, w] of this.weights) {
      r -= w;
      if (r < 0) return action;
    }
    return 'pass';
  }

  private forward(req: http.IncomingMessage, body: Buffer): Promise<Forwarded> {
    return new Promise((resolve, reject) => {
      const headers: http.OutgoingHttpHeaders = {
        ...req.headers,
        host: this.target.host,
        connection: 'close',
      };
      delete headers['keep-alive'];
      const out = http.request(
        {
          hostname: this.target.hostname,
          port: this.target.port,
          method: req.method,
          path: req.url,
          headers,
        },
        (upstream) => {
          const chunks: Buffer[] = [];
          upstream.on('data', (c: Buffer) => chunks.push(c));
          upstream.on('end', () =>
            resolve({
              status: upstream.statusCode ?? 502,
              headers: upstream.headers,
              body: Buffer.concat(chunks),
            }),
          );
          upstream.on('error', reject);
        },
      );
      out.on('error', reject);
      out.end(body);
    });
  }

  private answer(res: http.ServerResponse, f: Forwarded): void {
    const headers = { ...f.headers };
    delete headers['transfer-encoding'];
    delete headers.connection;
    delete headers['keep-alive'];
    headers['content-length'] = String(f.body.length);
    res.writeHead(f.status, headers);
    res.end(f.body);
  }

  /** Central unreachable behind the proxy: what a gateway answers (the till treats 502 as offline). */
  private badGateway(res: http.ServerResponse): void {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end('central unreachable');
  }

  private async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const body = Buffer.concat(chunks);
    if (this.partitioned) {
      this.stats.partitioned++;
      res.socket?.destroy();
      return;
    }
    const action = this.pick();
    this.stats[action]++;
    // A request that goes through releases the ones held before it (after it: a reorder).
    const before = this.held;
    this.held = [];
    const releaseEarlier = () => {
      for (const release of before) release();
    };
    try {
      switch (action) {
        case 'pass': {
          const f = await this.forward(req, body);
          releaseEarlier();
          this.answer(res, f);
          return;
        }
        case 'drop_request':
          this.held.push(...before);
          res.socket?.destroy();
          return;
        case 'drop_response': {
          await this.forward(req, body);
          releaseEarlier();
          res.socket?.destroy();
          return;
        }
        case 'duplicate': {
          await this.forward(req, body);
          const second = await this.forward(req, body);
          releaseEarlier();
          this.answer(res, second);
          return;
        }
        case 'delay':
        case 'stale': {
          this.held.push(...before);
          if (action === 'stale') res.socket?.destroy();
          await new Promise<void>((resolve) => {
            let done = false;
            const release = () => {
              if (done) return;
              done = true;
              clearTimeout(timer);
              resolve();
            };
            const timer = setTimeout(() => {
              this.held = this.held.filter((r) => r !== release);
              release();
            }, this.opts.holdMaxMs ?? 1500);
            this.held.push(release);
          });
          const f = await this.forward(req, body);
          if (action === 'delay' && !res.socket?.destroyed) this.answer(res, f);
          return;
        }
      }
    } catch {
      releaseEarlier();
      this.badGateway(res);
    }
  }
}
