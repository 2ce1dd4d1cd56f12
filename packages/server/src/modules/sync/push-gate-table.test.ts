import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import type { AuthzRow } from '../../testing/authz';
import { startTestServer, type TestServer } from '../../testing/harness';
import { saleTemplate } from '../../testing/pushed-sale';
import { approvalsAuthz } from '../../testing/authz-rows/approvals';
import { batchesAuthz } from '../../testing/authz-rows/batches';
import { customersAuthz } from '../../testing/authz-rows/customers';
import { dispensingAuthz } from '../../testing/authz-rows/dispensing';
import { registerAreaParts } from '../index';
import { parkedAuthz } from '../../testing/authz-rows/parked';
import { prescriptionsAuthz } from '../../testing/authz-rows/prescriptions';
import { purchaseOrdersAuthz } from '../../testing/authz-rows/purchase-orders';
import { returnsAuthz } from '../../testing/authz-rows/returns';
import { salesAuthz } from '../../testing/authz-rows/sales';
import { sessionsAuthz } from '../../testing/authz-rows/sessions';
import { stockCountsAuthz } from '../../testing/authz-rows/stock-counts';
import { supplierFinanceAuthz } from '../../testing/authz-rows/supplier-finance';
import { transfersAuthz } from '../../testing/authz-rows/transfers';
import { type EntityDefinition, registeredEntities } from './registry';

/**
 * Issue 26, "one door": for every replicated entity, every caller and every way a change arrives (a new row, a
 * change to a row central holds, a manager's resolution of a conflict), sync says what REST says.
 *
 * The REST verdict comes from the authorisation table (each module's rows in testing/authz-rows/, which src/authz.test.ts checks
 * against the real routes) for the routes the entity declares it is made by (registry `rest`):
 * - a person's token: allowed when one of those routes lets their role in; central-only data (catalogue,
 *   users, settings…) is made on central through its own routes, never through a till's change;
 * - the device of the branch: allowed when a person at its till could make the entity there (not central-only);
 * - the device of another branch, writing the first branch's row: refused (REST answers OTHER_BRANCH), except
 *   organisation data any branch makes (customers);
 * - a resolution: by the branch's manager, allowed when their role could make the entity through REST; the
 *   route refuses a cashier and any device.
 * The sync verdict is refused when the route answers 401/403 or the change is refused as CENTRAL_ONLY,
 * OTHER_BRANCH or FORBIDDEN_ROLE. When REST allows, sync may still refuse these made-up rows for what they
 * are (a constraint, a missing document, nobody named), but never for who sent them.
 */

registerAreaParts();

const AUTHZ: AuthzRow[] = [
  ...approvalsAuthz,
  ...batchesAuthz,
  ...customersAuthz,
  ...dispensingAuthz,
  ...parkedAuthz,
  ...prescriptionsAuthz,
  ...purchaseOrdersAuthz,
  ...returnsAuthz,
  ...salesAuthz,
  ...sessionsAuthz,
  ...stockCountsAuthz,
  ...supplierFinanceAuthz,
  ...transfersAuthz,
];

type Caller = 'cashier token' | 'branch-manager token' | 'device of the branch' | 'device of another branch';
type Op = 'insert' | 'update' | 'resolve';
const CALLERS: Caller[] = [
  'cashier token',
  'branch-manager token',
  'device of the branch',
  'device of another branch',
];
const OPS: Op[] = ['insert', 'update', 'resolve'];

/** Whether REST lets `role` make the entity: one of its routes, as the authorisation table lists it. */
function restAllows(def: EntityDefinition, role: 'cashier' | 'branch_manager'): boolean {
  if (def.push === 'central-only') return false;
  return def.rest.some((route) => {
    const shape = (path: string) => path.replace(/:\w+|\{\w+\}/g, '{}');
    const row = AUTHZ.find(
      (r) => r.method === route.method.toUpperCase() && shape(r.path) === shape(route.path),
    );
    if (!row) throw new Error(`no authorisation row for ${route.method} ${route.path} (${def.entity})`);
    return row.expect[role] !== 403;
  });
}

function restVerdict(def: EntityDefinition, caller: Caller, op: Op): boolean {
  if (op === 'resolve') return caller === 'branch-manager token' && restAllows(def, 'branch_manager');
  switch (caller) {
    case 'cashier token':
      return restAllows(def, 'cashier');
    case 'branch-manager token':
      return restAllows(def, 'branch_manager');
    case 'device of the branch':
      return def.push !== 'central-only';
    case 'device of another branch':
      return def.push !== 'central-only' && def.entity === 'customer';
  }
}

const AUTHORITY = new Set(['CENTRAL_ONLY', 'OTHER_BRANCH', 'FORBIDDEN_ROLE']);
/** Refusals of the caller (not of the row): the route, the policy, the branch, the person's role. */
const refusesCaller = (code: string, message: string) =>
  code === 'CENTRAL_ONLY' ||
  code === 'OTHER_BRANCH' ||
  (code === 'FORBIDDEN_ROLE' && /This action needs|is not made by a person|names someone else/.test(message));

let t: TestServer;
let main: string;
let other: string;
let mainSale: string;
let people: Record<'cashier' | 'manager', { token: string }>;
let devices: Record<'main' | 'other', { id: string; token: string }>;

