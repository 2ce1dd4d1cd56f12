import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import {
  addStock,
  makeMedicine,
  makeMedicineId,
  makeSupplier,
  openSessionFor,
  receive,
} from '../../testing/factory';
import { startTestServer, type TestServer, USER_PASSWORD } from '../../testing/harness';
import { registeredEntities } from './registry';
import { TillStore } from './till-store';
import { pushedApproval, pushedSignIn, saleTemplate } from '../../testing/pushed-sale';

/**
 * Issue 26, the push side: every change a till pushes or a manager resolves passes one gate (gate.ts). Each
 * finding's reproduction, against a real central over HTTP.
 */

type Rejected = { client_mutation_id: string; code: string; message: string; conflict_id: string };
type PushBody = { accepted: Array<Record<string, unknown>>; rejected: Rejected[] };
type Row = Record<string, unknown>;
type Device = { id: string; token: string };
type Person = { id: string; token: string; email: string };

let t: TestServer;
let admin: string;
let main: string;
let other: string;
let tillA: Device;
let tillB: Device;
let cashier: Person;
let manager: Person;
let managerB: Person;
let sale: Awaited<ReturnType<typeof saleTemplate>>;

beforeAll(async () => {
  t = await startTestServer({ mode: 'central' });
  admin = await t.adminToken();
  main = await t.mainBranchId();
  other = await t.createBranch('GATEB');
  cashier = await t.userWithRole('cashier');
  manager = await t.userWithRole('branch_manager');
  managerB = await t.userWithRole('branch_manager', other);
  tillA = await t.registerDevice('Till A');
  tillB = await t.registerDevice('Till B', other);
  sale = await saleTemplate(t, manager.token);
}, 60_000);
afterAll(() => t.close());

const change = (entity: string, payload: Row, extra: Row = {}) => ({
  client_mutation_id: newId(),
  entity,
  op: 'upsert',
  entity_id: String(payload.id),
  payload,
  ...extra,
});

