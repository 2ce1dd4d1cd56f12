import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fillPath } from './api-call';
import { ApiError, createApiClient, queryString } from './client';

interface Seen {
  method?: string;
  url?: string;
  authorization?: string;
  body?: string;
}

let server: http.Server;
let baseUrl = '';
const seen: Seen = {};

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      Object.assign(seen, {
        method: req.method,
        url: req.url,
        authorization: req.headers.authorization,
        body,
      });
      const problem = (status: number, code: string, detail: string, extra: object = {}) => {
        res.writeHead(status, { 'Content-Type': 'application/problem+json', ...extra });
        res.end(JSON.stringify({ type: 'urn:x', title: 't', status, code, detail }));
      };
      if (req.url?.startsWith('/api/v1/users?')) {
        res.writeHead(200, { 'Content-Type': 'application/json' });
        res.end(JSON.stringify({ items: [], total: 0, page: 1, page_size: 50 }));
      } else if (req.url === '/api/v1/auth/login') {
        problem(429, 'TOO_MANY_ATTEMPTS', 'Too many attempts; try again in 42 seconds.', {
          'Retry-After': '42',
        });
      } else if (req.url === '/api/v1/users') {
        res.writeHead(400, { 'Content-Type': 'application/problem+json' });
        res.end(
          JSON.stringify({
            type: 'urn:x',
            title: 'Bad Request',
            status: 400,
            code: 'VALIDATION',
            detail: 'password: must be at least 8 characters.',
            errors: [{ path: 'password', message: 'must be at least 8 characters' }],
          }),
        );
      } else if (req.url === '/api/v1/auth/me') {
        problem(401, 'UNAUTHORIZED', 'The token has expired.');
      } else if (req.url === '/api/v1/categories') {
        res.writeHead(502, { 'Content-Type': 'text/html' });
        res.end('<h1>Bad gateway</h1>');
      } else {
        res.writeHead(204);
        res.end();
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

describe('createApiClient', () => {
  it('sends the bearer token and drops empty query values', async () => {
    const client = createApiClient({ baseUrl, getToken: () => 'tok-1' });
    const page = await client.users.list({ search: 'ann', role: undefined, page: 2 });
    expect(page.total).toBe(0);
    expect(seen.authorization).toBe('Bearer tok-1');
    expect(seen.url).toBe('/api/v1/users?search=ann&page=2');
  });

  it('sends no token on login and surfaces Retry-After of a 429', async () => {
    const client = createApiClient({ baseUrl, getToken: () => 'tok-1' });
    const error = await client.auth.login({ email: 'a@b.c', password: 'x' }).catch((e: unknown) => e);
    expect(seen.authorization).toBeUndefined();
    expect(seen.body).toBe('{"email":"a@b.c","password":"x"}');
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 429, code: 'TOO_MANY_ATTEMPTS', retryAfterSeconds: 42 });
  });

  it('turns a validation problem into field errors', async () => {
    const client = createApiClient({ baseUrl });
    const error = (await client.users
      .create({ email: 'a@b.c', password: 'short', full_name: 'A', role: 'cashier', branch_id: 'x' })
      .catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe('VALIDATION');
    expect(error.fieldError('password')).toBe('must be at least 8 characters');
    expect(error.detail).toBe('password: must be at least 8 characters.');
  });

  it('calls onUnauthorized for a 401 of an authenticated request', async () => {
    const seen401: ApiError[] = [];
    const client = createApiClient({
      baseUrl,
      getToken: () => 'old',
      onUnauthorized: (e) => seen401.push(e),
    });
    await expect(client.auth.me()).rejects.toMatchObject({ status: 401 });
    expect(seen401).toHaveLength(1);
  });

  it('keeps the status line when the error body is not JSON', async () => {
    const client = createApiClient({ baseUrl });
    await expect(client.categories.list()).rejects.toMatchObject({ status: 502, code: 'HTTP_502' });
  });

  it('returns undefined for 204 and reports an unreachable server as status 0', async () => {
    const client = createApiClient({ baseUrl });
    expect(await client.categories.remove('otc')).toBeUndefined();
    expect(seen).toMatchObject({ method: 'DELETE', url: '/api/v1/categories/otc' });
    const closed = createApiClient({ baseUrl: 'http://127.0.0.1:9' });
    await expect(closed.auth.me()).rejects.toMatchObject({
      status: 0,
      code: 'NETWORK',
      isNetworkError: true,
    });
  });

  it('fills path templates with URL-encoded parameters', async () => {
    const client = createApiClient({ baseUrl });
    await client.users.unlock('a/b c?');
    expect(seen).toMatchObject({ method: 'POST', url: '/api/v1/users/a%2Fb%20c%3F/unlock' });
    expect(fillPath('/users/{userId}', { userId: 'x' })).toBe('/users/x');
    expect(() => fillPath('/users/{userId}', {})).toThrow('no value for {userId}');
  });

  it('builds query strings', () => {
    expect(queryString({ a: 1, b: '', c: null, d: false })).toBe('?a=1&d=false');
    expect(queryString({})).toBe('');
  });
});
