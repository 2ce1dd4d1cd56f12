import type { Request, Response } from 'express';

/**
 * Same-origin by default; origins in the allow-list (CORS_ORIGINS) get CORS headers. Returns true when it has
 * answered the request itself (a preflight).
 */
export function cors(allowed: string[]): (req: Request, res: Response) => boolean {
  const origins = new Set(allowed);
  return (req, res) => {
    const origin = req.headers.origin;
    if (!origin || !origins.has(origin)) return false;
    res.set({ 'Access-Control-Allow-Origin': origin, Vary: 'Origin' });
    if (req.method !== 'OPTIONS' || !req.headers['access-control-request-method']) return false;
    res.set({
      'Access-Control-Allow-Methods': 'GET, POST, PUT, PATCH, DELETE',
      'Access-Control-Allow-Headers':
        'Authorization, Content-Type, X-Request-Id, X-App-Version, X-Device-Token',
      'Access-Control-Max-Age': '600',
    });
    res.status(204).end();
    return true;
  };
}
