import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../db/connection';
import { migrate } from '../../db/migrate';
import { MIGRATIONS } from '../../db/migrations';
import { startTestServer, type TestServer } from '../../testing/harness';
import type { ApprovalOperation } from './covers';
import { consumeApproval } from './service';
import { addStock, makeMedicineId, openSessionFor } from '../../testing/factory';

let t: TestServer;
let admin: string;
let main: string;
let other: string;
let cashier: { id: string; token: string };
let pharmacist: { id: string; token: string };
let manager: { id: string; token: string };
let managerOther: { id: string; token: string };

type Approval = {
  id: string;
  status: string;
  kind: string;
  is_expired: boolean;
  payload: Record<string, unknown>;
  decided_by_name: string | null;
};

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  main = await t.mainBranchId();
  other = await t.createBranch('APB');
  cashier = await t.userWithRole('cashier');
  pharmacist = await t.userWithRole('pharmacist');
  manager = await t.userWithRole('branch_manager');
  managerOther = await t.userWithRole('branch_manager', other);
});
afterAll(() => t.close());

const MEDICINE = randomUUID();
const DISCOUNT = { medicine_id: MEDICINE, quantity: 2, max_discount: 3 };

async function ask(token = cashier.token, kind = 'discount', payload: object = DISCOUNT) {
  const res = await t.post<Approval>('/api/v1/approvals', { kind, payload, reason: 'loyal customer' }, token);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  return res.body;
}

/** A sale giving 3.00 off two units of MEDICINE: what DISCOUNT allows. */
const discountedSale: ApprovalOperation = {
  kind: 'discount',
  currency_code: 'USD',
  exponent: 2,
  price_overrides: [],
  discounts: [{ medicine_id: MEDICINE, medicine_name: 'Ibuprofen', quantity: 2, discount: 300 }],
  global_discount: 0,
};

const use = (
  id: string,
  over: Partial<{ operation: ApprovalOperation; branchId: string; userId: string }> = {},
) =>
  t.context.db.transaction().execute((trx) =>
    consumeApproval(trx, {
      approvalId: id,
      operation: discountedSale,
      branchId: main,
      userId: cashier.id,
      ...over,
    }),
  );

