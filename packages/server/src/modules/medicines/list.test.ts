import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  inDays,
  makeCategory,
  makeMedicine,
  makeSupplier,
  receive,
  setOnHand,
  setStatus,
} from '../../testing/factory';
import { startTestServer, type TestServer } from '../../testing/harness';

/** The back office's Medicines table read (issue 17): sorts, the one-statement page, its total and its reuse. */
let t: TestServer;
let admin: string;
let supplier: string;
type Item = Record<string, unknown> & { id: string; name: string; stock_quantity: number };
type Page = { items: Item[]; total: number; page: number; page_size: number };

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  supplier = (await makeSupplier(t)).id;
  const cat = await makeCategory(t, 'Vitamins');
  await makeMedicine(t, {
    name: 'Cc Cee',
    generic_name: 'Ascorbic acid',
    selling_price: 9.99,
    category: cat.slug,
  });
  await makeMedicine(t, { name: 'aa Alpha', generic_name: 'Zinc', selling_price: 0.05, max_public_price: 1 });
  const b = await makeMedicine(t, { name: 'Bb Beta', generic_name: 'Magnesium', selling_price: 120 });
  await receive(t, b.id, supplier, { qty_received: 30 });
});
afterAll(() => t.close());

const list = (query: string, token = admin) => t.get<Page>(`/api/v1/medicines?${query}`, token);
const names = (p: Page) => p.items.map((m) => m.name);

describe('GET /medicines sorted and paged for the back office', () => {
  it('sorts by name (case-insensitive), generic name, category, price and stock, both ways', async () => {
    expect(names((await list('')).body)).toEqual(['aa Alpha', 'Bb Beta', 'Cc Cee']);
    expect(names((await list('order=desc')).body)).toEqual(['Cc Cee', 'Bb Beta', 'aa Alpha']);
    expect(names((await list('sort=generic_name')).body)).toEqual(['Cc Cee', 'Bb Beta', 'aa Alpha']);
    expect(names((await list('sort=selling_price&order=desc')).body)).toEqual([
      'Bb Beta',
      'Cc Cee',
      'aa Alpha',
    ]);
    expect(names((await list('sort=stock_quantity&order=desc')).body)[0]).toBe('Bb Beta');
    expect(names((await list('sort=category')).body)).toEqual(['aa Alpha', 'Bb Beta', 'Cc Cee']);
    expect(names((await list('sort=name&category=vitamins')).body)).toEqual(['Cc Cee']);
    // a sort with a search or a stock filter goes through the general query and still sorts
    expect(names((await list('search=bb&sort=selling_price')).body)).toEqual(['Bb Beta']);
    expect(names((await list('out_of_stock=true&sort=name&order=desc')).body)).toEqual([
      'Cc Cee',
      'aa Alpha',
    ]);
    for (const bad of ['sort=price', 'sort=', 'order=up', 'sort=name;DROP', 'sort=%F0%9F%99%82']) {
      const res = await list(bad);
      expect(res.status, bad).toBe(400);
    }
  });

  it('answers each row exactly as GET /medicines/{id} does, money in the currency decimals', async () => {
    const page = (await list('is_active=all&page_size=200')).body;
    expect(page.items.length).toBe(page.total);
    for (const item of page.items) {
      const one = await t.get<Item & { batches: unknown; branch_id: string }>(
        `/api/v1/medicines/${item.id}`,
        admin,
      );
      const { batches: _b, branch_id: _br, ...medicine } = one.body;
      expect(item).toEqual(medicine);
    }
    const alpha = page.items.find((m) => m.name === 'aa Alpha');
    expect(alpha).toMatchObject({ selling_price: '0.05', max_public_price: '1.00', is_active: true });
  });

  it('keeps the total and the stock true after writes (counts and page reuse follow every change)', async () => {
    const before = (await list('page_size=1')).body;
    const m = await makeMedicine(t, { name: 'Dd Delta' });
    expect((await list('page_size=1')).body.total).toBe(before.total + 1);
    expect((await list('is_active=false')).body.total).toBe(0);
    const batch = await receive(t, m.id, supplier, { qty_received: 12, expiry_date: inDays(200) });
    const stockOf = async () =>
      (await list('page_size=50')).body.items.find((x) => x.id === m.id)?.stock_quantity;
    expect(await stockOf()).toBe(12);
    expect(await stockOf()).toBe(12); // the reused page
    await t.put(`/api/v1/purchases/${batch.id}/write-off`, { quantity: 5, reason: 'broken' }, admin);
    expect(await stockOf()).toBe(7);
    await setStatus(t, batch.id, 'quarantined');
    expect(await stockOf()).toBe(0);
    await t.put(`/api/v1/medicines/${m.id}`, { name: 'Dd Delta renamed' }, admin);
    expect(names((await list('page_size=50')).body)).toContain('Dd Delta renamed');
    expect((await t.delete(`/api/v1/medicines/${m.id}`, admin)).status).toBe(204);
    expect((await list('page_size=1')).body.total).toBe(before.total);
    expect((await list('is_active=false')).body.total).toBe(1);
    expect((await list('is_active=all&page_size=1')).body.total).toBe(before.total + 1);
  });

  it("gives a branch-bound caller their own branch's stock whatever they ask", async () => {
    const other = await t.createBranch('LIST2');
    const manager = await t.userWithRole('branch_manager', other);
    const main = await t.mainBranchId();
    const page = (await list(`branch_id=${main}`, manager.token)).body;
    expect(page.items.find((m) => m.name === 'Bb Beta')?.stock_quantity).toBe(0);
    const mine = (await list(`branch_id=${other}`)).body;
    expect(mine.items.find((m) => m.name === 'Bb Beta')?.stock_quantity).toBe(0);
    expect(
      (await list(`branch_id=${main}`)).body.items.find((m) => m.name === 'Bb Beta')?.stock_quantity,
    ).toBe(30);
  });
});

