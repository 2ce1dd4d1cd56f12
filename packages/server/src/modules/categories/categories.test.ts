import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { makeMedicine } from '../../testing/factory';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
});
afterAll(() => t.close());

describe('categories', () => {
  it('creates with a derived slug, lists with medicine_count, and refuses duplicates with 409', async () => {
    const res = await t.post('/api/v1/categories', { name: 'Cough & Cold' }, admin);
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ slug: 'cough-cold', name: 'Cough & Cold', medicine_count: 0 });
    const before = await t.count('categories');
    expect((await t.post('/api/v1/categories', { name: 'cough & cold', slug: 'other' }, admin)).status).toBe(
      409,
    );
    const dupSlug = await t.post('/api/v1/categories', { name: 'Something else', slug: 'Cough Cold' }, admin);
    expect(dupSlug.status).toBe(409);
    expect(dupSlug.body.code).toBe('DUPLICATE_SLUG');
    expect(await t.count('categories')).toBe(before);
    await makeMedicine(t, { category: 'cough-cold' });
    const list = await t.get<{ items: Array<{ slug: string; medicine_count: number }> }>(
      '/api/v1/categories',
      admin,
    );
    expect(list.body.items.find((c) => c.slug === 'cough-cold')?.medicine_count).toBe(1);
  });

  it('answers 400 for bodies without letters or digits, wrong types and unknown fields; writes nothing', async () => {
    const before = await t.count('categories');
    for (const body of [
      {},
      { name: '' },
      { name: '!!!' },
      { name: 'Ok', slug: '---' },
      { name: 5 },
      { name: 'x'.repeat(101) },
      { name: 'A', extra: 1 },
    ]) {
      const res = await t.post('/api/v1/categories', body, admin);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(String(res.body.detail).length).toBeGreaterThan(5);
    }
    expect(await t.count('categories')).toBe(before);
  });

  it('keeps names with SQL meta-characters and unicode verbatim', async () => {
    const res = await t.post('/api/v1/categories', { name: "Vitamins'; DROP TABLE medicines;--" }, admin);
    expect(res.status).toBe(201);
    expect(res.body.slug).toBe('vitamins-drop-table-medicines');
    const uni = await t.post('/api/v1/categories', { name: 'Ünïcödé Ω', slug: 'unicode' }, admin);
    expect(uni.status).toBe(201);
    expect(uni.body.name).toBe('Ünïcödé Ω');
  });

  it('renames: a new slug reaches every medicine in the same transaction and replicates them', async () => {
    await t.post('/api/v1/categories', { name: 'Analgesics' }, admin);
    const a = await makeMedicine(t, { category: 'analgesics' });
    const b = await makeMedicine(t, { category: 'analgesics' });
    const changesBefore = await t.count('change_log');
    const res = await t.put(
      '/api/v1/categories/analgesics',
      { slug: 'pain-relief', name: 'Pain relief' },
      admin,
    );
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ slug: 'pain-relief', name: 'Pain relief', medicine_count: 2 });
    for (const m of [a, b]) {
      const got = await t.get(`/api/v1/medicines/${m.id}`, admin);
      expect(got.body.category).toBe('pain-relief');
    }
    expect(await t.count('change_log')).toBeGreaterThanOrEqual(changesBefore + 3);
    expect((await t.put('/api/v1/categories/analgesics', { name: 'X' }, admin)).status).toBe(404);
    expect((await t.put('/api/v1/categories/pain-relief', {}, admin)).status).toBe(400);
    expect((await t.put('/api/v1/categories/pain-relief', { slug: '***' }, admin)).status).toBe(400);
    expect((await t.put('/api/v1/categories/pain-relief', { name: 'Cough & Cold' }, admin)).status).toBe(409);
  });

  it('refuses to delete a category in use (409) and deletes an unused one (204)', async () => {
    await t.post('/api/v1/categories', { name: 'Used' }, admin);
    const m = await makeMedicine(t, { category: 'used' });
    const res = await t.delete('/api/v1/categories/used', admin);
    expect(res.status).toBe(409);
    expect(res.body.code).toBe('CATEGORY_IN_USE');
    // a deactivated medicine still holds the category
    expect((await t.delete(`/api/v1/medicines/${m.id}`, admin)).status).toBe(204);
    expect((await t.delete('/api/v1/categories/used', admin)).status).toBe(409);
    await t.post('/api/v1/categories', { name: 'Unused' }, admin);
    expect((await t.delete('/api/v1/categories/unused', admin)).status).toBe(204);
    expect((await t.delete('/api/v1/categories/unused', admin)).status).toBe(404);
  });

  it('lets inventory managers write and refuses branch managers (403)', async () => {
    const im = await t.userWithRole('inventory_manager');
    const bm = await t.userWithRole('branch_manager');
    expect((await t.post('/api/v1/categories', { name: 'By IM' }, im.token)).status).toBe(201);
    expect((await t.post('/api/v1/categories', { name: 'By BM' }, bm.token)).status).toBe(403);
    expect((await t.get('/api/v1/categories', bm.token)).status).toBe(200);
  });
});
