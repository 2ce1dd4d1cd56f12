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

/** One statement counting every table's rows (the list read once): a round trip per table is slow on PostgreSQL. */
let countEveryTable: string | undefined;

async function tableCounts(): Promise<Record<string, number>> {
  if (!countEveryTable) {
    const tables =
      t.dialect === 'sqlite'
        ? await t.query<{ name: string }>(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE '%_fts%'",
          )
        : await t.query<{ name: string }>(
            "SELECT tablename AS name FROM pg_tables WHERE schemaname = 'public'",
          );
    expect(tables.length).toBeGreaterThan(10);
    countEveryTable = tables
      .map(({ name }) => `SELECT '${name}' AS name, count(*) AS n FROM "${name}"`)
      .join(' UNION ALL ');
  }
  const rows = await t.query<{ name: string; n: number }>(countEveryTable);
  return Object.fromEntries(rows.map((r) => [r.name, Number(r.n)]));
}

describe('hostile input on every route with a body', () => {
  it('answers 4xx problems with a detail, never 5xx, and writes nothing', async () => {
    expect(operations.length).toBeGreaterThan(10);
    const failures: string[] = [];
    for (const { method, path, op } of operations) {
      const url = path.replace(/\{\w+\}/g, () => randomUUID());
      const schema = op.requestBody?.content['application/json']?.schema;
      for (const body of hostileBodies(schema)) {
        const before = await tableCounts();
        const res = await t.request(method, url, { token: admin, body });
        const label = `${method} ${path} ${JSON.stringify(body).slice(0, 60)} -> ${res.status}`;
        if (res.status >= 500) failures.push(label);
        if (res.status < 400 || WRITES_ON_REFUSAL.has(`${method} ${path}`)) continue;
        if (!String((res.body as { detail?: string }).detail ?? '').trim())
          failures.push(`${label} (no detail)`);
        const after = await tableCounts();
        for (const [table, n] of Object.entries(after)) {
          if (before[table] !== n) failures.push(`${label} wrote to ${table} (${before[table]} -> ${n})`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
