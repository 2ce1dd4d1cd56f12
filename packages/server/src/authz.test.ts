import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { alertsAuthz } from './modules/alerts/authz';
import { announcementsAuthz } from './modules/announcements/authz';
import { approvalsAuthz } from './modules/approvals/authz';
import { auditAuthz } from './modules/audit/authz';
import { authAuthz } from './modules/auth/authz';
import { booksAuthz } from './modules/books/authz';
import { branchesAuthz } from './modules/branches/authz';
import { categoriesAuthz } from './modules/categories/authz';
import { complianceAuthz } from './modules/compliance/authz';
import { couponsAuthz } from './modules/coupons/authz';
import { currencyAuthz } from './modules/currency/authz';
import { customersAuthz } from './modules/customers/authz';
import { dashboardAuthz } from './modules/dashboard/authz';
import { dispensingAuthz } from './modules/dispensing/authz';
import { imagesAuthz } from './modules/images/authz';
import { marketingAuthz } from './modules/marketing/authz';
import { medicinesAuthz } from './modules/medicines/authz';
import { openapiAuthz } from './modules/openapi/authz';
import { parkedAuthz } from './modules/parked/authz';
import { prescriptionsAuthz } from './modules/prescriptions/authz';
import { printingAuthz } from './modules/printing/authz';
import { purchaseOrdersAuthz } from './modules/purchase-orders/authz';
import { purchasesAuthz } from './modules/purchases/authz';
import { reportsAuthz } from './modules/reports/authz';
import { returnsAuthz } from './modules/returns/authz';
import { salesAuthz } from './modules/sales/authz';
import { scannersAuthz } from './modules/scanners/authz';
import { sessionsAuthz } from './modules/sessions/authz';
import { settingsAuthz } from './modules/settings/authz';
import { stockcountAuthz } from './modules/stockcount/authz';
import { supplierFinanceAuthz } from './modules/supplier-finance/authz';
import { suppliersAuthz } from './modules/suppliers/authz';
import { syncAuthz } from './modules/sync/authz';
import { transfersAuthz } from './modules/transfers/authz';
import { usersAuthz } from './modules/users/authz';
import type { AuthzRow, Caller } from './testing/authz';
import { ADMIN, startTestServer, type TestServer, USER_PASSWORD } from './testing/harness';

/** Every module's rows. A route missing here fails the coverage test below. */
const TABLE: AuthzRow[] = [
  ...alertsAuthz,
  ...announcementsAuthz,
  ...approvalsAuthz,
  ...auditAuthz,
  ...authAuthz,
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
  ...purchasesAuthz,
  ...reportsAuthz,
  ...returnsAuthz,
  ...salesAuthz,
  ...scannersAuthz,
  ...sessionsAuthz,
  ...settingsAuthz,
  ...stockcountAuthz,
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
