import express, { type Request, type Response, type Router } from 'express';
import type { z } from 'zod';
import type { Role } from '@pharmacy/contracts';
import type { AppContext } from '../app-context';
import { localChangeCheck } from '../db/changes';
import { withReplica } from '../db/read-replica';
import { authenticate, type AuthUser } from './auth';
import { jsonHead } from './edge';
import { Forbidden, Invalid } from '../lib/errors';
import { sendProblem, summarise, zodFieldErrors } from './problem';
import { malformedText } from './well-formed';

export type Method = 'get' | 'post' | 'put' | 'patch' | 'delete';

export interface ResponseDoc {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
}

interface RouteBase<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType> {
  method: Method;
  /** Express path relative to /api/v1, e.g. /users/:userId */
  path: string;
  tag: string;
  summary: string;
  description?: string;
  body?: B;
  query?: Q;
  params?: P;
  responses: Record<number, ResponseDoc>;
  /**
   * 'replica': the handler's app.db is central's read replica when there is one (db/read-replica.ts), the
   * primary if the replica cannot answer. Only for read-only answers that may be a moment old (reports): never
   * for a list a user reads right after writing to it.
   */
  reads?: 'replica';
}

export interface HandlerCtx<B, Q, P> {
  app: AppContext;
  body: B;
  query: Q;
  params: P;
  req: Request;
  res: Response;
  requestId: string;
}

export interface AuthedCtx<B, Q, P> extends HandlerCtx<B, Q, P> {
  user: AuthUser;
}

export interface AuthedRoute<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType>
  extends RouteBase<B, Q, P> {
  /** 'any' = any signed-in user; a list = those roles (admin always passes). */
  roles: 'any' | readonly Role[];
  /** 'allowed' for the few routes a user may call before replacing a password someone else set. */
  passwordChangePending?: 'allowed';
  handler: (ctx: AuthedCtx<z.output<B>, z.output<Q>, z.output<P>>) => Promise<unknown> | unknown;
}

export interface PublicRoute<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType>
  extends RouteBase<B, Q, P> {
  handler: (ctx: HandlerCtx<z.output<B>, z.output<Q>, z.output<P>>) => Promise<unknown> | unknown;
}

/** What the OpenAPI builder and the 405 handler need to know about a route. */
export interface RouteDoc {
  method: Method;
  path: string;
  tag: string;
  summary: string;
  description?: string;
  access: 'public' | 'any' | readonly Role[];
  body?: z.ZodType;
  query?: z.ZodType;
  params?: z.ZodType;
  responses: Record<number, ResponseDoc>;
}

/** Whether a role may call a route of `roles`: admin always may. */
export const roleAllowed = (roles: readonly Role[], role: Role): boolean =>
  role === 'admin' || roles.includes(role);

/** Why a role may not call a route that `roles` (and admin, who always passes) may call. */
export function roleRefusal(roles: readonly Role[], role: Role): string {
  const allowed = ['admin', ...roles.filter((r) => r !== 'admin')];
  const needs = allowed.length === 1 ? `the ${allowed[0]} role` : `one of the roles ${allowed.join(', ')}`;
  return `This action needs ${needs}; you are ${role}.`;
}

/** Answers a request of a diverted route instead of its handler, or undefined to let the handler answer. */
export type Diversion = (ctx: {
  app: AppContext;
  req: Request;
  user: AuthUser;
  mountPath: string;
}) => Promise<Reply | undefined>;

/** A handler's non-200 answer. */
export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly headers?: Record<string, string>,
  ) {}
}
/**
 * A 200 answer whose JSON text the handler built itself (a list assembled by SQLite's json_object): sent as
 * is, without a parse and stringify round trip. The handler owns its agreement with the response schema.
 */
export class JsonText {
  constructor(readonly text: string) {}
}
export const created = (body: unknown) => new Reply(201, body);
export const noContent = () => new Reply(204);

