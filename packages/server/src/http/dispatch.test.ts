import type { AddressInfo } from 'node:net';
import express, { type ErrorRequestHandler, type Request, type Response } from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { httpServers } from './dispatch';

describe('httpServers', () => {
  const app = express();
  const bornOnAppPrototype: boolean[] = [];
  const seenBy: string[] = [];
  let base = '';
  let close: () => void = () => undefined;

  beforeAll(async () => {
    const edge = express.json();
    app.use(edge);
    app.get('/api/v1/things/:id', (req, res) => {
      seenBy.push(`express ${req.params.id}`);
      res.json({ id: req.params.id, locals: typeof res.locals });
    });
    const onError: ErrorRequestHandler = (err, _req, res, _next) => {
      res.status(418).json({ error: String((err as Error).message) });
    };
    app.use(onError);
    const direct = new Map<string, (req: Request, res: Response) => Promise<void>>([
      [
        'GET /api/v1/things',
        async (req, res) => {
          seenBy.push('direct');
          res.json({
            query: req.query,
            params: req.params,
            original: req.originalUrl,
            viaApp: req.app === app,
          });
        },
      ],
      [
        'POST /api/v1/things',
        async (req, res) => {
          if (req.body?.fail) throw new Error('handler failed');
          res.status(201).json(req.body);
        },
      ],
    ]);
    const serve = httpServers(app, {
      edge,
      exactRoute: (method, url) => direct.get(`${method} ${url.split('?')[0]}`),
      onError,
    });
    const server = serve();
    server.prependListener('request', (req) =>
      bornOnAppPrototype.push(Object.getPrototypeOf(req) === app.request),
    );
    server.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it('answers a route without parameters directly, with Express request helpers', async () => {
    const res = await fetch(`${base}/api/v1/things?kind=pill`);
    expect(await res.json()).toEqual({
      query: { kind: 'pill' },
      params: {},
      original: '/api/v1/things?kind=pill',
      viaApp: true,
    });
    expect(seenBy.at(-1)).toBe('direct');
  });

  it('leaves every other request to Express', async () => {
    const res = await fetch(`${base}/api/v1/things/42`);
    expect(await res.json()).toEqual({ id: '42', locals: 'object' });
    expect(seenBy.at(-1)).toBe('express 42');
  });

  it('builds every request on the app prototype already, so Express has nothing to swap', async () => {
    await fetch(`${base}/api/v1/things/7`);
    expect(bornOnAppPrototype.length).toBeGreaterThan(0);
    expect(bornOnAppPrototype.every(Boolean)).toBe(true);
  });

  it('hands failures of the edge and of the direct handler to the error handler', async () => {
    const post = (body: string) =>
      fetch(`${base}/api/v1/things`, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
    const ok = await post('{"name":"aspirin"}');
    expect(ok.status).toBe(201);
    const failed = await post('{"fail":true}');
    expect(failed.status).toBe(418);
    expect(await failed.json()).toEqual({ error: 'handler failed' });
    const malformed = await post('{"name":');
    expect(malformed.status).toBe(418);
  });
});
