import { API_HEADERS, helmetHeaders } from './edge';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness';

let t: TestServer;
beforeAll(async () => {
  t = await startTestServer({ corsOrigins: 'https://backoffice.example' });
});
afterAll(() => t.close());

describe('HTTP layer', () => {
  it('answers unknown routes with a 404 problem', async () => {
    for (const url of ['/api/v1/nope', '/nope', '/api/v2/users']) {
      const res = await t.get(url);
      expect(res.status).toBe(404);
      expect(res.headers.get('content-type')).toMatch(/problem\+json/);
      expect(res.body).toMatchObject({ status: 404, code: 'ROUTE_NOT_FOUND', title: 'Not Found' });
    }
  });

  it('answers malformed JSON with 400 and an oversized body with 413', async () => {
    const malformed = await t.request('POST', '/api/v1/auth/login', { raw: '{"email": "a",' });
    expect(malformed.status).toBe(400);
    expect(malformed.body.code).toBe('MALFORMED_JSON');
    const huge = await t.request('POST', '/api/v1/auth/login', {
      raw: JSON.stringify({ email: 'x'.repeat(2_000_000), password: 'x' }),
    });
    expect(huge.status).toBe(413);
    expect(huge.body.code).toBe('BODY_TOO_LARGE');
  });

  it('answers a known path with a wrong method with 405 and Allow', async () => {
    const res = await t.request('DELETE', '/api/v1/settings', { token: await t.adminToken() });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('GET, HEAD, PUT');
  });

  it('sets security headers and echoes a safe request id', async () => {
    const res = await t.request('GET', '/health', { headers: { 'x-request-id': 'till-7.req-42' } });
    expect(res.headers.get('x-request-id')).toBe('till-7.req-42');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('x-powered-by')).toBeNull();
    for (const [name, value] of helmetHeaders()) expect(res.headers.get(name)).toBe(value);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
    expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
    const injected = await t.request('GET', '/health', {
      headers: { 'x-request-id': 'bad id\twith spaces' },
    });
    expect(injected.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers the API with the lean, uncacheable header set', async () => {
    const res = await t.request('GET', '/api/v1/auth/me', { token: await t.adminToken() });
    expect(res.status).toBe(200);
    for (const [name, value] of API_HEADERS) expect(res.headers.get(name)).toBe(value);
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('cross-origin-opener-policy')).toBeNull();
    const refused = await t.request('GET', '/api/v1/users');
    expect(refused.status).toBe(401);
    expect(refused.headers.get('cache-control')).toBe('no-store');
    const docs = await t.request('GET', '/api/v1/docs');
    expect(docs.headers.get('content-security-policy')).toContain("script-src 'self' 'unsafe-inline'");
    expect(docs.headers.get('x-frame-options')).toBe('DENY');
  });

  it('answers a route alike through the direct dispatch and through Express routing', async () => {
    const token = await t.adminToken();
    const direct = await t.request('GET', '/api/v1/users?page_size=5', {
      token,
      headers: { 'x-request-id': 'direct-1' },
    });
    // A trailing slash is not in the direct map: Express's routers answer it with the same handler.
    const routed = await t.request('GET', '/api/v1/users/?page_size=5', {
      token,
      headers: { 'x-request-id': 'routed-1' },
    });
    expect(direct.status).toBe(200);
    expect(routed.status).toBe(200);
    expect(routed.body).toEqual(direct.body);
    expect(direct.headers.get('x-request-id')).toBe('direct-1');
    expect(routed.headers.get('x-request-id')).toBe('routed-1');
    for (const res of [direct, routed]) {
      for (const [name, value] of API_HEADERS) expect(res.headers.get(name)).toBe(value);
      expect(res.headers.get('content-type')).toBe('application/json; charset=utf-8');
    }
    const head = await t.request('HEAD', '/api/v1/users', { token });
    expect(head.status).toBe(200);
    expect(head.headers.get('cache-control')).toBe('no-store');
  });

  it('answers errors of the direct dispatch as problems, with the request id', async () => {
    const token = await t.adminToken();
    const invalid = await t.request('GET', '/api/v1/users?page_size=many', {
      token,
      headers: { 'x-request-id': 'direct-2' },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.headers.get('content-type')).toMatch(/problem\+json/);
    expect(invalid.headers.get('x-request-id')).toBe('direct-2');
    expect(invalid.headers.get('cache-control')).toBe('no-store');
    expect(invalid.body).toMatchObject({ code: 'VALIDATION', errors: [{ path: 'query.page_size' }] });
    const anonymous = await t.request('GET', '/api/v1/users');
    expect(anonymous.status).toBe(401);
    // A path that only starts like the API's mount is not an API route.
    expect((await t.request('GET', '/api/v1users', { token })).status).toBe(404);
  });

  it('is same-origin by default and honours the CORS allow-list', async () => {
    const allowed = await t.request('OPTIONS', '/api/v1/auth/login', {
      headers: { origin: 'https://backoffice.example', 'access-control-request-method': 'POST' },
    });
    expect(allowed.status).toBe(204);
    expect(allowed.headers.get('access-control-allow-origin')).toBe('https://backoffice.example');
    const other = await t.request('GET', '/health', { headers: { origin: 'https://evil.example' } });
    expect(other.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('never answers 500 to hostile input on public routes', async () => {
    const bodies = [
      'null',
      '"string"',
      '42',
      '[]',
      '{"email":{"$ne":null},"password":{"$gt":""}}',
      '{"email":"\\u0000","password":"\\ud800"}',
    ];
    for (const raw of bodies) {
      const res = await t.request('POST', '/api/v1/auth/login', { raw });
      expect(res.status, raw).toBeGreaterThanOrEqual(400);
      expect(res.status, raw).toBeLessThan(500);
    }
  });
});
