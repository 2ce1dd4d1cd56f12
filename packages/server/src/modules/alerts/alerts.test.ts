import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { inDays, makeMedicine, makeSupplier, receive, setExpiry, setStatus } from '../../testing/factory';

let t: TestServer;
let admin: string;
beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
});
afterAll(() => t.close());

type Page = { items: Array<Record<string, unknown>>; total: number };

describe('alerts', () => {
  it('lists low stock per branch, expiring within a window and expired batches', async () => {
    const sup = await makeSupplier(t);
    const low = await makeMedicine(t, { name: 'Low Med', low_stock_threshold: 10 });
    const fine = await makeMedicine(t, { name: 'Fine Med', low_stock_threshold: 10 });
    await receive(t, low.id, sup.id, { qty_received: 10 });
    await receive(t, fine.id, sup.id, { qty_received: 11, expiry_date: inDays(400) });
    const soon = await receive(t, fine.id, sup.id, { qty_received: 3, expiry_date: inDays(15) });
    const recalled = await receive(t, fine.id, sup.id, { qty_received: 3, expiry_date: inDays(16) });
    await setStatus(t, recalled.id, 'recalled');
    const gone = await receive(t, fine.id, sup.id, { qty_received: 2, expiry_date: inDays(10) });
    await setExpiry(t, gone.id, inDays(-5));
    const main = await t.mainBranchId();
    const other = await t.createBranch('ALR2');

    const lowMain = await t.get<Page>(`/api/v1/alerts/low-stock?branch_id=${main}`, admin);
    expect(lowMain.body.items.map((i) => i.name)).toEqual(['Low Med']);
    expect(lowMain.body.items[0]).toMatchObject({
      stock_quantity: 10,
      low_stock_threshold: 10,
      branch_id: main,
    });
    const lowAll = await t.get<Page>('/api/v1/alerts/low-stock', admin);
    expect(lowAll.body.total).toBe(3); // Low Med in main, both in ALR2
    const cashier = await t.userWithRole('cashier', other);
    const lowOther = await t.get<Page>(`/api/v1/alerts/low-stock?branch_id=${main}`, cashier.token);
    expect(lowOther.body.items.every((i) => i.branch_id === other)).toBe(true);

    const exp = await t.get<Page>('/api/v1/alerts/expiry?days=30', admin);
    expect(exp.body.items.map((i) => i.batch_id)).toEqual([soon.id]);
    expect(exp.body.items[0]!.days_to_expiry).toBe(15);
    expect((await t.get<Page>('/api/v1/alerts/expiry', admin)).body.total).toBe(1);
    expect((await t.get<Page>('/api/v1/alerts/expiry?days=500', admin)).body.total).toBe(3);
    const expired = await t.get<Page>('/api/v1/alerts/expired', admin);
    expect(expired.body.items.map((i) => [i.batch_id, i.days_to_expiry])).toEqual([[gone.id, -5]]);
    expect((await t.get<Page>('/api/v1/alerts/expired', cashier.token)).body.total).toBe(0);
    for (const q of ['expiry?days=-1', 'expiry?days=1.5', 'low-stock?page=0', 'expired?branch_id=nope']) {
      expect((await t.get(`/api/v1/alerts/${q}`, admin)).status, q).toBe(400);
    }
  });

  it('pages each list: page after page of one row gives the whole list in its order, with the same total', async () => {
    const sup = await makeSupplier(t);
    const more = await makeMedicine(t, { name: 'Paged Med', low_stock_threshold: 50 });
    // Two batches of one medicine expiring the same day: the page order breaks the tie by batch.
    await receive(t, more.id, sup.id, { qty_received: 2, expiry_date: inDays(20) });
    await receive(t, more.id, sup.id, { qty_received: 2, expiry_date: inDays(20) });
    const gone = await receive(t, more.id, sup.id, { qty_received: 2, expiry_date: inDays(20) });
    await setExpiry(t, gone.id, inDays(-3));
    for (const list of ['low-stock', 'expiry?days=500', 'expired']) {
      const join = list.includes('?') ? '&' : '?';
      const whole = await t.get<Page>(`/api/v1/alerts/${list}${join}page_size=200`, admin);
      expect(whole.body.total, list).toBeGreaterThan(1);
      expect(whole.body.items.length, list).toBe(whole.body.total);
      const paged: Array<Record<string, unknown>> = [];
      for (let page = 1; page <= whole.body.total + 1; page++) {
        const one = await t.get<Page & { page: number; page_size: number }>(
          `/api/v1/alerts/${list}${join}page_size=1&page=${page}`,
          admin,
        );
        expect(Object.keys(one.body), list).toEqual(['items', 'total', 'page', 'page_size']);
        expect([one.body.total, one.body.page, one.body.page_size], list).toEqual([
          whole.body.total,
          page,
          1,
        ]);
        paged.push(...one.body.items);
      }
      expect(paged, list).toEqual(whole.body.items);
    }
  });
});
