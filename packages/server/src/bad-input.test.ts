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

/** A hostile body as sent: its JSON, made once (a route's bodies may be sent up to three times). */
interface Hostile {
  json: string;
}

function hostileBodies(schema: JsonSchema | undefined): Hostile[] {
  const bodies: unknown[] = [[], 'text', 0];
  for (const [name, prop] of Object.entries(schema?.properties ?? {})) {
    bodies.push({ [name]: wrongType(prop) });
    for (const value of HOSTILE_VALUES) bodies.push({ [name]: value });
  }
  return bodies.map((body) => ({ json: JSON.stringify(body) }));
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

interface Sent {
  label: string;
  status: number;
}

/** Sends one hostile body; a 5xx, or a refusal without a detail, is a failure. */
async function send(
  method: string,
  url: string,
  path: string,
  body: Hostile,
  failures: Set<string>,
): Promise<Sent> {
  // The JSON as it was made (the same bytes `body:` would send), not stringified again per send.
  const res = await t.request(method, url, { token: admin, raw: body.json });
  const label = `${method} ${path} ${body.json.slice(0, 60)} -> ${res.status}`;
  if (res.status >= 500) failures.add(label);
  else if (res.status >= 400 && !String((res.body as { detail?: string }).detail ?? '').trim())
    failures.add(`${label} (no detail)`);
  return { label, status: res.status };
}

function wrote(
  before: Record<string, number>,
  after: Record<string, number>,
  label: string,
  failures: Set<string>,
) {
  for (const [table, n] of Object.entries(after))
    if (before[table] !== n) failures.add(`${label} wrote to ${table} (${before[table]} -> ${n})`);
}

describe('hostile input on every route with a body', () => {
  it('answers 4xx problems with a detail, never 5xx, and writes nothing', async () => {
    expect(operations.length).toBeGreaterThan(10);
    const failures = new Set<string>();
    // Counting every table is most of this test's time on PostgreSQL, so a route's hostile bodies are sent
    // together and the tables counted once after them. Where one of them was accepted (it may write), or the
    // tables changed, the route's bodies are sent again, each refusal's writes told apart from an acceptance's.
    let before = await t.tableCounts();
    expect(Object.keys(before).length).toBeGreaterThan(10);
    for (const { method, path, op } of operations) {
      const url = path.replace(/\{\w+\}/g, () => randomUUID());
      const bodies = hostileBodies(op.requestBody?.content['application/json']?.schema);
      const sent: Sent[] = [];
      for (const body of bodies) sent.push(await send(method, url, path, body, failures));
      const after = await t.tableCounts();
      const mayWrite = WRITES_ON_REFUSAL.has(`${method} ${path}`) || sent.some((r) => r.status < 400);
      const changed = Object.entries(after).some(([table, n]) => before[table] !== n);
      if (changed && !mayWrite)
        wrote(before, after, `${method} ${path} (its ${bodies.length} refusals)`, failures);
      before = after;
      // A route whose refusals are meant to write has nothing for a second round to tell apart.
      const refusalsWrite = WRITES_ON_REFUSAL.has(`${method} ${path}`);
      if ((!mayWrite && !changed) || refusalsWrite) continue;
      // Sent again in runs: each body the first round accepted alone, the tables counted after it; the bodies it
      // refused between two of those together, the tables counted once after them. A run of refusals that
      // changed the tables is a failure; a run in which a body was accepted this time is sent once more one body
      // at a time, the tables counted after each.
      const runs: Array<{ accepted: boolean; bodies: Hostile[] }> = [];
      for (const [i, body] of bodies.entries()) {
        const accepted = sent[i]!.status < 400;
        const last = runs.at(-1);
        if (accepted || !last || last.accepted) runs.push({ accepted, bodies: [body] });
        else last.bodies.push(body);
      }
      for (const run of runs) {
        const answers: Sent[] = [];
        for (const body of run.bodies) answers.push(await send(method, url, path, body, failures));
        const counted = await t.tableCounts();
        const allRefused = answers.every((r) => r.status >= 400);
        const prior = before;
        before = counted;
        if (run.accepted && !allRefused) continue;
        if (allRefused) {
          const label = run.accepted
            ? answers[0]!.label
            : `${method} ${path} (a run of ${answers.length} refusals)`;
          wrote(prior, counted, label, failures);
          continue;
        }
        for (const body of run.bodies) {
          const one = await send(method, url, path, body, failures);
          const recounted = await t.tableCounts();
          if (one.status >= 400) wrote(before, recounted, one.label, failures);
          before = recounted;
        }
      }
    }
    expect([...failures]).toEqual([]);
  }, 120_000);
});