describe('approvals', () => {
  it('a cashier asks, the branch manager approves, the cashier uses it once', async () => {
    const changes = await t.count('change_log');
    const a = await ask();
    expect(a).toMatchObject({
      status: 'pending',
      kind: 'discount',
      is_expired: false,
      payload: { ...DISCOUNT, currency_code: 'USD' },
    });
    const pending = await t.get<{ items: Approval[] }>('/api/v1/approvals', manager.token);
    expect(pending.body.items.map((i) => i.id)).toContain(a.id);
    const elsewhere = await t.get<{ items: Approval[] }>('/api/v1/approvals', managerOther.token);
    expect(elsewhere.body.items.map((i) => i.id)).not.toContain(a.id);
    const mine = await t.get<{ items: Approval[] }>('/api/v1/approvals', cashier.token);
    expect(mine.body.items.map((i) => i.id)).toEqual([a.id]);
    const theirs = await t.get<{ items: Approval[] }>('/api/v1/approvals', pharmacist.token);
    expect(theirs.body.items).toEqual([]);

    await expect(use(a.id)).rejects.toMatchObject({ status: 403, code: 'APPROVAL_REQUIRED' });
    const ok = await t.put<Approval>(
      `/api/v1/approvals/${a.id}`,
      { status: 'approved', reason: 'fine' },
      manager.token,
    );
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ status: 'approved', decided_by_name: 'Test branch_manager' });
    const twice = await t.put<{ code: string; detail: string }>(
      `/api/v1/approvals/${a.id}`,
      { status: 'rejected', reason: 'no' },
      admin,
    );
    expect(twice.status).toBe(409);
    expect(twice.body.detail).toContain('approved');

    await expect(
      use(a.id, { operation: { ...discountedSale, kind: 'price_override' } }),
    ).rejects.toMatchObject({
      code: 'APPROVAL_REQUIRED',
    });
    await expect(use(a.id, { branchId: other })).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });
    await expect(use(a.id, { userId: pharmacist.id })).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });
    const used = await use(a.id);
    expect(used).toMatchObject({ status: 'used', payload: { medicine_id: MEDICINE } });
    await expect(use(a.id)).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });
    // Request, decision and use; at a till also the manager's sign-in there, which backs the decision.
    const signIn = t.context.config.mode === 'central' ? 0 : 1;
    expect(await t.count('change_log')).toBe(changes + 3 + signIn);
    const actions = (
      await t.query<{ action: string }>(
        'SELECT action FROM audit_log WHERE entity_id = ? ORDER BY created_at, id',
        a.id,
      )
    ).map((r) => r.action);
    expect(actions).toEqual(['approval.request', 'approval.approve', 'approval.use']);
  });

  it('a rolled-back caller leaves the approval unused', async () => {
    const a = await ask();
    await t.put(`/api/v1/approvals/${a.id}`, { status: 'approved', reason: 'ok' }, manager.token);
    await expect(
      t.context.db.transaction().execute(async (trx) => {
        await consumeApproval(trx, {
          approvalId: a.id,
          operation: discountedSale,
          branchId: main,
          userId: cashier.id,
        });
        throw new Error('sale failed');
      }),
    ).rejects.toThrow('sale failed');
    expect((await use(a.id)).status).toBe('used');
  });

  it('rejects, refuses expired, self, other-branch and role-less decisions', async () => {
    const a = await ask();
    const no = await t.put<Approval>(
      `/api/v1/approvals/${a.id}`,
      { status: 'rejected', reason: 'too much' },
      admin,
    );
    expect(no.body.status).toBe('rejected');
    await expect(use(a.id)).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });

    const b = await ask();
    expect(
      (await t.put(`/api/v1/approvals/${b.id}`, { status: 'approved', reason: 'x' }, managerOther.token))
        .status,
    ).toBe(403);
    expect(
      (await t.put(`/api/v1/approvals/${b.id}`, { status: 'approved', reason: 'x' }, cashier.token)).status,
    ).toBe(403);
    expect((await t.put(`/api/v1/approvals/${b.id}`, { status: 'approved' }, manager.token)).status).toBe(
      400,
    );
    expect(
      (await t.put(`/api/v1/approvals/${b.id}`, { status: 'used', reason: 'x' }, manager.token)).status,
    ).toBe(400);
    expect(
      await t.exec('UPDATE approvals SET expires_at = ? WHERE id = ?', '2000-01-01T00:00:00.000Z', b.id),
    ).toBe(1);
    const late = await t.put<{ code: string }>(
      `/api/v1/approvals/${b.id}`,
      { status: 'approved', reason: 'x' },
      manager.token,
    );
    expect(late.status).toBe(409);
    expect(late.body.code).toBe('APPROVAL_EXPIRED');
    const expired = await t.get<{ items: Approval[] }>('/api/v1/approvals?status=all', manager.token);
    expect(expired.body.items.find((i) => i.id === b.id)?.is_expired).toBe(true);

    const own = await ask(manager.token, 'stock_variance', { batch_id: randomUUID(), variance: -20 });
    const self = await t.put<{ code: string }>(
      `/api/v1/approvals/${own.id}`,
      { status: 'approved', reason: 'x' },
      manager.token,
    );
    expect(self.status).toBe(403);
    expect(self.body.code).toBe('SELF_APPROVAL');
    expect(
      (await t.put(`/api/v1/approvals/${randomUUID()}`, { status: 'approved', reason: 'x' }, admin)).status,
    ).toBe(404);

    const c = await ask();
    await t.put(`/api/v1/approvals/${c.id}`, { status: 'approved', reason: 'ok' }, manager.token);
    expect(
      await t.exec('UPDATE approvals SET expires_at = ? WHERE id = ?', '2000-01-01T00:00:00.000Z', c.id),
    ).toBe(1);
    await expect(use(c.id)).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });
    await expect(use(randomUUID())).rejects.toMatchObject({ code: 'APPROVAL_REQUIRED' });
  });

  it('refuses bad requests and auditors', async () => {
    const before = await t.count('approvals');
    for (const body of [
      {},
      { kind: 'refund', reason: 'x' },
      { kind: 'discount' },
      { kind: 'discount', reason: '' },
      { kind: 'discount', reason: 'x', payload: [] },
      { kind: 'discount', reason: 'x', payload: { nested: { a: 1 } } },
      {
        kind: 'discount',
        reason: 'x',
        payload: Object.fromEntries(Array.from({ length: 31 }, (_, i) => [`k${i}`, i])),
      },
      { kind: 'discount', reason: 'x'.repeat(501) },
    ]) {
      expect(
        (await t.post('/api/v1/approvals', body, cashier.token)).status,
        JSON.stringify(body).slice(0, 80),
      ).toBe(400);
    }
    const auditor = await t.userWithRole('auditor');
    const voidSale = { kind: 'void', reason: 'x', payload: { sale_id: randomUUID() } };
    expect((await t.post('/api/v1/approvals', voidSale, auditor.token)).status).toBe(403);
    expect((await t.get('/api/v1/approvals?status=maybe', admin)).status).toBe(400);
    expect(await t.count('approvals')).toBe(before);
  });
});