/** Pushes as a device (its credential) or as a person (their bearer token, for till A). */
async function push(changes: unknown[], as: Device | Person = tillA): Promise<PushBody> {
  const person = 'email' in as;
  const res = await t.request<PushBody>('POST', '/api/v1/sync/push', {
    body: { device_id: person ? tillA.id : as.id, changes },
    ...(person ? { token: as.token } : { headers: { 'x-device-token': as.token } }),
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  return res.body;
}

const rowOf = async (table: string, id: unknown) => (await t.row(table, id)) as Row;
const resolve = (conflictId: string, body: Row, token: string) =>
  t.post<Row>(`/api/v1/sync/conflicts/${conflictId}/resolve`, body, token);

describe('C1: a conflict resolution passes the same gate as a push, with the resolver as actor', () => {
  it('C1: a branch manager cannot make themself admin by resolving a conflict with their own user row', async () => {
    const refused = await push([change('user', { id: cashier.id, role: 'admin' })], cashier);
    const conflictId = refused.rejected[0]!.conflict_id;
    expect(conflictId).toBeTruthy();
    const own = await rowOf('users', manager.id);
    const res = await resolve(
      conflictId,
      { resolution: 'merged', payload: { ...own, role: 'admin', password_hash: own.password_hash } },
      manager.token,
    );
    expect(res.status).toBe(403);
    expect((await rowOf('users', manager.id)).role).toBe('branch_manager');
  });

  it("C1: another branch's manager cannot cut a catalogue price through keep_till (PUT /medicines is 403)", async () => {
    const medicine = await makeMedicine(t, { selling_price: 10 });
    const row = await rowOf('medicines', medicine.id);
    const refused = await push([change('medicine', { ...row, selling_price: 1 })], tillB);
    expect(refused.rejected[0]?.code).toBe('CENTRAL_ONLY');
    const res = await resolve(refused.rejected[0]!.conflict_id, { resolution: 'keep_till' }, managerB.token);
    expect(res.status).toBe(403);
    expect((await t.get<Row>(`/api/v1/medicines/${medicine.id}`, admin)).body.selling_price).toBe('10.00');
  });

  it('C1: a resolution that cannot apply answers 4xx, never 500, and leaves the conflict open', async () => {
    const refused = await push([change('sale', { ...sale(), branch_id: other })]);
    expect(refused.rejected[0]?.code).toBe('OTHER_BRANCH');
    const conflictId = refused.rejected[0]!.conflict_id;
    for (const payload of [{ id: 'not-the-row' }, { ...sale(), lines: 'x' }, { id: newId(), junk: [1, 2] }]) {
      const res = await resolve(conflictId, { resolution: 'merged', payload }, manager.token);
      expect([403, 409]).toContain(res.status);
    }
    expect((await rowOf('sync_conflicts', conflictId)).status).toBe('open');
  });
});

describe('C2: a password hash never travels from a till to central', () => {
  it("C2: a cashier's token or a device pushing the manager's user row with a new hash is CENTRAL_ONLY", async () => {
    const stored = await rowOf('users', manager.id);
    const forged = {
      ...stored,
      password_hash: (await rowOf('users', cashier.id)).password_hash,
      must_change_password: 0,
      token_version: Number(stored.token_version) + 1,
    };
    for (const as of [cashier, tillA]) {
      const body = await push([change('user', forged)], as);
      expect(body.rejected[0]?.code).toBe('CENTRAL_ONLY');
    }
    expect((await rowOf('users', manager.id)).password_hash).toBe(stored.password_hash);
    // The refused row is a conflict a manager reads, without the verifier it carried.
    const conflicts = await t.get<{ items: Array<{ entity: string; till_payload: Row }> }>(
      '/api/v1/sync/conflicts?entity=user',
      manager.token,
    );
    expect(conflicts.status).toBe(200);
    expect(conflicts.body.items.length).toBeGreaterThan(0);
    for (const c of conflicts.body.items) expect(c.till_payload).not.toHaveProperty('password_hash');
  });
});

describe('C2: a till keeps its users to itself', () => {
  it('C2: a password changed at a till never enters its outbox', async () => {
    const till = await startTestServer({ mode: 'till' });
    try {
      const user = await till.userWithRole('cashier');
      const changed = await till.post(
        '/api/v1/auth/change-password',
        { current_password: USER_PASSWORD, new_password: 'Till-only-password-9' },
        user.token,
      );
      expect(changed.status).toBe(200);
      await till.exec("INSERT INTO sync_meta (key, value) VALUES ('bootstrapped', '1')");
      const outbox = await new TillStore(till.context).outbox(1000, 10_000_000);
      expect(outbox.map((o) => o.change.entity)).not.toContain('user');
      expect((await new TillStore(till.context).counts()).pending).toBe(outbox.length);
    } finally {
      await till.close();
    }
  });
});

describe('H2: a person signed in pushes only what they did themself', () => {
  const approval = (fields: Row) =>
    pushedApproval({ branchId: main, requestedBy: cashier.id, decidedBy: manager.id }, fields);

  it("H2: a cashier's token cannot push an approval the manager decided; the admin's names only the admin", async () => {
    const before = await t.count('approvals');
    const adminRow = await t.query<{ id: string }>("SELECT id FROM users WHERE role = 'admin'");
    const byCashier = await push([change('approval', approval({}))], cashier);
    const byAdmin = await push([change('approval', approval({}))], {
      id: adminRow[0]!.id,
      token: admin,
      email: 'admin',
    });
    expect([byCashier.rejected[0]?.code, byAdmin.rejected[0]?.code]).toEqual([
      'FORBIDDEN_ROLE',
      'FORBIDDEN_ROLE',
    ]);
    expect(byCashier.rejected[0]?.message).toMatch(/only record what you did/);
    expect(await t.count('approvals')).toBe(before);
  });

  it("H2: the device of the branch carries its manager's decision made at that device", async () => {
    const decided = approval({ decided_at_device: tillA.id });
    const device = await push([
      change('device_sign_in', pushedSignIn(decided, tillA.id)),
      change('approval', decided),
    ]);
    expect(device.rejected).toEqual([]);
  });
});

describe("H3: a device writes only its own branch's rows", () => {
  it("H3: entity_id must be the payload's key: B's open session is never moved or closed through A's id", async () => {
    const session = await rowOf('cash_sessions', await openSessionFor(t, managerB.token));
    const body = await push([
      change('cash_session', { ...session, branch_id: main, status: 'closed' }, { entity_id: newId() }),
    ]);
    expect(body.rejected[0]?.code).toBe('ENTITY_ID_MISMATCH');
    expect(await rowOf('cash_sessions', session.id)).toMatchObject({ branch_id: other, status: 'open' });
  });

  it("H3: A's stock movement naming B's batch is OTHER_BRANCH, also within a set-wise run", async () => {
    const med = await makeMedicineId(t, { price: 5 });
    const theirs = await addStock(t, med, 98, { branchId: other });
    const mine = await addStock(t, med, 100);
    const movement = (batch: string) => ({
      id: newId(),
      batch_id: batch,
      branch_id: main,
      medicine_id: med,
      type: 'sale',
      quantity: -5,
      reference_type: 'sale',
      reference_id: newId(),
      user_id: null,
      reason: '',
      created_at: nowIso(),
    });
    const run = Array.from({ length: 9 }, (_, i) =>
      change('stock_movement', movement(i === 4 ? theirs : mine)),
    );
    const body = await push(run);
    expect(body.rejected.map((r) => r.code)).toEqual(['OTHER_BRANCH']);
    expect(body.accepted).toHaveLength(8);
    expect((await rowOf('batches', theirs)).qty_on_hand).toBe(98);
    expect((await rowOf('batches', mine)).qty_on_hand).toBe(60);
  });

  it("H3: A's return naming B's sale, or B's sale lines, is OTHER_BRANCH and sets no returned quantity", async () => {
    const theirs: Row = { ...sale({ branchId: other }), session_id: null };
    expect((await push([change('sale', theirs)], tillB)).rejected).toEqual([]);
    const line = (theirs.lines as Row[])[0]!;
    const ret = (saleId: string) => {
      const id = newId();
      return {
        id,
        sale_id: saleId,
        branch_id: main,
        lines: [{ id: newId(), return_id: id, sale_line_id: line.id, quantity: 1 }],
      };
    };
    const body = await push([change('return', ret(String(theirs.id))), change('return', ret(newId()))]);
    expect(body.rejected.map((r) => r.code)).toEqual(['OTHER_BRANCH', 'OTHER_BRANCH']);
    expect((await rowOf('sale_lines', line.id)).returned_quantity).toBe(0);
  });
});

describe('H4: customer credit moves only with the documents behind it', () => {
  const customer = async () => {
    const res = await t.post<{ id: string }>(
      '/api/v1/customers',
      { name: `Credit ${newId().slice(-6)}` },
      admin,
    );
    return rowOf('customers', res.body.id);
  };
  const ledger = (c: Row, fields: Row) => ({
    id: newId(),
    customer_id: c.id,
    branch_id: main,
    transaction_type: 'PAYMENT',
    amount: 100_000_000,
    balance_after: 0,
    reference_type: null,
    reference_id: null,
    notes: '',
    created_by: null,
    created_at: nowIso(),
    ...fields,
  });

  /** Where a payment on account is taken: the manager's open cash session of the main branch, in cash. */
  const takenAtTill = async () => {
    const [open] = await t.query<{ id: string }>(
      "SELECT id FROM cash_sessions WHERE user_id = ? AND status = 'open'",
      manager.id,
    );
    return { session_id: open!.id, tender: 'cash' };
  };

  it('H4: a payment on account needs a cash session of the branch, open when it was taken, and a till tender', async () => {
    const c = await customer();
    await t.exec('UPDATE customers SET current_balance = 5000 WHERE id = ?', c.id);
    const inSession = await takenAtTill();
    const [otherSession] = await t.query<{ id: string }>(
      'SELECT id FROM cash_sessions WHERE branch_id = ? LIMIT 1',
      other,
    );
    const body = await push([
      change('customer_ledger', ledger(c, { amount: 100, tender: 'cash' })),
      change('customer_ledger', ledger(c, { amount: 100, ...inSession, tender: 'credit' })),
      change(
        'customer_ledger',
        ledger(c, { amount: 100, ...inSession, created_at: '2020-01-01T00:00:00.000Z' }),
      ),
      change(
        'customer_ledger',
        ledger(c, { amount: 100, session_id: otherSession?.id ?? newId(), tender: 'cash' }),
      ),
      change('customer_ledger', ledger(c, { amount: 100, ...inSession })),
    ]);
    expect(body.rejected.map((r) => r.message)).toEqual([
      expect.stringContaining("cash session of the device's branch"),
      expect.stringContaining('cash, card, mobile money or bank transfer'),
      expect.stringContaining('while its cash session was open'),
      expect.stringContaining("cash session of the device's branch"),
    ]);
    expect(body.accepted).toHaveLength(1);
  });

  it("H4: a cashier's token cannot set credit terms naming the admin, nor copy terms onto another customer", async () => {
    const [adminRow] = await t.query<{ id: string }>("SELECT id FROM users WHERE role = 'admin'");
    const c = await customer();
    const rich = { ...(await customer()), credit_limit: 10_000_000, is_credit_allowed: 1 };
    const body = await push(
      [
        change('customer', {
          ...c,
          credit_limit: 10_000_000,
          is_credit_allowed: 1,
          credit_terms_by: adminRow!.id,
        }),
        change('customer', rich, { entity_id: c.id }),
      ],
      cashier,
    );
    expect(body.rejected.map((r) => r.code)).toEqual(['FORBIDDEN_ROLE', 'ENTITY_ID_MISMATCH']);
    expect(await rowOf('customers', c.id)).toMatchObject({ credit_limit: 0, is_credit_allowed: 0 });
  });

  it('H4: a payment with no balance behind it, or a charge with no sale, is refused; a credit sale charges', async () => {
    const c = await customer();
    await t.exec('UPDATE customers SET credit_limit = 100000, is_credit_allowed = 1 WHERE id = ?', c.id);
    const credit = sale({ customerId: String(c.id), credit: 2500 });
    const body = await push([
      change('customer_ledger', ledger(c, {})),
      change('customer_ledger', ledger(c, { transaction_type: 'SALE', amount: 2500 })),
      change(
        'customer_ledger',
        ledger(c, {
          transaction_type: 'SALE',
          amount: 9999,
          reference_type: 'sale',
          reference_id: credit.id,
        }),
      ),
      change(
        'customer_ledger',
        ledger(c, {
          transaction_type: 'SALE',
          amount: 2500,
          reference_type: 'sale',
          reference_id: credit.id,
        }),
      ),
      change('sale', credit),
      change('customer_ledger', ledger(c, { amount: 500, ...(await takenAtTill()) })),
    ]);
    expect(body.rejected.map((r) => r.code)).toEqual(['FORBIDDEN_ROLE', 'FORBIDDEN_ROLE', 'FORBIDDEN_ROLE']);
    expect(body.accepted).toHaveLength(3);
    expect((await rowOf('customers', c.id)).current_balance).toBe(2000);
  });
});

describe('H5: head office decisions stay head office decisions', () => {
  it('H5: a device cannot lift a recall, but may report a quarantine it made', async () => {
    const batch = await receive(t, (await makeMedicine(t)).id, (await makeSupplier(t)).id);
    const url = `/api/v1/supplier-finance/batches/${batch.id}/quarantine`;
    expect((await t.post(url, { status: 'recalled' }, admin)).status).toBe(200);
    const row = await rowOf('batches', batch.id);
    const lifted = await push([
      change('batch', { ...row, regulator_status: 'active' }, { base_revision: await t.headRevision() }),
    ]);
    expect(lifted.rejected[0]?.code).toBe('FORBIDDEN_ROLE');
    expect((await rowOf('batches', batch.id)).regulator_status).toBe('recalled');

    const fresh = await receive(t, (await makeMedicine(t)).id, (await makeSupplier(t)).id);
    const own = await rowOf('batches', fresh.id);
    const reported = await push([
      change('batch', { ...own, regulator_status: 'quarantined' }, { base_revision: await t.headRevision() }),
    ]);
    expect(reported.rejected).toEqual([]);
  });

  it('H5: coupon redemptions without a discounted sale of the branch are refused; the coupon is not used up', async () => {
    const coupon = await t.post<{ id: string }>(
      '/api/v1/coupons',
      { code: `GATE${Date.now() % 100000}`, discount_type: 'fixed', discount_value: 1, usage_limit: 5 },
      admin,
    );
    expect(coupon.status).toBe(201);
    const redemption = (fields: Row) => ({
      id: newId(),
      coupon_id: coupon.body.id,
      sale_id: newId(),
      customer_id: null,
      amount: 100,
      created_at: nowIso(),
      ...fields,
    });
    const undiscounted = sale();
    const body = await push([
      ...Array.from({ length: 4 }, () => change('coupon_redemption', redemption({ amount: 0 }))),
      change('coupon_redemption', redemption({})),
      change('coupon_redemption', redemption({ sale_id: undiscounted.id })),
      change('sale', undiscounted),
    ]);
    expect(body.rejected.map((r) => r.code)).toEqual([
      ...Array(4).fill('VALIDATION'),
      'FORBIDDEN_ROLE',
      'FORBIDDEN_ROLE',
    ]);
    expect((await rowOf('coupons', coupon.body.id)).used_count).toBe(0);
    const discounted = sale();
    Object.assign(discounted, { coupon_id: coupon.body.id, coupon_discount: 100 });
    const taken = await push([
      change('coupon_redemption', redemption({ sale_id: discounted.id })),
      change('sale', discounted),
    ]);
    expect(taken.rejected).toEqual([]);
    expect((await rowOf('coupons', coupon.body.id)).used_count).toBe(1);
  });
});

describe('M1 and L4: a pushed payload meets the REST rules, and a hostile one is refused alone', () => {
  it('M1: a customer named with ESC/POS commands is VALIDATION and not stored', async () => {
    const at = nowIso();
    const id = newId();
    const body = await push([
      change('customer', {
        id,
        name: 'Drawer \x1bp\x00\x19\xfa\x1dV\x00',
        phone: '',
        national_id: '',
        notes: '',
        credit_limit: 0,
        is_credit_allowed: 0,
        current_balance: 0,
        created_at: at,
        updated_at: at,
      }),
    ]);
    expect(body.rejected[0]?.code).toBe('VALIDATION');
    expect(await rowOf('customers', id)).toBeUndefined();
  });

  it('M1: every entity a till may push has its payload schema, so no entity passes on text rules alone', () => {
    const pushable = registeredEntities().filter((e) => e.push !== 'central-only');
    expect(pushable.length).toBeGreaterThan(15);
    expect(pushable.filter((e) => !e.payloadSchema).map((e) => e.entity)).toEqual([]);
  });

  it.each([
    ['a negative total', (s: Row) => ({ ...s, total_amount: -500 }), 'total_amount'],
    [
      'a fractional quantity',
      (s: Row) => ({ ...s, lines: [{ ...(s.lines as Row[])[0], quantity: 0.5 }] }),
      'lines.0.quantity',
    ],
    [
      'an unknown tender',
      (s: Row) => ({ ...s, payments: [{ ...(s.payments as Row[])[0], method: 'gold' }] }),
      'payments.0.method',
    ],
    ['no lines', (s: Row) => ({ ...s, lines: [] }), 'lines'],
    [
      'more returned than sold',
      (s: Row) => ({ ...s, lines: [{ ...(s.lines as Row[])[0], returned_quantity: 9 }] }),
      'lines.0.returned_quantity',
    ],
  ])(
    'M1: a pushed sale with %s is VALIDATION, names the field, and is not stored',
    async (_, spoil, field) => {
      const bad: Row = spoil(sale());
      const body = await push([change('sale', bad)]);
      expect(body.rejected[0]?.code).toBe('VALIDATION');
      expect(body.rejected[0]?.message).toContain(field);
      expect(await rowOf('sales', bad.id)).toBeUndefined();
    },
  );

  it('L4: a 200,000-deep payload is refused alone; the changes around it apply, and the push answers 200', async () => {
    const at = nowIso();
    const customer = (name: string) => ({
      id: newId(),
      name,
      phone: '',
      national_id: '',
      notes: '',
      credit_limit: 0,
      is_credit_allowed: 0,
      created_at: at,
      updated_at: at,
    });
    const before = change('customer', customer('Before deep'));
    const after = change('customer', customer('After deep'));
    const deep = `{"client_mutation_id":"deep-1","entity":"customer","op":"upsert","entity_id":"x","payload":{"id":"x","name":${'['.repeat(200_000)}${']'.repeat(200_000)}}}`;
    const raw = `{"device_id":"${tillA.id}","changes":[${JSON.stringify(before)},${deep},${JSON.stringify(after)}]}`;
    const res = await t.request<PushBody>('POST', '/api/v1/sync/push', {
      raw,
      headers: { 'x-device-token': tillA.token },
    });
    expect(res.status).toBe(200);
    expect(res.body.accepted.map((a) => a.client_mutation_id)).toEqual([
      before.client_mutation_id,
      after.client_mutation_id,
    ]);
    expect(res.body.rejected[0]).toMatchObject({ client_mutation_id: 'deep-1', code: 'VALIDATION' });
  });

  it('refuses a base_revision ahead of central for a till-owned entity too (customer)', async () => {
    const at = nowIso();
    const id = newId();
    const body = await push([
      change(
        'customer',
        { id, name: 'Ahead', phone: '', national_id: '', notes: '', created_at: at, updated_at: at },
        { base_revision: (await t.headRevision()) + 1000 },
      ),
    ]);
    expect(body.rejected[0]?.code).toBe('BAD_BASE_REVISION');
    expect(await rowOf('customers', id)).toBeUndefined();
  });
});
