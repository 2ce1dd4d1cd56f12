import { randomUUID } from 'node:crypto';
import type { Express, Request, Response } from 'express';
import type { Logger } from 'pino';

declare module 'express-serve-static-core' {
  interface Request {
    id: string;
    /** A child logger carrying the request id, created on first use. */
    readonly log: Logger;
  }
}

const REQUEST_ID = /^[\w.-]{1,64}$/;
const BASE = Symbol('base logger');
const CHILD = Symbol('request logger');
const STARTED = Symbol('request start');

type Logged = Request & { [CHILD]?: Logger; [STARTED]: number };
type WithBase = { [BASE]: Logger };

/**
 * Request ids and request logging. Every request gets an id (a caller's X-Request-Id when it is safe, else a
 * UUID), echoed in the response. The completion line is written at debug level for successes, info for 4xx
 * and error for 5xx. Nothing is allocated per request beyond the id: `req.log` is a getter on the app's
 * request prototype and the finish listener is one shared function. pino-http, then a per-request
 * `defineProperty` and closures, were a tenth of the CPU of a simple read (a redefined property also turns
 * the request object into a slow dictionary for every later middleware).
 */
export function requestLog(app: Express, log: Logger): (req: Request, res: Response) => void {
  const debug = log.isLevelEnabled('debug');
  (app.request as unknown as WithBase)[BASE] = log;
  Object.defineProperty(app.request, 'log', {
    configurable: true,
    get(this: Logged & WithBase) {
      this[CHILD] ??= this[BASE].child({ reqId: this.id });
      return this[CHILD];
    },
  });

  function finished(this: Response) {
    const status = this.statusCode;
    if (status < 400 && !debug) return;
    const req = this.req as Logged;
    const level = status >= 500 ? 'error' : status >= 400 ? 'info' : 'debug';
    req.log[level](
      {
        req: { method: req.method, url: req.originalUrl },
        res: { statusCode: status },
        ms: Math.round(performance.now() - req[STARTED]),
      },
      'request completed',
    );
  }

  return (req, res) => {
    const incoming = req.headers['x-request-id'];
    const id = typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    req.id = id;
    (req as Logged)[STARTED] = performance.now();
    res.setHeader('X-Request-Id', id);
    res.on('finish', finished);
  };
}