describe('M2: an approval is bound to what it allows', () => {
  it('M2: refuses a request whose payload does not bound what it allows (400 naming payload.<field>)', async () => {
    const before = await t.count('approvals');
    const refund = { sale_id: randomUUID(), from_method: 'card', to_method: 'cash' };
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: 'discount', payload: { discount: 0.25, quantity: 1 } }, 'payload.max_discount'],
      [{ kind: 'discount', payload: { medicine_id: MEDICINE, max_discount: 1 } }, 'payload.quantity'],
      [{ kind: 'discount', payload: { ...DISCOUNT, max_discount: 0.001 } }, 'payload.max_discount'],
      [{ kind: 'discount', payload: { ...DISCOUNT, currency_code: 'XXX' } }, 'payload.currency_code'],
      [{ kind: 'price_override', payload: { medicine_id: MEDICINE, quantity: 1 } }, 'payload.unit_price'],
      [
        { kind: 'price_override', payload: { medicine_id: MEDICINE, quantity: 0, unit_price: 1 } },
        'payload.quantity',
      ],
      [{ kind: 'stock_variance', payload: { batch_id: randomUUID() } }, 'payload.variance'],
      [{ kind: 'stock_variance', payload: { batch_id: randomUUID(), variance: 0 } }, 'payload.variance'],
      [{ kind: 'refund_tender', payload: refund }, 'payload.max_amount'],
      [
        { kind: 'refund_tender', payload: { ...refund, to_method: 'card', max_amount: 5 } },
        'payload.to_method',
      ],
      [{ kind: 'refund_tender', payload: { ...refund, max_amount: 5 } }, 'payload.sale_id'],
      [{ kind: 'void', payload: {} }, 'payload.sale_id'],
      [
        { kind: 'return_without_receipt', payload: { medicine_id: MEDICINE, quantity: 1 } },
        'payload.max_amount',
      ],
    ];
    for (const [body, path] of cases) {
      const res = await t.post<{ errors?: Array<{ path: string }> }>(
        '/api/v1/approvals',
        { ...body, reason: 'x' },
        cashier.token,
      );
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.errors?.map((e) => e.path)).toContain(path);
    }
    expect(await t.count('approvals')).toBe(before);
  });

  it('M2: an approval of 1.00 off one unit does not sell 100 units with 399.00 off (403 APPROVAL_MISMATCH, nothing written)', async () => {
    const med = await makeMedicineId(t, { price: 4 });
    await addStock(t, med, 200);
    await openSessionFor(t, cashier.token);
    const a = await ask(cashier.token, 'discount', { medicine_id: med, quantity: 1, max_discount: 1 });
    await t.put(`/api/v1/approvals/${a.id}`, { status: 'approved', reason: 'ok' }, manager.token);
    const tables = ['sales', 'sale_lines', 'stock_movements', 'fiscal_chain', 'change_log', 'audit_log'];
    const before = await t.counts(tables);
    const sell = (quantity: number, discount: number) =>
      t.post<{ code: string; detail: string; total_amount: string }>(
        '/api/v1/sales',
        { items: [{ medicine_id: med, quantity, discount }], approval_id: a.id },
        cashier.token,
      );
    const exploit = await sell(100, 399);
    expect(exploit.status).toBe(403);
    expect(exploit.body.code).toBe('APPROVAL_MISMATCH');
    expect(exploit.body.detail).toContain('it allows 1 unit, the sale has 100');
    const more = await sell(1, 1.01);
    expect(more.status).toBe(403);
    expect(more.body.code).toBe('APPROVAL_MISMATCH');
    expect(more.body.detail).toContain('at most 1.00, not 1.01');
    expect(await t.counts(tables)).toEqual(before);
    const still = await t.get<{ items: Approval[] }>('/api/v1/approvals?status=approved', cashier.token);
    expect(still.body.items.map((i) => i.id)).toContain(a.id);

    expect(a.payload).toEqual({ medicine_id: med, quantity: 1, max_discount: 1, currency_code: 'USD' });
    const allowed = await sell(1, 1);
    expect(allowed.status).toBe(201);
    expect(allowed.body.total_amount).toBe('3.00');
    expect((await sell(1, 1)).body.code).toBe('APPROVAL_REQUIRED');
  });
});

