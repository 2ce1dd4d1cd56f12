import { randomUUID } from 'node:crypto';
import type { Express, Request } from 'express';
import type { Logger } from 'pino';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    /** A child logger carrying the request id, created on first use. */
    readonly log: Logger;
  }
}

const REQUEST_ID = /^[\w.-]{1,64}$/;
const CHILD = Symbol('request logger');
const STARTED = Symbol('request start');

type Logged = Request & { [CHILD]?: Logger; [STARTED]: number };

export interface RequestLog {
  /** Gives the request its id (a caller's X-Request-Id when it is safe, else a UUID) and its start time. */
  start(req: Request): void;
  /** Logs the answer's status once its head is written: error for 5xx, info for 4xx, debug for the rest. */
  answered(req: Request, status: number): void;
}

/**
 * Request ids and request logging, allocating nothing per request beyond the id: `req.log` is a getter on the
 * app's request prototype, and the answer line is written from the response's head (see `edge`), not from a
 * per-request finish listener. pino-http, then a per-request `defineProperty` and closures, were a tenth of the
 * CPU of a simple read (a redefined property also turns the request object into a slow dictionary for every
 * later middleware).
 */
export function requestLog(app: Express, log: Logger): RequestLog {
  const debug = log.isLevelEnabled('debug');
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Logged) {
      this[CHILD] ??= log.child({ reqId: this.id });
      return this[CHILD];
    },
  });

  return {
    start(req) {
      const incoming = req.headers['x-request-id'];
      req.id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
      (req as Logged)[STARTED] = performance.now();
    },
    answered(req, status) {
      if (status < 400 && !debug) return;
      const level = status >= 500 ? 'error' : status >= 400 ? 'info' : 'debug';
      req.log[level](
        {
          req: { method: req.method, url: req.originalUrl ?? req.url },
          res: { statusCode: status },
          ms: Math.round(performance.now() - (req as Logged)[STARTED]),
        },
        'request answered',
      );
    },
  };
}
