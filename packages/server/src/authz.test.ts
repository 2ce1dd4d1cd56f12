import { ALL_STAFF } from '@pharmacy/contracts/roles';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertsAuthz } from './testing/authz-rows/alerts';
import { announcementsAuthz } from './testing/authz-rows/announcements';
import { approvalsAuthz } from './testing/authz-rows/approvals';
import { auditAuthz } from './testing/authz-rows/audit';
import { authAuthz } from './testing/authz-rows/auth';
import { batchesAuthz } from './testing/authz-rows/batches';
import { booksAuthz } from './testing/authz-rows/books';
import { branchesAuthz } from './testing/authz-rows/branches';
import { categoriesAuthz } from './testing/authz-rows/categories';
import { complianceAuthz } from './testing/authz-rows/compliance';
import { couponsAuthz } from './testing/authz-rows/coupons';
import { currencyAuthz } from './testing/authz-rows/currency';
import { customersAuthz } from './testing/authz-rows/customers';
import { dashboardAuthz } from './testing/authz-rows/dashboard';
import { dispensingAuthz } from './testing/authz-rows/dispensing';
import { imagesAuthz } from './testing/authz-rows/images';
import { marketingAuthz } from './testing/authz-rows/marketing';
import { medicinesAuthz } from './testing/authz-rows/medicines';
import { openapiAuthz } from './testing/authz-rows/openapi';
import { parkedAuthz } from './testing/authz-rows/parked';
import { prescriptionsAuthz } from './testing/authz-rows/prescriptions';
import { printingAuthz } from './testing/authz-rows/printing';
import { purchaseOrdersAuthz } from './testing/authz-rows/purchase-orders';
import { reportsAuthz } from './testing/authz-rows/reports';
import { returnsAuthz } from './testing/authz-rows/returns';
import { salesAuthz } from './testing/authz-rows/sales';
import { scannersAuthz } from './testing/authz-rows/scanners';
import { sessionsAuthz } from './testing/authz-rows/sessions';
import { settingsAuthz } from './testing/authz-rows/settings';
import { stockCountsAuthz } from './testing/authz-rows/stock-counts';
import { supplierFinanceAuthz } from './testing/authz-rows/supplier-finance';
import { suppliersAuthz } from './testing/authz-rows/suppliers';
import { syncAuthz } from './testing/authz-rows/sync';
import { transfersAuthz } from './testing/authz-rows/transfers';
import { usersAuthz } from './testing/authz-rows/users';
import type { AuthzRow, Caller } from './testing/authz';
import { ADMIN, startTestServer, type TestServer, USER_PASSWORD } from './testing/harness';

/** Every module's rows. A route missing here fails the coverage test below. */
const TABLE: AuthzRow[] = [
  ...alertsAuthz,
  ...announcementsAuthz,
  ...approvalsAuthz,
  ...auditAuthz,
  ...authAuthz,
  ...batchesAuthz,
  ...booksAuthz,
  ...branchesAuthz,
  ...categoriesAuthz,
  ...complianceAuthz,
  ...couponsAuthz,
  ...currencyAuthz,
  ...customersAuthz,
  ...dashboardAuthz,
  ...dispensingAuthz,
  ...imagesAuthz,
  ...marketingAuthz,
  ...medicinesAuthz,
  ...openapiAuthz,
  ...parkedAuthz,
  ...prescriptionsAuthz,
  ...printingAuthz,
  ...purchaseOrdersAuthz,
  ...reportsAuthz,
  ...returnsAuthz,
  ...salesAuthz,
  ...scannersAuthz,
  ...sessionsAuthz,
  ...settingsAuthz,
  ...stockCountsAuthz,
  ...supplierFinanceAuthz,
  ...suppliersAuthz,
  ...syncAuthz,
  ...transfersAuthz,
  ...usersAuthz,
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
  for (const role of ALL_STAFF) {
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
