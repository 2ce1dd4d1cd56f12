import {
  IncomingMessage,
  type OutgoingHttpHeader,
  type OutgoingHttpHeaders,
  ServerResponse,
} from 'node:http';
import { Socket } from 'node:net';
import express, { type Express, type Request, type RequestHandler, type Response } from 'express';
import helmet from 'helmet';
import type { Logger } from 'pino';
import { cors } from './cors';
import { type RequestLog, requestLog } from './request-log';

/**
 * helmet's headers with its defaults, taken once: they do not depend on the request, and running helmet's
 * thirteen middlewares on every request cost more than setting the same headers from a list.
 */
export function helmetHeaders(): [string, string][] {
  const req = new IncomingMessage(new Socket());
  const res = new HeaderList(req);
  helmet()(req, res, () => undefined);
  return res.headers;
}

/** A response that only lists the headers set on it, in order and as named. */
class HeaderList extends ServerResponse {
  readonly headers: [string, string][] = [];
  override setHeader(name: string, value: number | string | readonly string[]): this {
    this.headers.push([name, String(value)]);
    return this;
  }
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

/** The security headers a request's answer still has to carry, as a flat [name, value, ...] list. */
const PENDING = Symbol('security headers not yet written');
type Edged = Request & { [PENDING]?: readonly string[] };

type Head = OutgoingHttpHeaders | OutgoingHttpHeader[];
/** Node's two forms of writeHead (a reason or not before the headers) as one, to call whichever was used. */
interface NodeWriteHead {
  writeHead(this: ServerResponse, status: number, reason?: string | Head, headers?: Head): ServerResponse;
}

/**
 * What every request goes through before routing, as one middleware: request id, CORS, and the JSON body
 * parser for requests that carry a body. As four Express layers these were a tenth of a simple authenticated
 * read; Express also no longer adds X-Powered-By.
 *
 * The security headers (helmet's set, a lean one for the API) and X-Request-Id are not set here but when the
 * answer's head is written, by a `writeHead` on the app's response prototype, which also writes the request's
 * log line (no finish listener per request). Every way of answering passes there (Node's implicit head
 * included), a handler's own value for a header wins, and a JSON answer hands its whole head to Node in one
 * list (`jsonHead`).
 */
export function edge(
  app: Express,
  options: { log: Logger; corsOrigins: string[]; bodyLimit: string },
): RequestHandler {
  app.disable('x-powered-by');
  const log = requestLog(app, options.log);
  answerHeads(app, log);
  const security = helmetHeaders().flat();
  const api = API_HEADERS.flat();
  const preflight = cors(options.corsOrigins);
  const json = express.json({ limit: options.bodyLimit });
  return (req, res, next) => {
    log.start(req);
    (req as Edged)[PENDING] = req.url.startsWith('/api/') ? api : security;
    if (preflight(req, res)) return;
    if (req.headers['content-length'] === undefined && req.headers['transfer-encoding'] === undefined) next();
    else json(req, res, next);
  };
}

/**
 * The security headers the answer still has to carry (less any the handler set) and its request id, as a
 * flat [name, value, ...] list; empty once taken.
 */
function takeSecurityHeaders(res: ServerResponse): string[] {
  const req = (res as Response).req as Edged;
  const pending = req[PENDING];
  if (!pending) return [];
  req[PENDING] = undefined;
  const head: string[] = [];
  for (let i = 0; i < pending.length; i += 2) {
    const name = pending[i] as string;
    if (!res.hasHeader(name)) head.push(name, pending[i + 1] as string);
  }
  head.push('X-Request-Id', req.id);
  return head;
}

function answerHeads(app: Express, log: RequestLog): void {
  const response: ServerResponse = app.response;
  const nodeWriteHead: NodeWriteHead['writeHead'] = response.writeHead;
  response.writeHead = function writeHead(status: number, reason?: string | Head, headers?: Head) {
    const head = takeSecurityHeaders(this);
    for (let i = 0; i < head.length; i += 2) this.setHeader(head[i] as string, head[i + 1] as string);
    log.answered((this as Response).req, status);
    return nodeWriteHead.call(this, status, reason, headers);
  };
}

/**
 * A JSON answer's whole head as one flat list for `res.writeHead`: the security headers, the request id,
 * content type and length. Given before any `setHeader`, Node writes the list as it is.
 */
export function jsonHead(res: Response, length: number): string[] {
  const head = takeSecurityHeaders(res);
  head.push('Content-Type', 'application/json; charset=utf-8', 'Content-Length', String(length));
  return head;
}