describe('GET /medicines/{id}/movements running balance', () => {
  it('gives balance_after per movement for the branch and for one batch, across pages', async () => {
    const m = await makeMedicine(t, { name: 'Ledger Med' });
    const b1 = await receive(t, m.id, supplier, { qty_received: 10 });
    const b2 = await receive(t, m.id, supplier, { qty_received: 4 });
    await t.put(`/api/v1/purchases/${b1.id}/write-off`, { quantity: 3, reason: 'damaged' }, admin);
    type Mv = { items: Array<{ quantity: number; balance_after: number | null; batch_id: string }> };
    const all = (await t.get<Mv>(`/api/v1/medicines/${m.id}/movements`, admin)).body;
    expect(all.items.map((x) => [x.quantity, x.balance_after])).toEqual([
      [-3, 11],
      [4, 14],
      [10, 10],
    ]);
    const page2 = (await t.get<Mv>(`/api/v1/medicines/${m.id}/movements?page=2&page_size=1`, admin)).body;
    expect(page2.items.map((x) => x.balance_after)).toEqual([14]);
    const batch = (await t.get<Mv>(`/api/v1/medicines/${m.id}/movements?batch_id=${b1.id}`, admin)).body;
    expect(batch.items.map((x) => x.balance_after)).toEqual([7, 10]);
    const typed = (await t.get<Mv>(`/api/v1/medicines/${m.id}/movements?type=purchase`, admin)).body;
    expect(typed.items.map((x) => x.balance_after)).toEqual([null, null]);
    expect(b2.qty_on_hand).toBe(4);
  });
});

describe('GET /medicines sorted by stock (in segments: stocked, none, short)', () => {
  it('pages through exactly the order of a full sort by stock, name and id, both ways, at any page size', async () => {
    const stock = [5, 0, 12, 5, 0, 1, 0, 30, 5, 0];
    for (const [i, qty] of stock.entries()) {
      const m = await makeMedicine(t, { name: `Stk ${String(i).padStart(2, '0')}`, selling_price: 1 });
      if (qty > 0) await receive(t, m.id, supplier, { qty_received: qty });
    }
    // one medicine below zero (a sale under negative_stock_policy 'allow'), one with only an expired batch,
    // one with only a quarantined batch, one inactive with stock
    const short = await makeMedicine(t, { name: 'Stk short', selling_price: 1 });
    const sb = await receive(t, short.id, supplier, { qty_received: 2 });
    await setOnHand(t, sb.id, -3);
    const old = await makeMedicine(t, { name: 'Stk expired', selling_price: 1 });
    const ob = await receive(t, old.id, supplier, { qty_received: 4 });
    await t.exec('UPDATE batches SET expiry_date = ? WHERE id = ?', inDays(-3), ob.id);
    const held = await makeMedicine(t, { name: 'Stk held', selling_price: 1 });
    await setStatus(t, (await receive(t, held.id, supplier, { qty_received: 6 })).id, 'quarantined');
    const gone = await makeMedicine(t, { name: 'Stk gone', selling_price: 1 });
    await receive(t, gone.id, supplier, { qty_received: 7 });
    expect((await t.delete(`/api/v1/medicines/${gone.id}`, admin)).status).toBe(204);

    for (const scope of ['', '&is_active=all']) {
      const all = (await list(`page_size=200&sort=name${scope}`)).body.items;
      expect(all.find((m) => m.name === 'Stk short')?.stock_quantity).toBe(-3);
      for (const order of ['asc', 'desc'] as const) {
        const sign = order === 'asc' ? 1 : -1;
        const expected = [...all]
          .sort(
            (a, b) =>
              sign *
              (a.stock_quantity - b.stock_quantity ||
                a.name.toLowerCase().localeCompare(b.name.toLowerCase()) ||
                (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)),
          )
          .map((m) => m.name);
        for (const size of [1, 3, 4, 50]) {
          const got: string[] = [];
          for (let page = 1; got.length < all.length; page++) {
            const p = (
              await list(`sort=stock_quantity&order=${order}&page=${page}&page_size=${size}${scope}`)
            ).body;
            expect(p.total).toBe(all.length);
            if (p.items.length === 0) break;
            got.push(...names(p));
          }
          expect(got, `${order} by ${size}${scope}`).toEqual(expected);
        }
      }
    }
    // and with a filter: the category's medicines only
    expect(names((await list('sort=stock_quantity&category=vitamins')).body)).toEqual(['Cc Cee']);
  });
});
