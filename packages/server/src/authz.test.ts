import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { foundationAuthz } from './modules/foundation.authz';
import type { AuthzRow, Caller } from './testing/authz';
import { startTestServer, type TestServer } from './testing/harness';

/** Every module's rows. A route missing here fails the coverage test below. */
const TABLE: AuthzRow[] = [...foundationAuthz];

const CALLERS: Caller[] = [
  'anonymous',
  'admin',
  'pharmacist',
  'cashier',
  'branch_manager',
  'inventory_manager',
  'auditor',
];

let t: TestServer;
const tokens = new Map<Caller, string>();

beforeAll(async () => {
  t = await startTestServer();
  tokens.set('admin', await t.adminToken());
  for (const role of ['pharmacist', 'cashier', 'branch_manager', 'inventory_manager', 'auditor'] as const) {
    tokens.set(role, (await t.userWithRole(role)).token);
  }
}, 60_000);
afterAll(() => t.close());

const fill = (path: string) => path.replace(/\{\w+\}/g, () => randomUUID());

describe('authorization table', () => {
  for (const row of TABLE) {
    it(`${row.method} ${row.path}`, async () => {
      const got: Partial<Record<Caller, number>> = {};
      for (const caller of CALLERS) {
        const res = await t.request(row.method, `/api/v1${fill(row.path)}`, {
          token: tokens.get(caller),
          body: row.body,
        });
        got[caller] = res.status;
      }
      expect(got).toEqual(row.expect);
    });
  }

  it('covers every route the server registers', async () => {
    const doc = (await t.get<{ paths: Record<string, Record<string, unknown>> }>('/api/v1/openapi.json'))
      .body;
    const normalise = (p: string) =>
      p
        .replace(/\?.*$/, '')
        .replace(/\{\w+\}/g, '{}')
        .replace(/\/[A-Z]{3}$/, '/{}');
    const covered = new Set(TABLE.map((r) => `${r.method} ${normalise(r.path)}`));
    const missing: string[] = [];
    for (const [path, ops] of Object.entries(doc.paths)) {
      if (path === '/health') continue;
      for (const method of Object.keys(ops)) {
        const key = `${method.toUpperCase()} ${normalise(path.replace(/^\/api\/v1/, ''))}`;
        if (!covered.has(key)) missing.push(key);
      }
    }
    expect(missing).toEqual([]);
  });
});