/** Validates one request part: the text rules every part obeys (http/well-formed.ts), then its schema (400 naming the field). */
export function parsePart<S extends z.ZodType>(
  schema: S | undefined,
  value: unknown,
  where: 'body' | 'query' | 'params',
): z.output<S> {
  if (!schema) return undefined as z.output<S>;
  const malformed = malformedText(value, where);
  if (malformed) throw new Invalid(summarise(malformed), malformed);
  const result = schema.safeParse(value);
  if (!result.success) {
    const errors = zodFieldErrors(result.error, where === 'body' ? undefined : where);
    throw new Invalid(summarise(errors), errors);
  }
  return result.data;
}

/**
 * Writes a JSON answer directly, its head in one list: Express's res.json re-derives the content type and
 * charset on every call, a visible share of a small read.
 */
function sendJson(res: Response, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, jsonHead(res, Buffer.byteLength(text)));
  res.end(text);
}

function send(res: Response, result: unknown): void {
  // A handler that streams (server-sent events, NDJSON) has answered already.
  if (res.headersSent) return;
  if (result instanceof JsonText) {
    res.writeHead(200, jsonHead(res, Buffer.byteLength(result.text)));
    res.end(result.text);
    return;
  }
  if (result instanceof Reply) {
    if (result.headers) res.set(result.headers);
    if (result.status === 204 || result.body === undefined) res.status(result.status).end();
    else sendJson(res, result.status, result.body);
    return;
  }
  if (result === undefined) res.json(result);
  else sendJson(res, 200, result);
}

/**
 * A feature area's routes: each declares its schemas, roles and responses next to its handler; the same
 * declaration drives validation, authorisation and the OpenAPI document.
 */
export class ApiRouter {
  readonly docs: RouteDoc[] = [];
  readonly router: Router = express.Router();
  /**
   * One router per first path segment (/users, /sales...), dispatched by a map lookup: Express tries a
   * router's routes one by one, and walking ~200 path patterns was a visible share of every request.
   */
  private readonly areas = new Map<string, Router>();
  /**
   * Routes without path parameters (`GET /users`, `POST /sales`), keyed by method and full path and found by
   * `exactRoute()` for the server's dispatcher (http/dispatch.ts), which calls them without Express's routing:
   * walking the app, the mount, the API router and an area router's layers cost more than a list's own SQL.
   * Anything else (a trailing slash, another letter case, HEAD) goes through the area routers, where the same
   * handlers are registered.
   */
  private readonly exact = new Map<string, (req: Request, res: Response) => Promise<void>>();

  constructor(
    readonly app: AppContext,
    /** Where the app mounts `router`. */
    readonly mountPath = '/api/v1',
  ) {
    this.router.use((req, res, next) => {
      const area = this.areas.get(firstSegment(req.path));
      if (area) area(req, res, next);
      else next();
    });
  }

  /** The handler of a route without path parameters for this method and URL, if there is one. */
  exactRoute(method: string, url: string): ((req: Request, res: Response) => Promise<void>) | undefined {
    if (!url.startsWith(this.mountPath) || url.charCodeAt(this.mountPath.length) !== 47 /* '/' */)
      return undefined;
    const query = url.indexOf('?');
    return this.exact.get(`${method} ${query < 0 ? url : url.slice(0, query)}`);
  }

  private register(method: Method, path: string, handler: (req: Request, res: Response) => Promise<void>) {
    this.routerFor(path)[method](path, handler);
    if (!path.includes(':')) this.exact.set(`${method.toUpperCase()} ${this.mountPath}${path}`, handler);
  }

  /** The router that owns a path's area; modules that answer outside the JSON pipeline register on it. */
  routerFor(path: string): Router {
    const key = firstSegment(path);
    let area = this.areas.get(key);
    if (!area) {
      area = express.Router();
      this.areas.set(key, area);
    }
    return area;
  }

  /**
   * Routes whose request may be answered elsewhere before their handler runs, by `method path`: a connected
   * till's write of a record head office owns (sync/central-writes.ts). The diversion answers undefined to let
   * the handler run.
   */
  private readonly diversions = new Map<string, Diversion>();

  /**
   * Sends a signed-in route's requests to `diversion` once the caller's role passes, before the request is
   * parsed: where the request goes decides whose rules check it (head office's, for a forwarded write).
   */
  divert(method: Method, path: string, diversion: Diversion): void {
    if (!this.docs.some((d) => d.method === method && d.path === path && d.access !== 'public'))
      throw new Error(`no signed-in route ${method} ${path} to divert`);
    this.diversions.set(`${method} ${path}`, diversion);
  }

