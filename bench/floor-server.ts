import http from 'node:http';
import express from 'express';
import { httpServers } from '../packages/server/src/http/dispatch';

/**
 * The floor: a bare Express route returning a constant, the most this machine serves over HTTP with Express.
 * FLOOR_BORN_ON_PROTOTYPES=1 serves the same route from `httpServers` (requests born on the app's prototypes,
 * as the product's server makes them) to show how much of Express's own cost is its per-request prototype swap.
 */
const app = express();
app.get('/floor', (_req, res) => {
  res.json({ ok: true });
});
const server =
  process.env.FLOOR_BORN_ON_PROTOTYPES === '1'
    ? httpServers(app, {
        edge: (_req, _res, next) => next(),
        exactRoute: () => undefined,
        onError: (_err, _req, res) => res.status(500).end(),
      })()
    : http.createServer(app);
server.listen(0, '127.0.0.1', () => {
  const address = server.address();
  if (address && typeof address === 'object') console.log(`ready on http://127.0.0.1:${address.port}`);
});
process.on('SIGTERM', () => server.close(() => process.exit(0)));