beforeAll(async () => {
  t = await startTestServer({ mode: 'central' });
  main = await t.mainBranchId();
  other = await t.createBranch('TABLEB');
  people = {
    cashier: await t.userWithRole('cashier'),
    manager: await t.userWithRole('branch_manager'),
  };
  devices = { main: await t.registerDevice('Table A'), other: await t.registerDevice('Table B', other) };
  await saleTemplate(t, people.manager.token);
  mainSale = String((await t.query<{ id: string }>('SELECT id FROM sales LIMIT 1'))[0]?.id);
}, 60_000);
afterAll(() => t.close());

/** A made-up row of the entity in the first branch: what a till could send. */
function madeUpRow(def: EntityDefinition): Record<string, unknown> {
  const row: Record<string, unknown> = { [def.key]: newId(), created_at: nowIso() };
  if (def.scope === 'branch') row[def.branchColumn] = main;
  if (def.entity === 'customer_ledger') Object.assign(row, { branch_id: main, customer_id: newId() });
  if (def.entity === 'coupon_redemption') Object.assign(row, { sale_id: mainSale });
  if (def.entity === 'customer') Object.assign(row, { name: 'Table customer' });
  return row;
}

/** Whether a table has a column, asked of the database once per table and column (the schema stays put). */
const columnKnown = new Map<string, Promise<boolean>>();
function hasColumn(table: string, column: string): Promise<boolean> {
  const key = `${table}.${column}`;
  let known = columnKnown.get(key);
  if (!known) {
    known = t
      .query<{ n: number }>(
        t.dialect === 'sqlite'
          ? 'SELECT count(*) AS n FROM pragma_table_info(?) WHERE name = ?'
          : "SELECT count(*) AS n FROM information_schema.columns WHERE table_schema = 'public' AND table_name = ? AND column_name = ?",
        table,
        column,
      )
      .then((rows) => Number(rows[0]?.n) > 0);
    columnKnown.set(key, known);
  }
  return known;
}

/** A row of the first branch central holds, when it holds one; else a made-up one. */
async function heldRow(def: EntityDefinition): Promise<Record<string, unknown>> {
  const where = def.scope === 'branch' && def.branchColumn ? `WHERE "${def.branchColumn}" = ?` : '';
  const scoped = where && (await hasColumn(def.table, def.branchColumn));
  const [row] = await t.query(
    `SELECT * FROM "${def.table}" ${scoped ? where : ''} LIMIT 1`,
    ...(scoped ? [main] : []),
  );
  return row ?? madeUpRow(def);
}

const pushAs = async (caller: Caller, change: Record<string, unknown>) => {
  const device = caller === 'device of another branch' ? devices.other : devices.main;
  const person =
    caller === 'cashier token' ? people.cashier : caller === 'branch-manager token' ? people.manager : null;
  return t.request<{
    accepted: unknown[];
    rejected: Array<{ code: string; message: string; conflict_id: string }>;
  }>('POST', '/api/v1/sync/push', {
    body: { device_id: device.id, changes: [change] },
    ...(person ? { token: person.token } : { headers: { 'x-device-token': device.token } }),
  });
};

/** The sync verdict: true when the caller was let through (whatever became of the made-up row). */
async function syncVerdict(def: EntityDefinition, caller: Caller, op: Op): Promise<boolean> {
  const row = op === 'update' ? await heldRow(def) : madeUpRow(def);
  const change = {
    client_mutation_id: newId(),
    entity: def.entity,
    op: 'upsert',
    entity_id: String(row[def.key]),
    payload: row,
    base_revision: await t.headRevision(),
  };
  if (op !== 'resolve') {
    const res = await pushAs(caller, change);
    if (res.status === 401 || res.status === 403) return false;
    expect(res.status).toBe(200);
    const refused = res.body.rejected[0];
    if (!refused) return true;
    return restVerdict(def, caller, op)
      ? !refusesCaller(refused.code, refused.message)
      : !AUTHORITY.has(refused.code);
  }
  // A conflict of the first branch (its device sent the row against a revision central never had), then a
  // resolution with the row.
  const conflict = await pushAs('device of the branch', {
    ...change,
    base_revision: change.base_revision + 1e6,
  });
  const id = conflict.body.rejected[0]?.conflict_id;
  expect(id, JSON.stringify(conflict.body)).toBeTruthy();
  const token = caller === 'cashier token' ? people.cashier.token : people.manager.token;
  const res = await t.request<{ code?: string; detail?: string }>(
    'POST',
    `/api/v1/sync/conflicts/${id}/resolve`,
    {
      body: { resolution: 'merged', payload: row },
      ...(caller.startsWith('device') ? { headers: { 'x-device-token': devices.main.token } } : { token }),
    },
  );
  expect(res.status).not.toBe(500);
  if (res.status === 401) return false;
  if (res.status !== 403) return true;
  // A 403 for the made-up row itself (it names nobody who may have made it) is not a refusal of the resolver.
  return res.body.code === 'FORBIDDEN_ROLE' && !refusesCaller(res.body.code, String(res.body.detail));
}

describe('one door: the sync verdict agrees with the REST verdict', () => {
  const cases = registeredEntities().flatMap((def) =>
    CALLERS.flatMap((caller) => OPS.map((op) => [def.entity, caller, op] as const)),
  );
  it.each(cases)('%s × %s × %s', async (entity, caller, op) => {
    const def = registeredEntities().find((e) => e.entity === entity)!;
    expect(await syncVerdict(def, caller, op)).toBe(restVerdict(def, caller, op));
  });
});
