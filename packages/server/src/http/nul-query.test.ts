import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../testing/harness';

interface Operation {
  parameters?: Array<{ name: string; in: string }>;
}

/** Path parameters that are not ids, valid so the query is what the route refuses. */
const PATH_VALUES: Record<string, string> = { prefix: 'medicines', file: `${randomUUID()}.jpg` };

let t: TestServer;
let admin: string;
let withQuery: Array<{ method: string; path: string; param: string }>;

beforeAll(async () => {
  // Central: on PostgreSQL (the PHARMACY_TEST_DB=postgres run) a NUL reaching a query was a 500.
  t = await startTestServer({ mode: 'central' });
  admin = await t.adminToken();
  const doc = await t.get<{ paths: Record<string, Record<string, Operation>> }>('/api/v1/openapi.json');
  withQuery = Object.entries(doc.body.paths).flatMap(([path, ops]) =>
    Object.entries(ops).flatMap(([method, op]) =>
      (op.parameters ?? [])
        .filter((p) => p.in === 'query')
        .map((p) => ({ method: method.toUpperCase(), path, param: p.name })),
    ),
  );
});
afterAll(() => t.close());

describe('a NUL character in a query parameter', () => {
  it('L3: is 400 naming the parameter on every route that takes one, never a 500', async () => {
    expect(withQuery.length).toBeGreaterThan(30);
    for (const { method, path, param } of withQuery) {
      const url = `${path.replace(/\{([^}]+)\}/g, (_, name: string) => PATH_VALUES[name] ?? randomUUID())}?${param}=a%00b`;
      const res = await t.request<{ errors?: Array<{ path: string; message: string }> }>(method, url, {
        token: admin,
        ...(method !== 'GET' && { body: {} }),
      });
      expect(res.status, `${method} ${url}`).toBe(400);
      expect(res.body.errors, `${method} ${url}`).toEqual([
        { path: `query.${param}`, message: 'contains a NUL character' },
      ]);
    }
  });
});
