import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CentralClient, SyncNetworkError } from './client';

/** Issue 26 M3: the replicator's own calls go only where the connect form may point. */
let server: http.Server;
let port: number;
let hits = 0;

beforeAll(async () => {
  server = http.createServer((_req, res) => {
    hits += 1;
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ changes: [], next_since: 0, has_more: false, epoch: 'e' }));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const client = (centralUrl: string) =>
  new CentralClient({ centralUrl, deviceId: 'd', deviceToken: 't', appVersion: '1', timeoutMs: 2000 });

describe('the replicator connects only to addresses the connect form takes', () => {
  it.each([
    ['http://169.254.169.254/', 'link-local'],
    ['http://[::ffff:169.254.169.254]/', 'link-local'],
    ['http://2852039166/', 'link-local'],
    ['http://metadata.google.internal/', 'metadata'],
  ])('M3: %s is refused before any connection', async (url, why) => {
    const answer = client(url).pull(0, 10, null);
    await expect(answer).rejects.toBeInstanceOf(SyncNetworkError);
    await expect(answer).rejects.toThrow(why);
  });

  it('M3: a head office on this machine or the shop network still answers, by address and by name', async () => {
    const before = hits;
    await client(`http://127.0.0.1:${port}`).pull(0, 10, null);
    await client(`http://localhost:${port}`).pull(0, 10, null);
    expect(hits - before).toBe(2);
  });
});
