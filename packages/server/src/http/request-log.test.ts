import type { AddressInfo } from 'node:net';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { edge } from './edge';

describe('request log', () => {
  const lines: Record<string, unknown>[] = [];
  let base = '';
  let close: () => void = () => undefined;

  beforeAll(async () => {
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const app = express();
    app.use(edge(app, { log, corsOrigins: [], bodyLimit: '1kb' }));
    app.get('/ok', (_req, res) => res.json({ ok: true }));
    app.get('/missing', (req, res) => {
      req.log.warn('looked for something absent');
      res.status(404).json({ detail: 'absent' });
    });
    app.get('/broken', (_req, res) => {
      res.statusCode = 500;
      res.end();
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it('logs a 4xx with its request id, from the handler and when answered; a 2xx stays quiet at info', async () => {
    await fetch(`${base}/ok`, { headers: { 'x-request-id': 'quiet-1' } });
    const res = await fetch(`${base}/missing`, { headers: { 'x-request-id': 'till-3.req-9' } });
    expect(res.headers.get('x-request-id')).toBe('till-3.req-9');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines.some((l) => l.reqId === 'quiet-1')).toBe(false);
    const mine = lines.filter((l) => l.reqId === 'till-3.req-9');
    expect(mine.map((l) => l.msg)).toEqual(['looked for something absent', 'request answered']);
    expect(mine[1]).toMatchObject({
      level: 30,
      res: { statusCode: 404 },
      req: { method: 'GET', url: '/missing' },
    });
  });

  it('logs an answer written without an explicit head (Node writes it implicitly) as an error for a 5xx', async () => {
    const res = await fetch(`${base}/broken`, { headers: { 'x-request-id': 'till-3.req-10' } });
    expect(res.status).toBe(500);
    expect(res.headers.get('x-request-id')).toBe('till-3.req-10');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines.filter((l) => l.reqId === 'till-3.req-10')).toMatchObject([
      { level: 50, msg: 'request answered', res: { statusCode: 500 } },
    ]);
  });
});
