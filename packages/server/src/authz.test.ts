import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogueAuthz } from './modules/catalogue.authz';
import { foundationAuthz } from './modules/foundation.authz';
import { printingAuthz } from './modules/printing/printing.authz';
import { approvalAuthz } from './modules/approvals/approvals.authz';
import { announcementAuthz } from './modules/announcements/announcements.authz';
import { purchaseOrderAuthz } from './modules/purchase-orders/purchase-orders.authz';
import { reportAuthz } from './modules/reports/reports.authz';
import { supplierFinanceAuthz } from './modules/supplier-finance/supplier-finance.authz';
import { prescriptionsAuthz } from './modules/prescriptions/prescriptions.authz';
import { syncAuthz } from './modules/sync/sync.authz';
import { sellingAuthz } from './modules/sales/selling.authz';
import type { AuthzRow, Caller } from './testing/authz';
import { ADMIN, startTestServer, type TestServer, USER_PASSWORD } from './testing/harness';

/** Every module's rows. A route missing here fails the coverage test below. */
const TABLE: AuthzRow[] = [
  ...foundationAuthz,
  ...syncAuthz,
  ...catalogueAuthz,
  ...purchaseOrderAuthz,
  ...supplierFinanceAuthz,
  ...approvalAuthz,
  ...announcementAuthz,
  ...reportAuthz,
  ...printingAuthz,
  ...prescriptionsAuthz,
  ...sellingAuthz,
];

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
const emails = new Map<Caller, string>([['admin', ADMIN.email]]);

beforeAll(async () => {
  t = await startTestServer();
  tokens.set('admin', await t.adminToken());
  for (const role of ['pharmacist', 'cashier', 'branch_manager', 'inventory_manager', 'auditor'] as const) {
    const user = await t.userWithRole(role);
    tokens.set(role, user.token);
    emails.set(role, user.email);
  }
}, 60_000);

/** The caller's shared token, or a fresh sign-in's for a route that spends it. */
async function tokenFor(caller: Caller, row: AuthzRow): Promise<string | undefined> {
  const email = emails.get(caller);
  if (!row.spendsToken || !email) return tokens.get(caller);
  return t.login(email, caller === 'admin' ? ADMIN.password : USER_PASSWORD);
}
afterAll(() => t.close());

const fill = (path: string) => path.replace(/\{\w+\}/g, () => randomUUID());

describe('authorization table', () => {
  for (const row of TABLE) {
    it(`${row.method} ${row.path}`, async () => {
      const got: Partial<Record<Caller, number>> = {};
      for (const caller of CALLERS) {
        const res = await t.request(row.method, `/api/v1${fill(row.path)}`, {
          token: await tokenFor(caller, row),
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
