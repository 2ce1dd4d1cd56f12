import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { makeMedicineId } from '../../testing/factory';

type Body = Record<string, unknown>;
let t: TestServer;
let admin: string;
let cashier: { id: string; token: string };
let manager: { id: string; token: string };

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  cashier = await t.userWithRole('cashier');
  manager = await t.userWithRole('branch_manager');
});
afterAll(() => t.close());

describe('parked carts', () => {
  it('parks, lists, recalls once, voids with a reason, scoped by branch', async () => {
    const med = await makeMedicineId(t, { price: 1 });
    const p = await t.post<Body>(
      '/api/v1/parked',
      { label: 'Mrs K', items: [{ medicine_id: med, quantity: 2 }] },
      cashier.token,
    );
    expect(p.status).toBe(201);
    expect((await t.get<{ total: number }>('/api/v1/parked', cashier.token)).body.total).toBe(1);
    const other = await t.userWithRole('cashier', await t.createBranch('PRK'));
    expect((await t.get<{ total: number }>('/api/v1/parked', other.token)).body.total).toBe(0);
    expect((await t.post(`/api/v1/parked/${p.body.id}/recall`, undefined, other.token)).status).toBe(403);
    const rec = await t.post<Body>(`/api/v1/parked/${p.body.id}/recall`, undefined, manager.token);
    expect(rec.body).toMatchObject({ status: 'recalled', items: [{ medicine_id: med, quantity: 2 }] });
    const twice = await t.post<Body>(`/api/v1/parked/${p.body.id}/recall`, undefined, cashier.token);
    expect(twice.body.code).toBe('ALREADY_RECALLED');
    const p2 = await t.post<Body>(
      '/api/v1/parked',
      { label: 'Walk-in', items: [{ medicine_id: med, quantity: 1 }] },
      cashier.token,
    );
    const v = await t.post<Body>(
      `/api/v1/parked/${p2.body.id}/void`,
      { reason: 'customer left' },
      cashier.token,
    );
    expect(v.body).toMatchObject({ status: 'voided', void_reason: 'customer left' });
    expect((await t.get<{ total: number }>('/api/v1/parked?status=all', cashier.token)).body.total).toBe(2);
    expect(admin).toBeTruthy();
  });
});