  route<
    B extends z.ZodType = z.ZodUnknown,
    Q extends z.ZodType = z.ZodUnknown,
    P extends z.ZodType = z.ZodUnknown,
  >(def: AuthedRoute<B, Q, P>): void {
    const { roles } = def;
    this.docs.push({ ...def, access: roles });
    const key = `${def.method} ${def.path}`;
    this.register(def.method, def.path, async (req: Request, res: Response) => {
      const user = await authenticate(this.app, req, def.passwordChangePending ?? 'refused');
      if (roles !== 'any' && !roleAllowed(roles, user.role))
        throw new Forbidden(roleRefusal(roles, user.role));
      // Only a diverted route awaits its diversion; every other route answers exactly as before.
      const diversion = this.diversions.get(key);
      const diverted =
        diversion && (await diversion({ app: this.app, req, user, mountPath: this.mountPath }));
      if (diverted) return send(res, diverted);
      const check = def.method === 'get' ? undefined : this.changeCheck?.(this.app);
      if (check) return localChangeCheck.run(check, () => this.answer(def, req, res, user));
      return this.answer(def, req, res, user);
    });
  }

  private async answer<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType>(
    def: AuthedRoute<B, Q, P>,
    req: Request,
    res: Response,
    user: AuthUser,
  ): Promise<void> {
    const ctx = this.context(def, req, res);
    if (def.reads !== 'replica') return send(res, await def.handler({ ...ctx, user }));
    const answer = (app: AppContext) => Promise.resolve(def.handler({ ...ctx, app, user }));
    send(res, await withReplica(this.app, answer, () => !res.headersSent));
  }

  /** The check a signed-in write's local changes pass (db/changes.ts localChangeCheck), or none. */
  private changeCheck?: (app: AppContext) => ((entity: string) => void) | undefined;

  /** Runs every signed-in write under the check `checkFor` gives for the server at the time (none: unchecked). */
  checkLocalChanges(checkFor: (app: AppContext) => ((entity: string) => void) | undefined): void {
    this.changeCheck = checkFor;
  }

  publicRoute<
    B extends z.ZodType = z.ZodUnknown,
    Q extends z.ZodType = z.ZodUnknown,
    P extends z.ZodType = z.ZodUnknown,
  >(def: PublicRoute<B, Q, P>): void {
    this.docs.push({ ...def, access: 'public' });
    this.register(def.method, def.path, async (req: Request, res: Response) => {
      send(res, await def.handler(this.context(def, req, res)));
    });
  }

  private context<B extends z.ZodType, Q extends z.ZodType, P extends z.ZodType>(
    def: RouteBase<B, Q, P>,
    req: Request,
    res: Response,
  ): HandlerCtx<z.output<B>, z.output<Q>, z.output<P>> {
    const params = parsePart(def.params, req.params, 'params');
    const query = parsePart(def.query, req.query, 'query');
    const body = parsePart(def.body, req.body ?? {}, 'body');
    return { app: this.app, body, query, params, req, res, requestId: String(req.id) };
  }
}

function firstSegment(path: string): string {
  const end = path.indexOf('/', 1);
  return end < 0 ? path.slice(1) : path.slice(1, end);
}

/** Answers 405 with an Allow header for a known path asked with a method it does not have. */
export function methodNotAllowed(router: Router, docs: RouteDoc[]): void {
  const byPath = new Map<string, Set<string>>();
  for (const doc of docs) {
    const methods = byPath.get(doc.path) ?? new Set<string>();
    methods.add(doc.method.toUpperCase());
    if (doc.method === 'get') methods.add('HEAD');
    byPath.set(doc.path, methods);
  }
  for (const [path, methods] of byPath) {
    const allow = [...methods].join(', ');
    router.all(path, (req, res) => {
      sendProblem(
        res,
        405,
        'METHOD_NOT_ALLOWED',
        `${req.method} is not allowed on ${req.path}; use ${allow}.`,
        undefined,
        {
          Allow: allow,
        },
      );
    });
  }
}
