import type { Router } from 'express';
import type { RouteDoc } from '../../http/route';
import { buildOpenApi } from './document';
import { REFERENCE_PAGE } from './reference-page';

/** Built once, after every module has registered its routes. */
export function mountOpenApi(router: Router, docs: RouteDoc[]): void {
  let document: unknown;
  router.get('/openapi.json', (_req, res) => {
    document ??= buildOpenApi(docs);
    res.json(document);
  });
  router.get('/docs', (_req, res) => {
    res.set(
      'Content-Security-Policy',
      "default-src 'self'; script-src 'self' 'unsafe-inline'; style-src 'unsafe-inline'",
    );
    res.type('html').send(REFERENCE_PAGE);
  });
}
