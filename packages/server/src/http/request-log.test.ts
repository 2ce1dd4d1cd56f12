import type { AddressInfo } from 'node:net';
import express from 'express';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestLog } from './request-log';

describe('request log', () => {
  const lines: Record<string, unknown>[] = [];
  let base = '';
  let close: () => void = () => undefined;

  beforeAll(async () => {
    const log = pino({ level: 'info' }, { write: (line: string) => lines.push(JSON.parse(line)) });
    const app = express();
    const track = requestLog(app, log);
    app.use((req, res, next) => {
      track(req, res);
      next();
    });
    app.get('/ok', (_req, res) => res.json({ ok: true }));
    app.get('/missing', (req, res) => {
      req.log.warn('looked for something absent');
      res.status(404).json({ detail: 'absent' });
    });
    const server = app.listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    close = () => server.close();
  });
  afterAll(() => close());

  it('logs a 4xx with its request id, from the handler and on completion; a 2xx stays quiet at info', async () => {
    await fetch(`${base}/ok`, { headers: { 'x-request-id': 'quiet-1' } });
    const res = await fetch(`${base}/missing`, { headers: { 'x-request-id': 'till-3.req-9' } });
    expect(res.headers.get('x-request-id')).toBe('till-3.req-9');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(lines.some((l) => l.reqId === 'quiet-1')).toBe(false);
    const mine = lines.filter((l) => l.reqId === 'till-3.req-9');
    expect(mine.map((l) => l.msg)).toEqual(['looked for something absent', 'request completed']);
    expect(mine[1]).toMatchObject({
      level: 30,
      res: { statusCode: 404 },
      req: { method: 'GET', url: '/missing' },
    });
  });
});
