import { STOCK_MANAGERS } from '@pharmacy/contracts/roles';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
});
afterAll(() => t.close());

type Page = { items: Array<Record<string, unknown>>; total: number; page_size: number };

describe('suppliers', () => {
  it('creates with the spec defaults and contact fields', async () => {
    const res = await t.post(
      '/api/v1/suppliers',
      { name: 'Medsource Ltd', tax_number: 'TIN-100', phone: '+255 1', email: 'Orders@Medsource.example' },
      admin,
    );
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Medsource Ltd',
      supplier_type: 'distributor',
      lead_time_days: 7,
      reliability_score: 100,
      is_active: true,
      email: 'orders@medsource.example',
    });
    const dup = await t.post('/api/v1/suppliers', { name: 'Other', tax_number: 'TIN-100' }, admin);
    expect(dup.status).toBe(409);
  });

  it('refuses invalid bodies with 400 and writes nothing', async () => {
    const before = await t.count('suppliers');
    for (const body of [
      {},
      { name: '' },
      { name: 'X', lead_time_days: -1 },
      { name: 'X', lead_time_days: 1.5 },
      { name: 'X', reliability_score: 101 },
      { name: 'X', email: 'nope' },
      { name: 'X', is_active: false },
      { name: 'X', unknown: 1 },
      { name: ['X'] },
    ]) {
      const res = await t.post('/api/v1/suppliers', body, admin);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect(await t.count('suppliers')).toBe(before);
  });

  it('lists 20 per page sorted by name, searches name or tax number, filters is_active', async () => {
    for (let i = 0; i < 22; i++)
      await t.post(
        '/api/v1/suppliers',
        { name: `Bulk ${String(i).padStart(2, '0')}`, tax_number: `BULK-${i}` },
        admin,
      );
    const p1 = await t.get<Page>('/api/v1/suppliers?search=bulk', admin);
    expect(p1.body.page_size).toBe(20);
    expect(p1.body.items).toHaveLength(20);
    expect(p1.body.total).toBe(22);
    expect(p1.body.items[0]!.name).toBe('Bulk 00');
    const byTax = await t.get<Page>('/api/v1/suppliers?search=BULK-21', admin);
    expect(byTax.body.items.map((s) => s.name)).toEqual(['Bulk 21']);
    const id = p1.body.items[0]!.id as string;
    expect((await t.delete(`/api/v1/suppliers/${id}`, admin)).status).toBe(204);
    expect((await t.get<Page>('/api/v1/suppliers?search=bulk', admin)).body.total).toBe(21);
    expect((await t.get<Page>('/api/v1/suppliers?search=bulk&is_active=false', admin)).body.total).toBe(1);
    expect((await t.get<Page>('/api/v1/suppliers?search=bulk&is_active=all', admin)).body.total).toBe(22);
    expect((await t.get(`/api/v1/suppliers/${id}`, admin)).body.is_active).toBe(false);
    expect((await t.get('/api/v1/suppliers?is_active=maybe', admin)).status).toBe(400);
    const meta = await t.get<Page>(`/api/v1/suppliers?search=${encodeURIComponent("%'_")}`, admin);
    expect(meta.body.total).toBe(0);
  });

  it('sorts by name, lead time, reliability or creation in either order; refuses unknown sorts', async () => {
    const tag = `Sortable ${Date.now()}`;
    const make = async (name: string, lead: number, score: number) =>
      (
        await t.post<{ id: string }>(
          '/api/v1/suppliers',
          { name: `${tag} ${name}`, lead_time_days: lead, reliability_score: score },
          admin,
        )
      ).body.id;
    const b = await make('beta', 3, 90);
    const a = await make('Alpha', 10, 70);
    const c = await make('gamma', 3, 95);
    const ids = async (query: string) =>
      (
        await t.get<{ items: Array<{ id: string }> }>(
          `/api/v1/suppliers?search=${encodeURIComponent(tag)}&${query}`,
          admin,
        )
      ).body.items.map((s) => s.id);
    expect(await ids('')).toEqual([a, b, c]);
    expect(await ids('order=desc')).toEqual([c, b, a]);
    // ties by name
    expect(await ids('sort=lead_time_days')).toEqual([b, c, a]);
    expect(await ids('sort=lead_time_days&order=desc')).toEqual([a, b, c]);
    expect(await ids('sort=reliability_score&order=desc')).toEqual([c, b, a]);
    expect(await ids('sort=created_at')).toEqual([b, a, c]);
    for (const bad of ['sort=phone', 'order=sideways', 'sort=name;drop'])
      expect((await t.get(`/api/v1/suppliers?${bad}`, admin)).status, bad).toBe(400);
  });

  it('updates only allow-listed fields and reactivates', async () => {
    const s = (await t.post('/api/v1/suppliers', { name: 'Upd' }, admin)).body;
    const up = await t.put(`/api/v1/suppliers/${s.id}`, { lead_time_days: 3, contact_person: 'Asha' }, admin);
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ lead_time_days: 3, contact_person: 'Asha', name: 'Upd' });
    expect((await t.put(`/api/v1/suppliers/${s.id}`, { created_at: 'x' }, admin)).status).toBe(400);
    expect((await t.put(`/api/v1/suppliers/${s.id}`, { id: 'x' }, admin)).status).toBe(400);
    expect((await t.put(`/api/v1/suppliers/${s.id}`, {}, admin)).status).toBe(400);
    await t.delete(`/api/v1/suppliers/${s.id}`, admin);
    expect((await t.put(`/api/v1/suppliers/${s.id}`, { is_active: true }, admin)).body.is_active).toBe(true);
    expect((await t.delete('/api/v1/suppliers/0192f2c4-0000-7000-8000-000000000000', admin)).status).toBe(
      404,
    );
  });

  it('lets branch and inventory managers write, others read only', async () => {
    for (const role of STOCK_MANAGERS) {
      const u = await t.userWithRole(role);
      expect((await t.post('/api/v1/suppliers', { name: `By ${role}` }, u.token)).status).toBe(201);
    }
    for (const role of ['cashier', 'pharmacist', 'auditor'] as const) {
      const u = await t.userWithRole(role);
      expect((await t.post('/api/v1/suppliers', { name: `By ${role}` }, u.token)).status).toBe(403);
      expect((await t.get('/api/v1/suppliers', u.token)).status).toBe(200);
    }
  });
});
