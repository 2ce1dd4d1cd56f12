import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../packages/server/src/testing/harness';

/**
 * The till's API client (packages/contracts/src/client*.ts) against the routes a server registers: every call
 * the client makes names a method and path the server serves, so a renamed or removed route fails here, not
 * at a counter. (The calls are read from the client's source: get('/x'), send('POST', `/x/${id(y)}`), …)
 */
const CONTRACTS = path.resolve(import.meta.dirname, '../packages/contracts/src');
const CALL =
  /\b(get|send|request)(?:<[^(]*?>)?\(\s*(?:'(GET|POST|PUT|PATCH|DELETE)',\s*)?(['`])(\/[^'`]*)\3/g;

function clientCalls(): string[] {
  const files = fs.readdirSync(CONTRACTS).filter((f) => /^client.*\.ts$/.test(f) && !f.endsWith('.test.ts'));
  const calls = new Set<string>();
  for (const file of files) {
    const text = fs.readFileSync(path.join(CONTRACTS, file), 'utf8');
    for (const m of text.matchAll(CALL)) {
      const method = m[1] === 'get' ? 'GET' : m[2];
      if (!method) continue; // request(method, path) passed through a helper: checked where it is called
      calls.add(`${method} ${(m[4] as string).replace(/\$\{[^}]+\}/g, '{}').replace(/\?.*$/, '')}`);
    }
  }
  return [...calls].sort();
}

let t: TestServer;
let served: Set<string>;
beforeAll(async () => {
  t = await startTestServer();
  const doc = (await (await fetch(`${t.baseUrl}/api/v1/openapi.json`)).json()) as {
    paths: Record<string, Record<string, unknown>>;
  };
  served = new Set(
    Object.entries(doc.paths).flatMap(([p, ops]) =>
      Object.keys(ops).map(
        (m) => `${m.toUpperCase()} ${p.replace(/^\/api\/v1/, '').replace(/\{[^}]+\}/g, '{}')}`,
      ),
    ),
  );
});
afterAll(() => t.close());

describe("the till's API client", () => {
  it('reads the calls it checks (more than a hundred, the sign-in among them)', () => {
    const calls = clientCalls();
    expect(calls.length).toBeGreaterThan(100);
    expect(calls).toContain('POST /auth/login');
  });

  it('calls only methods and paths the server registers', () => {
    expect(clientCalls().filter((c) => !served.has(c))).toEqual([]);
  });
});
