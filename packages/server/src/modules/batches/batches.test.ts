import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import {
  inDays,
  ledgerMismatches,
  makeMedicine,
  makeSupplier,
  receive,
  setExpiry,
  setStatus,
} from '../../testing/factory';

let t: TestServer;
let admin: string;
let medicineId: string;
let supplierId: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  medicineId = (await makeMedicine(t, { name: 'Ciprofloxacin 500' })).id;
  supplierId = (await makeSupplier(t)).id;
});
afterAll(() => t.close());

type Page = { items: Array<Record<string, unknown>>; total: number };

describe('POST /purchases', () => {
  it('receives a batch into the caller branch with a purchase movement, change rows and an audit row', async () => {
    const changes = await t.count('change_log');
    const res = await t.post(
      '/api/v1/purchases',
      {
        medicine_id: medicineId,
        supplier_id: supplierId,
        batch_number: 'CIP-1',
        expiry_date: inDays(200),
        qty_received: 50,
        unit_cost: 0.35,
      },
      admin,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      batch_number: 'CIP-1',
      qty_received: 50,
      qty_on_hand: 50,
      unit_cost: '0.35',
      regulator_status: 'active',
      branch_id: await t.mainBranchId(),
      medicine_name: 'Ciprofloxacin 500',
      is_expired: false,
    });
    const mv = await t.query('SELECT type, quantity FROM stock_movements WHERE batch_id = ?', res.body.id);
    expect(mv).toEqual([{ type: 'purchase', quantity: 50 }]);
    expect(await t.count('change_log')).toBe(changes + 2); // the batch and its movement
    const entities = await t.query<{ entity: string }>(
      'SELECT entity FROM change_log ORDER BY revision DESC LIMIT 2',
    );
    expect(entities.map((e) => e.entity).sort()).toEqual(['batch', 'stock_movement']);
    // the same batch number again adds to it when expiry matches, blending the cost
    const again = await t.post(
      '/api/v1/purchases',
      {
        medicine_id: medicineId,
        supplier_id: supplierId,
        batch_number: 'CIP-1',
        expiry_date: inDays(200),
        qty_received: 50,
        unit_cost: 0.45,
      },
      admin,
    );
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({
      id: res.body.id,
      qty_received: 100,
      qty_on_hand: 100,
      unit_cost: '0.40',
    });
    const clash = await t.post(
      '/api/v1/purchases',
      {
        medicine_id: medicineId,
        supplier_id: supplierId,
        batch_number: 'CIP-1',
        expiry_date: inDays(300),
        qty_received: 1,
        unit_cost: 1,
      },
      admin,
    );
    expect(clash.status).toBe(409);
    expect(clash.body.code).toBe('BATCH_EXPIRY_MISMATCH');
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('answers 400/404/403 for bad input, unknown references and another branch, writing nothing', async () => {
    const inactive = await makeMedicine(t);
    await t.delete(`/api/v1/medicines/${inactive.id}`, admin);
    const other = await t.createBranch('PUR2');
    const manager = await t.userWithRole('branch_manager');
    const base = {
      medicine_id: medicineId,
      supplier_id: supplierId,
      batch_number: 'X1',
      expiry_date: inDays(30),
      qty_received: 5,
      unit_cost: 1,
    };
    const unknown = '0192f2c4-0000-7000-8000-000000000000';
    const cases: Array<[Record<string, unknown>, number, string?]> = [
      [{}, 400],
      [{ ...base, qty_received: 0 }, 400],
      [{ ...base, qty_received: -5 }, 400],
      [{ ...base, qty_received: 2.5 }, 400],
      [{ ...base, qty_received: '5' }, 400],
      [{ ...base, unit_cost: 1.234 }, 400],
      [{ ...base, unit_cost: -1 }, 400],
      [{ ...base, expiry_date: '2020-01-01' }, 400],
      [{ ...base, expiry_date: '2030-02-30' }, 400],
      [{ ...base, expiry_date: '31/12/2030' }, 400],
      [{ ...base, batch_number: '' }, 400],
      [{ ...base, batch_number: 'x'.repeat(65) }, 400],
      [{ ...base, medicine_id: inactive.id }, 400],
      [{ ...base, medicine_id: unknown }, 404],
      [{ ...base, supplier_id: unknown }, 404],
      [{ ...base, branch_id: unknown }, 404],
      [{ ...base, branch_id: other }, 403, manager.token],
    ];
    const before = [await t.count('batches'), await t.count('stock_movements'), await t.count('audit_log')];
    for (const [body, status, token] of cases) {
      const res = await t.post('/api/v1/purchases', body, token ?? admin);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(res.body.detail).toBeTruthy();
    }
    expect([await t.count('batches'), await t.count('stock_movements'), await t.count('audit_log')]).toEqual(
      before,
    );
    // admin may receive into another branch
    expect((await receive(t, medicineId, supplierId, { branch_id: other })).branch_id).toBe(other);
  });

  it('lets pharmacists receive but not cashiers or auditors', async () => {
    const ph = await t.userWithRole('pharmacist');
    await receive(t, medicineId, supplierId, {}, ph.token);
    for (const role of ['cashier', 'auditor'] as const) {
      const u = await t.userWithRole(role);
      const res = await t.post('/api/v1/purchases', { medicine_id: medicineId }, u.token);
      expect(res.status).toBe(403);
    }
  });
});

describe('reads and write-off', () => {
  it('lists, reads, scopes by branch (403 on another branch record) and filters the ledger', async () => {
    const other = await t.createBranch('PUR3');
    const foreign = await receive(t, medicineId, supplierId, { branch_id: other });
    const cashier = await t.userWithRole('cashier');
    const mine = await t.get<Page>('/api/v1/purchases?page_size=200', cashier.token);
    expect(mine.body.items.every((b) => b.branch_id === cashier.branchId)).toBe(true);
    const asked = await t.get<Page>(`/api/v1/purchases?branch_id=${other}`, cashier.token);
    expect(asked.body.items.some((b) => b.id === foreign.id)).toBe(false);
    expect((await t.get(`/api/v1/purchases/${foreign.id}`, cashier.token)).status).toBe(403);
    expect((await t.get(`/api/v1/purchases/${foreign.id}`, admin)).status).toBe(200);
    expect((await t.get('/api/v1/purchases/0192f2c4-0000-7000-8000-000000000000', admin)).status).toBe(404);
    const all = await t.get<Page>(
      `/api/v1/purchases/movements/all?type=purchase&medicine_id=${medicineId}&from=${inDays(-1)}&to=${inDays(0)}`,
      admin,
    );
    expect(all.body.total).toBeGreaterThan(2);
    const scoped = await t.get<Page>('/api/v1/purchases/movements/all', cashier.token);
    expect(scoped.body.items.every((m) => m.branch_id === cashier.branchId)).toBe(true);
    expect((await t.get('/api/v1/purchases/movements/all?type=theft', admin)).status).toBe(400);
  });

  it('lists expiring batches in a window, excluding recalled and quarantined', async () => {
    const m = await makeMedicine(t, { name: 'Expiring Med' });
    const soon = await receive(t, m.id, supplierId, { expiry_date: inDays(10) });
    const later = await receive(t, m.id, supplierId, { expiry_date: inDays(100) });
    const recalled = await receive(t, m.id, supplierId, { expiry_date: inDays(5) });
    await setStatus(t, recalled.id, 'recalled');
    const ids = async (q: string) =>
      (await t.get<Page>(`/api/v1/purchases/expiring?${q}&page_size=200`, admin)).body.items.map((b) => b.id);
    expect(await ids('days=90')).toContain(soon.id);
    expect(await ids('days=90')).not.toContain(later.id);
    expect(await ids('days=90')).not.toContain(recalled.id);
    expect(await ids('days=120')).toContain(later.id);
    expect((await t.get('/api/v1/purchases/expiring?days=0', admin)).status).toBe(400);
    expect((await t.get('/api/v1/purchases/expiring?days=abc', admin)).status).toBe(400);
  });

  it('writes off with a reason, refuses more than on hand (409) and another branch (403)', async () => {
    const b = await receive(t, medicineId, supplierId, { qty_received: 8 });
    const res = await t.put(
      `/api/v1/purchases/${b.id}/write-off`,
      { quantity: 3, reason: 'water damage' },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body.qty_on_hand).toBe(5);
    let before = await t.count('stock_movements');
    const over = await t.put(`/api/v1/purchases/${b.id}/write-off`, { quantity: 6, reason: 'x' }, admin);
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('INSUFFICIENT_STOCK');
    expect(over.body.detail).toMatch(/wanted 6, available 5/);
    for (const body of [
      {},
      { quantity: 1 },
      { quantity: 0, reason: 'x' },
      { quantity: 1, reason: '' },
      { quantity: -1, reason: 'x' },
    ]) {
      expect(
        (await t.put(`/api/v1/purchases/${b.id}/write-off`, body, admin)).status,
        JSON.stringify(body),
      ).toBe(400);
    }
    const other = await t.createBranch('PUR4');
    const foreign = await receive(t, medicineId, supplierId, { branch_id: other });
    const manager = await t.userWithRole('branch_manager');
    before += 1; // the foreign receipt
    expect(
      (await t.put(`/api/v1/purchases/${foreign.id}/write-off`, { quantity: 1, reason: 'x' }, manager.token))
        .status,
    ).toBe(403);
    expect(await t.count('stock_movements')).toBe(before);
    const [audit] = await t.query<{ n: number }>(
      "SELECT count(*) AS n FROM audit_log WHERE action = 'batch.write_off' AND entity_id = ?",
      b.id,
    );
    expect(audit!.n).toBe(1);
    await expect(t.exec('DELETE FROM stock_movements')).rejects.toThrow(/append-only/);
    await expect(t.exec('UPDATE stock_movements SET quantity = 1')).rejects.toThrow(/append-only/);
    await setExpiry(t, b.id, inDays(-3));
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});
