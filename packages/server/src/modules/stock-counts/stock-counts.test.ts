import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { ledgerMismatches, makeMedicine, makeSupplier, receive } from '../../testing/factory';

let t: TestServer;
let admin: string;
let supplierId: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  supplierId = (await makeSupplier(t)).id;
});
afterAll(() => t.close());

type Sheet = {
  branch_id: string;
  total: number;
  items: Array<{ batch_id: string; expected_qty: number; medicine_name: string }>;
};

describe('stock count', () => {
  it('gives the sheet of the caller branch and books variances as count movements', async () => {
    const a = await makeMedicine(t, { name: 'Count A' });
    const b = await makeMedicine(t, { name: 'Count B' });
    const ba = await receive(t, a.id, supplierId, { qty_received: 12 });
    const bb = await receive(t, b.id, supplierId, { qty_received: 30 });
    const empty = await receive(t, b.id, supplierId, { qty_received: 1 });
    await t.put(`/api/v1/purchases/${empty.id}/write-off`, { quantity: 1, reason: 'x' }, admin);
    const sheet = await t.get<Sheet>('/api/v1/stockcount', admin);
    expect(sheet.status).toBe(200);
    expect(sheet.body.branch_id).toBe(await t.mainBranchId());
    expect(sheet.body.items.map((i) => [i.medicine_name, i.expected_qty])).toEqual([
      ['Count A', 12],
      ['Count B', 30],
    ]);
    expect((await t.get<Sheet>('/api/v1/stockcount?include_empty=true', admin)).body.total).toBe(3);
    const manager = await t.userWithRole('branch_manager');
    const res = await t.post(
      '/api/v1/stockcount/submit',
      {
        notes: 'monthly',
        lines: [
          { batch_id: ba.id, counted_qty: 10 },
          { batch_id: bb.id, counted_qty: 30 },
        ],
      },
      manager.token,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      lines_counted: 2,
      lines_with_variance: 1,
      total_variance: -2,
      counted_by: manager.id,
    });
    expect(res.body.variances).toEqual([
      expect.objectContaining({ batch_id: ba.id, expected_qty: 12, counted_qty: 10, variance: -2 }),
    ]);
    expect(await t.count('stock_count_lines')).toBe(2);
    const mv = await t.query("SELECT quantity, reference_id FROM stock_movements WHERE type = 'count'");
    expect(mv).toEqual([{ quantity: -2, reference_id: res.body.id }]);
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('needs a manager for variances above the threshold: 403 APPROVAL_REQUIRED, nothing written', async () => {
    const m = await makeMedicine(t);
    const batch = await receive(t, m.id, supplierId, { qty_received: 50 });
    const cashier = await t.userWithRole('cashier');
    const before = [
      await t.count('stock_counts'),
      await t.count('stock_count_lines'),
      await t.count('stock_movements'),
    ];
    const res = await t.post(
      '/api/v1/stockcount/submit',
      { lines: [{ batch_id: batch.id, counted_qty: 30 }] },
      cashier.token,
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('APPROVAL_REQUIRED');
    expect(res.body.detail).toMatch(/threshold of 10 units/);
    const withApproval = await t.post(
      '/api/v1/stockcount/submit',
      {
        approval_id: '0192f2c4-0000-7000-8000-000000000000',
        lines: [{ batch_id: batch.id, counted_qty: 30 }],
      },
      cashier.token,
    );
    expect(withApproval.status).toBe(403);
    expect([
      await t.count('stock_counts'),
      await t.count('stock_count_lines'),
      await t.count('stock_movements'),
    ]).toEqual(before);
    // an approved stock_variance approval of a branch manager lifts it, once
    const manager = await t.userWithRole('branch_manager');
    const asked = await t.post<{ id: string }>(
      '/api/v1/approvals',
      {
        kind: 'stock_variance',
        reason: 'shelf recount: 20 missing',
        payload: { batch_id: batch.id, variance: -20 },
      },
      cashier.token,
    );
    expect(
      (
        await t.put(
          `/api/v1/approvals/${asked.body.id}`,
          { status: 'approved', reason: 'checked' },
          manager.token,
        )
      ).status,
    ).toBe(200);
    const approved = await t.post<{ total_variance: number }>(
      '/api/v1/stockcount/submit',
      { approval_id: asked.body.id, lines: [{ batch_id: batch.id, counted_qty: 30 }] },
      cashier.token,
    );
    expect(approved.status).toBe(201);
    expect(approved.body.total_variance).toBe(-20);
    const again = await t.post(
      '/api/v1/stockcount/submit',
      { approval_id: asked.body.id, lines: [{ batch_id: batch.id, counted_qty: 10 }] },
      cashier.token,
    );
    expect(again.status).toBe(403);
    // within the threshold a cashier may count
    const small = await t.post(
      '/api/v1/stockcount/submit',
      { lines: [{ batch_id: batch.id, counted_qty: 25 }] },
      cashier.token,
    );
    expect(small.status).toBe(201);
    expect(small.body.total_variance).toBe(-5);
    // 30 - 5 = 25 on hand now
    const im = await t.userWithRole('inventory_manager');
    const big = await t.post(
      '/api/v1/stockcount/submit',
      { lines: [{ batch_id: batch.id, counted_qty: 100 }] },
      im.token,
    );
    expect(big.status).toBe(201);
    expect(big.body.total_variance).toBe(75);
  });

  it('M2: a stock_variance approval covers its batch, in its direction, up to its size only', async () => {
    const m = await makeMedicine(t);
    const batch = await receive(t, m.id, supplierId, { qty_received: 50 });
    const second = await receive(t, m.id, supplierId, { qty_received: 50 });
    const cashier = await t.userWithRole('cashier');
    const manager = await t.userWithRole('branch_manager');
    const asked = await t.post<{ id: string }>(
      '/api/v1/approvals',
      { kind: 'stock_variance', reason: '20 missing', payload: { batch_id: batch.id, variance: -20 } },
      cashier.token,
    );
    await t.put(`/api/v1/approvals/${asked.body.id}`, { status: 'approved', reason: 'ok' }, manager.token);
    const tables = ['stock_counts', 'stock_count_lines', 'stock_movements', 'change_log'];
    const before = await t.counts(tables);
    const submit = (lines: Array<{ batch_id: string; counted_qty: number }>) =>
      t.post<{ code: string; detail: string }>(
        '/api/v1/stockcount/submit',
        { approval_id: asked.body.id, lines },
        cashier.token,
      );
    const refused: Array<[Array<{ batch_id: string; counted_qty: number }>, string]> = [
      [[{ batch_id: batch.id, counted_qty: 29 }], 'allows a variance of -20'],
      [[{ batch_id: batch.id, counted_qty: 70 }], 'not 20'],
      [[{ batch_id: second.id, counted_qty: 30 }], 'it is not for batch'],
      [
        [
          { batch_id: batch.id, counted_qty: 30 },
          { batch_id: second.id, counted_qty: 30 },
        ],
        '2 variances exceed the threshold',
      ],
    ];
    for (const [lines, why] of refused) {
      const res = await submit(lines);
      expect(res.status, why).toBe(403);
      expect(res.body.code).toBe('APPROVAL_MISMATCH');
      expect(res.body.detail).toContain(why);
    }
    expect(await t.counts(tables)).toEqual(before);
    expect((await submit([{ batch_id: batch.id, counted_qty: 35 }])).status).toBe(201);
  });

  it('refuses bad lines, duplicates, unknown and foreign batches, and other branches', async () => {
    const m = await makeMedicine(t);
    const batch = await receive(t, m.id, supplierId);
    const other = await t.createBranch('CNT2');
    const foreign = await receive(t, m.id, supplierId, { branch_id: other });
    const pharmacist = await t.userWithRole('pharmacist');
    const unknown = '0192f2c4-0000-7000-8000-000000000000';
    const cases: Array<[Record<string, unknown>, number]> = [
      [{}, 400],
      [{ lines: [] }, 400],
      [{ lines: [{ batch_id: batch.id }] }, 400],
      [{ lines: [{ batch_id: batch.id, counted_qty: -1 }] }, 400],
      [{ lines: [{ batch_id: batch.id, counted_qty: 1.5 }] }, 400],
      [{ lines: [{ batch_id: batch.id, counted_qty: '3' }] }, 400],
      [
        {
          lines: [
            { batch_id: batch.id, counted_qty: 1 },
            { batch_id: batch.id, counted_qty: 2 },
          ],
        },
        400,
      ],
      [{ lines: [{ batch_id: unknown, counted_qty: 1 }] }, 404],
      [{ lines: [{ batch_id: foreign.id, counted_qty: 1 }] }, 400],
      [{ branch_id: other, lines: [{ batch_id: foreign.id, counted_qty: 1 }] }, 403],
    ];
    const before = await t.count('stock_counts');
    for (const [body, status] of cases) {
      const res = await t.post('/api/v1/stockcount/submit', body, pharmacist.token);
      expect(res.status, JSON.stringify(body)).toBe(status);
    }
    expect(await t.count('stock_counts')).toBe(before);
    // a branch-bound caller's sheet is always their own branch
    const sheet = await t.get<Sheet>(`/api/v1/stockcount?branch_id=${other}`, pharmacist.token);
    expect(sheet.body.branch_id).toBe(pharmacist.branchId);
    expect(
      (await t.get<Sheet>(`/api/v1/stockcount?branch_id=${other}`, admin)).body.items.map((i) => i.batch_id),
    ).toEqual([foreign.id]);
    const auditor = await t.userWithRole('auditor');
    expect(
      (
        await t.post(
          '/api/v1/stockcount/submit',
          { lines: [{ batch_id: batch.id, counted_qty: 1 }] },
          auditor.token,
        )
      ).status,
    ).toBe(403);
  });
});
