import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './testing/harness';

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
}
interface Operation {
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

/** Routes whose refusals are meant to write: a failed sign-in is audited. */
const WRITES_ON_REFUSAL = new Set(['POST /api/v1/auth/login']);

const HOSTILE_VALUES: unknown[] = [
  null,
  12345,
  -1,
  1.5,
  -0.0001,
  1e308,
  'x'.repeat(100_000),
  "' OR 1=1; DROP TABLE users; --",
  '💊\u0000\u202e',
  [],
  { $ne: null },
  true,
];

function wrongType(schema: JsonSchema): unknown {
  const type = Array.isArray(schema.type) ? schema.type[0] : schema.type;
  switch (type) {
    case 'string':
      return 42;
    case 'number':
    case 'integer':
      return 'not a number';
    case 'boolean':
      return 'yes';
    case 'array':
      return { not: 'an array' };
    default:
      return 'not an object';
  }
}

function hostileBodies(schema: JsonSchema | undefined): unknown[] {
  const bodies: unknown[] = [[], 'text', 0];
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    bodies.push({ [name]: wrongType(prop) });
    for (const value of HOSTILE_VALUES) bodies.push({ [name]: value });
  }
  return bodies;
}

let t: TestServer;
let admin: string;
let operations: Array<{ method: string; path: string; op: Operation }>;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  const doc = await t.get<{ paths: Record<string, Record<string, Operation>> }>('/api/v1/openapi.json');
  operations = Object.entries(doc.body.paths).flatMap(([path, ops]) =>
    Object.entries(ops)
      .filter(([, op]) => op.requestBody)
      .map(([method, op]) => ({ method: method.toUpperCase(), path, op })),
  );
});
afterAll(() => t.close());

describe('hostile input on every route with a body', () => {
  it('answers 4xx problems with a detail, never 5xx, and writes nothing', async () => {
    expect(operations.length).toBeGreaterThan(10);
    const failures: string[] = [];
    // The counts before each request: those after the one before it (counting every table is most of this
    // test's time on PostgreSQL), taken again only after a request that may write.
    let before = await t.tableCounts();
    expect(Object.keys(before).length).toBeGreaterThan(10);
    for (const { method, path, op } of operations) {
      const url = path.replace(/\{\w+\}/g, () => randomUUID());
      const schema = op.requestBody?.content['application/json']?.schema;
      for (const body of hostileBodies(schema)) {
        const res = await t.request(method, url, { token: admin, body });
        const label = `${method} ${path} ${JSON.stringify(body).slice(0, 60)} -> ${res.status}`;
        if (res.status >= 500) failures.push(label);
        if (res.status < 400 || WRITES_ON_REFUSAL.has(`${method} ${path}`)) {
          before = await t.tableCounts();
          continue;
        }
        if (!String((res.body as { detail?: string }).detail ?? '').trim())
          failures.push(`${label} (no detail)`);
        const after = await t.tableCounts();
        for (const [table, n] of Object.entries(after)) {
          if (before[table] !== n) failures.push(`${label} wrote to ${table} (${before[table]} -> ${n})`);
        }
        before = after;
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
