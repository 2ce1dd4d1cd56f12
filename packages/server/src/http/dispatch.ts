import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';

type Direct = (req: Request, res: Response) => Promise<void>;

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * The HTTP server's request listener. A request for a route without path parameters (`GET /users`,
 * `POST /sales`: most of a till's traffic) goes through the edge middleware straight to its handler; anything
 * else through the Express app, whose first middleware is the same edge. Express's app and router dispatch
 * (its final handler, the layer walk, URL trimming and restoring, a closure per layer) cost more than the
 * list query of a simple read; the direct path does only what Express does before routing: the app's request
 * and response prototypes (req.query, res.status... and the log and header hooks on them), the cross links,
 * originalUrl and an empty res.locals.
 */
export function dispatcher(
  app: Express,
  edge: RequestHandler,
  exact: (method: string, url: string) => Direct | undefined,
  onError: ErrorRequestHandler,
): RequestListener {
  const request = app.request;
  const response = app.response;
  return (incoming: IncomingMessage, outgoing: ServerResponse) => {
    const direct = exact(incoming.method ?? '', incoming.url ?? '');
    if (!direct) {
      app(incoming, outgoing);
      return;
    }
    const req = Object.setPrototypeOf(incoming, request) as Request;
    const res = Object.setPrototypeOf(outgoing, response) as Response;
    req.res = res;
    res.req = req;
    req.originalUrl = req.url;
    req.baseUrl = '';
    req.params = NO_PARAMS;
    res.locals = Object.create(null);
    const fail = (err: unknown) => onError(err, req, res, () => res.destroy());
    edge(req, res, (err?: unknown) => {
      if (err) fail(err);
      else direct(req, res).catch(fail);
    });
  };
}
