import type { IncomingMessage, ServerResponse } from 'node:http';
import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { cors } from './cors';
import { requestLog } from './request-log';

/**
 * helmet's headers with its defaults, taken once: they do not depend on the request, and running helmet's
 * thirteen middlewares on every request cost more than setting the same headers from a list.
 */
export function helmetHeaders(): [string, string][] {
  const headers: [string, string][] = [];
  const collector = {
    setHeader: (name: string, value: unknown) => headers.push([name, String(value)]),
    removeHeader: () => undefined,
  };
  helmet()({} as IncomingMessage, collector as unknown as ServerResponse, () => undefined);
  return headers;
}

/**
 * The headers of every /api answer, after OWASP's REST guidance: JSON is never rendered, framed or cached, so
 * helmet's document policies (a long CSP, cross-origin isolation hints) do nothing there, while `no-store` keeps
 * patients' and money records out of browser and proxy caches. The UI's pages keep helmet's full set.
 */
export const API_HEADERS: readonly (readonly [string, string])[] = [
  ['Cache-Control', 'no-store'],
  ['Content-Security-Policy', "default-src 'none'; frame-ancestors 'none'"],
  ['Cross-Origin-Resource-Policy', 'same-origin'],
  ['Referrer-Policy', 'no-referrer'],
  ['Strict-Transport-Security', 'max-age=31536000; includeSubDomains'],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
];

/**
 * What every request goes through before routing, as one middleware: request id and log line, helmet's
 * security headers (a lean set for the API), CORS, and the JSON body parser for requests that carry a body. As four Express layers
 * these were a tenth of a simple authenticated read; Express also no longer adds X-Powered-By.
 */
export function edge(
  app: Express,
  options: { log: Logger; corsOrigins: string[]; bodyLimit: string },
): RequestHandler {
  app.disable('x-powered-by');
  const track = requestLog(app, options.log);
  const security = helmetHeaders();
  const preflight = cors(options.corsOrigins);
  const json = express.json({ limit: options.bodyLimit });
  return (req, res, next) => {
    track(req, res);
    for (const [name, value] of req.url.startsWith('/api/') ? API_HEADERS : security)
      res.setHeader(name, value);
    if (preflight(req, res)) return;
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) next();
    else json(req, res, next);
  };
}
