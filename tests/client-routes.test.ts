import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApiClient } from '../packages/contracts/src/client';
import { startTestServer, type TestServer } from '../packages/server/src/testing/harness';

/**
 * The till's API client (packages/contracts/src/client*.ts) against the routes a server registers. tsc holds
 * each call's method, path template, parameters, body and answer to the generated route types (api-paths.ts,
 * kept fresh by tests/api-types.test.ts); this runs every function of the client with a fetch that records
 * what it asks, and checks that each request is a method and path the running server serves, so a call that
 * slipped past the types (a cast, a path built by hand) fails here, not at a counter.
 */
type Fn = (...args: unknown[]) => Promise<unknown>;

/** Every function of the client, named by its place (`users.get`), except the unversioned health check. */
function functionsOf(node: object, prefix = ''): [string, Fn][] {
  return Object.entries(node).flatMap(([key, value]): [string, Fn][] => {
    const name = prefix ? `${prefix}.${key}` : key;
    if (typeof value === 'function') return name === 'health' ? [] : [[name, value as Fn]];
    return value && typeof value === 'object' ? functionsOf(value, name) : [];
  });
}

/** What each client function asks: one `METHOD /path` (below /api/v1, without the query) per function. */
async function clientRequests(): Promise<Map<string, string[]>> {
  let asked: string[] = [];
  const client = createApiClient({
    baseUrl: 'http://till.invalid',
    fetch: async (input, init) => {
      const url = new URL(String(input));
      asked.push(`${init?.method} ${url.pathname.replace(/^\/api\/v1/, '')}`);
      return new Response('{}', { status: 200, headers: { 'Content-Type': 'application/json' } });
    },
  });
  const requests = new Map<string, string[]>();
  for (const [name, fn] of functionsOf(client)) {
    asked = [];
    // An id, then an object that is also a signal: enough for every signature (id and body or query;
    // query or body, and a signal; nothing).
    await fn('0190f1a0-0000-7000-8000-000000000001', new AbortController().signal);
    requests.set(name, asked);
  }
  return requests;
}

let t: TestServer;
let served: { method: string; pattern: RegExp; template: string }[];
beforeAll(async () => {
  t = await startTestServer();
  const doc = (await (await fetch(`${t.baseUrl}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  served = Object.entries(doc.paths).flatMap(([p, ops]) =>
    Object.keys(ops).map((m) => {
      const template = p.replace(/^\/api\/v1/, '');
      const pattern = new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+')}$`);
      return { method: m.toUpperCase(), pattern, template };
    }),
  );
});
afterAll(() => t.close());

describe("the till's API client", () => {
  it('asks exactly one request of each of its functions (more than a hundred, the sign-in among them)', async () => {
    const requests = await clientRequests();
    expect(requests.size).toBeGreaterThan(140);
    expect(requests.get('auth.login')).toEqual(['POST /auth/login']);
    expect(requests.get('users.unlock')).toEqual(['POST /users/0190f1a0-0000-7000-8000-000000000001/unlock']);
    expect([...requests].filter(([, asked]) => asked.length !== 1)).toEqual([]);
  });

  it('asks only methods and paths the server registers', async () => {
    const unserved = [...(await clientRequests())].filter(([, [request]]) => {
      const [method, path] = (request as string).split(' ');
      return !served.some((s) => s.method === method && s.pattern.test(path as string));
    });
    expect(unserved).toEqual([]);
  });

  it('would catch a request the server does not serve', () => {
    const matches = (method: string, path: string) =>
      served.some((s) => s.method === method && s.pattern.test(path));
    expect(matches('GET', '/users/abc')).toBe(true);
    expect(matches('GET', '/user/abc')).toBe(false);
    expect(matches('DELETE', '/users')).toBe(false);
  });
});
