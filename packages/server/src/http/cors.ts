import type { RequestHandler } from 'express';

/** Same-origin by default; origins in the allow-list (CORS_ORIGINS) get CORS headers and preflight answers. */
export function cors(allowed: string[]): RequestHandler {
  const origins = new Set(allowed);
  return (req, res, next) => {
    const origin = req.headers.origin;
    if (!origin || !origins.has(origin)) return next();
    res.set({ 'Access-Control-Allow-Origin': origin, Vary: 'Origin' });
    if (req.method === 'OPTIONS' && req.headers['access-control-request-method']) {
      res.set({
        'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE',
        'Access-Control-Allow-Headers':
          'Authorization, Content-Type, X-Request-Id, X-App-Version, X-Device-Token',
        'Access-Control-Max-Age': '600',
      });
      res.status(204).end();
      return;
    }
    next();
  };
}
