import http from 'node:http';
import type { ErrorRequestHandler, Express, Request, RequestHandler, Response } from 'express';

type Direct = (req: Request, res: Response) => Promise<void>;

export interface Dispatch {
  /** The middleware every request passes first (request id, CORS, body parser); the app's first layer too. */
  edge: RequestHandler;
  /** The handler of a route without path parameters, by method and URL. */
  exactRoute: (method: string, url: string) => Direct | undefined;
  onError: ErrorRequestHandler;
}

const NO_PARAMS: Record<string, string> = Object.freeze({}) as Record<string, string>;

/**
 * Makes HTTP servers for an Express app (one per `listen`), with two shortcuts past Express:
 *
 * - Node builds every request and response as an instance of a subclass whose prototype becomes the app's
 *   (`app.request`, `app.response`, inheriting what they had), so Express's swap to them in app.handle
 *   changes nothing. A real swap leaves V8 a fresh object shape per request: property lookups in Node's HTTP
 *   code then miss their caches, a third of the CPU of a bare Express route. (Building them with
 *   `Reflect.construct` on the app's prototypes measured slower still than the swap.)
 * - A request for a route without path parameters (`GET /users`, `POST /sales`: most of a till's traffic) goes
 *   through the edge middleware straight to its handler; anything else through the app, whose first layer is
 *   the same edge. Express's dispatch (a final handler, the layer walk, URL trimming and restoring, a closure
 *   per layer) cost more than the list query of a simple read. The direct path sets what Express sets before
 *   routing: the cross links, originalUrl, baseUrl, empty params and res.locals.
 */
export function httpServers(app: Express, { edge, exactRoute, onError }: Dispatch): () => http.Server {
  class AppRequest extends http.IncomingMessage {}
  class AppResponse extends http.ServerResponse {}
  inherit(AppRequest.prototype, app.request);
  inherit(AppResponse.prototype, app.response);
  app.request = AppRequest.prototype;
  app.response = AppResponse.prototype;
  const options = { IncomingMessage: AppRequest, ServerResponse: AppResponse as typeof http.ServerResponse };

  const listener: http.RequestListener = (incoming, outgoing) => {
    const direct = exactRoute(incoming.method ?? '', incoming.url ?? '');
    if (!direct) {
      app(incoming, outgoing);
      return;
    }
    const req = incoming as Request;
    const res = outgoing as Response;
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
  return () => http.createServer(options, listener);
}

/** Puts `parent` under `child` in the prototype chain: from then on `child` is all that `parent` is. */
function inherit<T extends object>(child: object, parent: T): asserts child is T {
  Object.setPrototypeOf(child, parent);
}