describe('migration 0011', () => {
  it('keeps the approvals a database holds and accepts the refund_tender kind', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pharmacy-0011-'));
    const conn = openDatabase(path.join(dir, 'pharmacy.db'));
    try {
      const { '0011_refund_tender_approvals': _, ...before } = MIGRATIONS;
      await migrate(conn, before);
      conn.sqlite.prepare("INSERT INTO currencies VALUES ('USD', 'Dollar', '$', 2, 1, 'c', 'u')").run();
      conn.sqlite
        .prepare(
          `INSERT INTO branches (id, name, code, address, phone, vat_number, currency_code, timezone, is_active, created_at, updated_at)
           VALUES ('b1', 'B', 'B', '', '', '', 'USD', 'UTC', 1, 'c', 'u')`,
        )
        .run();
      const insert = (id: string, kind: string) =>
        conn.sqlite
          .prepare(
            `INSERT INTO approvals (id, branch_id, kind, payload, reason, status, requested_by, expires_at, created_at, updated_at)
             VALUES (?, 'b1', ?, '{"x":1}', 'r', 'pending', 'u', 'e', 'c', 'u')`,
          )
          .run(id, kind);
      insert('a1', 'discount');
      expect(() => insert('a2', 'refund_tender')).toThrow(/CHECK/);
      expect((await migrate(conn)).applied).toEqual(['0011_refund_tender_approvals']);
      insert('a2', 'refund_tender');
      expect(conn.sqlite.prepare('SELECT id, kind, payload FROM approvals ORDER BY id').all()).toEqual([
        { id: 'a1', kind: 'discount', payload: '{"x":1}' },
        { id: 'a2', kind: 'refund_tender', payload: '{"x":1}' },
      ]);
      const indexes = conn.sqlite
        .prepare(
          "SELECT name FROM sqlite_master WHERE tbl_name = 'approvals' AND type = 'index' AND sql IS NOT NULL ORDER BY name",
        )
        .all();
      expect(indexes).toEqual([{ name: 'approvals_branch' }, { name: 'approvals_requester' }]);
    } finally {
      await conn.db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
