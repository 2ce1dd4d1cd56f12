import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  inDays,
  makeMedicine,
  makeRx,
  makeSupplier,
  openSessionFor,
  receive,
  setExpiry,
  setStatus,
} from '../../testing/factory';
import { startTestServer, type TestServer } from '../../testing/harness';
import { branchToday } from '../stock/ledger';
import { catalogueConditions, settleStockDay, stockSortedPage } from './stock-sort';
import { medicineStore } from './store';

/**
 * Issue 30.6: the Medicines table sorted by stock reads medicine_stock (migration 0028, trigger-kept) in its
 * index order instead of sorting every medicine. Held here: the table stays equal to what the batches say
 * through every kind of stock write, and every page of every variant of the sort is exactly the slice of a
 * full sort (stock, then name case-insensitively, then id) of the stock the list shows per row, on SQLite and
 * on PostgreSQL.
 */
let t: TestServer;
let admin: string;
let supplier: string;
let main: string;

type Item = { id: string; name: string; stock_quantity: number; is_active: boolean };
type Page = { items: Item[]; total: number };

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  supplier = (await makeSupplier(t)).id;
  main = await t.mainBranchId();
}, 60_000);
afterAll(() => t?.close());

/**
 * medicine_stock as the triggers keep it, and as the batches (less those expired before the day it was settled
 * to), reservations and medicines say it must be.
 */
async function keptAndExpected() {
  const kept = await t.query<Record<string, unknown>>(
    'SELECT branch_id, medicine_id, qty, name, is_active FROM medicine_stock ORDER BY branch_id, medicine_id',
  );
  const expected = await t.query<Record<string, unknown>>(
    `SELECT b.branch_id, b.medicine_id, sum(b.qty_on_hand - (SELECT coalesce(sum(r.quantity), 0)
        FROM stock_reservations r WHERE r.batch_id = b.id AND r.status = 'held')) AS qty, m.name, m.is_active
      FROM batches b JOIN medicines m ON m.id = b.medicine_id WHERE b.regulator_status = 'active'
        AND b.expiry_date >= coalesce((SELECT d.day FROM medicine_stock_days d WHERE d.branch_id = b.branch_id), '')
      GROUP BY b.branch_id, b.medicine_id, m.name, m.is_active
      HAVING sum(b.qty_on_hand - (SELECT coalesce(sum(r.quantity), 0)
        FROM stock_reservations r WHERE r.batch_id = b.id AND r.status = 'held')) <> 0
      ORDER BY b.branch_id, b.medicine_id`,
  );
  type Kept = { branch_id: string; medicine_id: string; qty: number; name: string; is_active: number };
  const norm = (rows: Record<string, unknown>[]): Kept[] =>
    rows.map((r) => ({
      branch_id: String(r.branch_id),
      medicine_id: String(r.medicine_id),
      qty: Number(r.qty),
      name: String(r.name),
      is_active: Number(r.is_active),
    }));
  return { kept: norm(kept), expected: norm(expected) };
}

describe('medicine_stock (migration 0028)', () => {
  it('equals the active batches less held units after receipts, a sale, a will-call hold and its return, write-offs, quarantine, renames and raw updates', async () => {
    const cashier = (await t.userWithRole('cashier')).token;
    const pharmacist = (await t.userWithRole('pharmacist')).token;
    const north = await t.createBranch('KEPT2');
    const a = await makeMedicine(t, { name: 'Kept Alpha', requires_prescription: true });
    const b = await makeMedicine(t, { name: 'Kept Beta' });
    const a1 = await receive(t, a.id, supplier, { qty_received: 20 });
    await receive(t, a.id, supplier, { qty_received: 5, expiry_date: inDays(30) });
    const b1 = await receive(t, b.id, supplier, { qty_received: 7 });
    await receive(t, b.id, supplier, { qty_received: 3, branch_id: north });
    let state = await keptAndExpected();
    expect(state.kept).toEqual(state.expected);

    // A will-call hold takes units out of the sellable stock; returning the entry puts them back.
    const rx = await makeRx(t, pharmacist, [{ medicine_id: a.id, quantity: 4 }]);
    expect((await t.post(`/api/v1/prescriptions/${rx.id}/dispense`, {}, pharmacist)).status).toBe(201);
    const wc = await t.post<{ id: string }>(
      '/api/v1/dispensing/will-call',
      { prescription_id: rx.id, bin_location: 'K-1' },
      pharmacist,
    );
    expect(wc.status).toBe(201);
    state = await keptAndExpected();
    expect(state.kept).toEqual(state.expected);
    expect(state.kept.find((r) => r.medicine_id === a.id)?.qty).toBe(21);
    const back = await t.post(
      `/api/v1/dispensing/will-call/${wc.body.id}/return`,
      { reason: 'not collected' },
      pharmacist,
    );
    expect(back.status, JSON.stringify(back.body)).toBeLessThan(300);
    expect((await keptAndExpected()).kept.find((r) => r.medicine_id === a.id)?.qty).toBe(25);

    // A sale, a write-off, quarantine and release, a rename and a deactivation, raw updates and a sold-out batch.
    await openSessionFor(t, cashier);
    const sale = await t.post(
      '/api/v1/sales',
      { items: [{ medicine_id: b.id, quantity: 2 }], payment_method: 'cash', print_receipt: false },
      cashier,
    );
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    await t.put(`/api/v1/purchases/${a1.id}/write-off`, { quantity: 6, reason: 'broken' }, admin);
    await setStatus(t, b1.id, 'quarantined');
    state = await keptAndExpected();
    expect(state.kept).toEqual(state.expected);
    await setStatus(t, b1.id, 'active');
    await t.put(`/api/v1/medicines/${b.id}`, { name: 'Kept Beta renamed' }, admin);
    expect((await t.delete(`/api/v1/medicines/${a.id}`, admin)).status).toBe(204);
    await t.exec('UPDATE batches SET qty_on_hand = -2 WHERE id = ?', a1.id);
    state = await keptAndExpected();
    expect(state.kept).toEqual(state.expected);
    expect(state.kept.find((r) => r.medicine_id === b.id)).toMatchObject({
      name: 'Kept Beta renamed',
      qty: 5,
    });
    expect(state.kept.find((r) => r.medicine_id === a.id)).toMatchObject({ is_active: 0, qty: 3 });
    // Down to nothing: the row goes (a medicine without a row holds none).
    await t.exec('UPDATE batches SET qty_on_hand = 0 WHERE medicine_id = ?', b.id);
    state = await keptAndExpected();
    expect(state.kept).toEqual(state.expected);
    expect(state.kept.some((r) => r.medicine_id === b.id)).toBe(false);
  });
});

describe('GET /medicines?sort=stock_quantity', () => {
  /** Every medicine of the main branch with the stock the list shows per row, by name. */
  const everything = async (scope: string) =>
    (await t.get<Page>(`/api/v1/medicines?page_size=200&sort=name${scope}`, admin)).body.items;

  const fullSort = (items: Item[], order: 'asc' | 'desc') => {
    const sign = order === 'asc' ? 1 : -1;
    const byText = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0);
    return [...items]
      .sort(
        (x, y) =>
          sign *
          (x.stock_quantity - y.stock_quantity ||
            byText(x.name.toLowerCase(), y.name.toLowerCase()) ||
            byText(x.id, y.id)),
      )
      .map((m) => `${m.name}:${m.stock_quantity}`);
  };

  beforeAll(async () => {
    // Ties in stock and in names that differ only in case, a shortage, and medicines whose expired batches
    // still hold units: only expired (corrected to zero), expired and fresh (corrected down), expired against a
    // shortage (no row, corrected below zero), expired and quarantined; inactive stock too.
    const stocks = [5, 0, 12, 5, 0, 1, 0, 30, 5, 0, 2, 2, 7, 0, 1];
    for (const [i, qty] of stocks.entries()) {
      const m = await makeMedicine(t, {
        name: `Srt ${String(i % 7).padStart(2, '0')} ${i % 2 ? 'x' : 'X'}${i}`,
      });
      if (qty > 0) await receive(t, m.id, supplier, { qty_received: qty });
    }
    for (const name of ['Tie Same', 'tie same', 'TIE SAME']) {
      const m = await makeMedicine(t, { name });
      await receive(t, m.id, supplier, { qty_received: 4 });
    }
    const short = await makeMedicine(t, { name: 'Srt short' });
    const sb = await receive(t, short.id, supplier, { qty_received: 2 });
    await t.exec('UPDATE batches SET qty_on_hand = -3 WHERE id = ?', sb.id);
    const expired = await makeMedicine(t, { name: 'Srt expired only' });
    await setExpiry(t, (await receive(t, expired.id, supplier, { qty_received: 4 })).id, inDays(-3));
    const mixed = await makeMedicine(t, { name: 'Srt expired and fresh' });
    await setExpiry(t, (await receive(t, mixed.id, supplier, { qty_received: 6 })).id, inDays(-1));
    await receive(t, mixed.id, supplier, { qty_received: 5 });
    const against = await makeMedicine(t, { name: 'Srt expired against short' });
    await setExpiry(t, (await receive(t, against.id, supplier, { qty_received: 4 })).id, inDays(-2));
    const owed = await receive(t, against.id, supplier, { qty_received: 1 });
    await t.exec('UPDATE batches SET qty_on_hand = -4 WHERE id = ?', owed.id);
    const held = await makeMedicine(t, { name: 'Srt quarantined' });
    await setStatus(t, (await receive(t, held.id, supplier, { qty_received: 6 })).id, 'quarantined');
    const gone = await makeMedicine(t, { name: 'Srt gone' });
    await receive(t, gone.id, supplier, { qty_received: 9 });
    expect((await t.delete(`/api/v1/medicines/${gone.id}`, admin)).status).toBe(204);
    const rows = await everything('&is_active=all');
    expect(rows.find((m) => m.name === 'Srt expired against short')?.stock_quantity).toBe(-4);
    expect(rows.find((m) => m.name === 'Srt expired and fresh')?.stock_quantity).toBe(5);
    expect(rows.find((m) => m.name === 'Srt expired only')?.stock_quantity).toBe(0);
  }, 120_000);

  /** Each medicine's sellable stock summed from its batches: active, unexpired, less held units. */
  const fromBatches = async () =>
    new Map(
      (
        await t.query<{ id: string; n: number }>(
          `SELECT b.medicine_id AS id, sum(b.qty_on_hand - (SELECT coalesce(sum(r.quantity), 0)
              FROM stock_reservations r WHERE r.batch_id = b.id AND r.status = 'held')) AS n
            FROM batches b WHERE b.branch_id = ? AND b.regulator_status = 'active' AND b.expiry_date >= ?
            GROUP BY b.medicine_id`,
          main,
          await branchToday(t.context.db, main),
        )
      ).map((r) => [r.id, Number(r.n)]),
    );

  it("gives each row of a page by name its batches' stock (the page read as one range of names, equal names across its edges), both ways", async () => {
    const stock = await fromBatches();
    for (const scope of ['', '&is_active=all'])
      for (const order of ['asc', 'desc'])
        for (const size of [1, 2, 5]) {
          for (let page = 1; ; page++) {
            const p = (
              await t.get<Page>(
                `/api/v1/medicines?sort=name&order=${order}&page=${page}&page_size=${size}${scope}`,
                admin,
              )
            ).body;
            if (p.items.length === 0) break;
            expect(
              p.items.map((m) => `${m.name}:${m.stock_quantity}`),
              `${order} page ${page} of ${size}${scope}`,
            ).toEqual(p.items.map((m) => `${m.name}:${stock.get(m.id) ?? 0}`));
          }
        }
  }, 120_000);

  it('pages through exactly a full sort by stock, name (case-insensitive) and id: ties, every page size, both ways, active or all', async () => {
    // The list's stock per row (medicine_stock) is the batches' own.
    const stock = await fromBatches();
    const listed = await everything('&is_active=all');
    expect(listed.map((m) => m.stock_quantity)).toEqual(listed.map((m) => stock.get(m.id) ?? 0));
    for (const scope of ['', '&is_active=all']) {
      const all = await everything(scope);
      for (const order of ['asc', 'desc'] as const) {
        const expected = fullSort(all, order);
        for (const size of [1, 2, 3, 7, 50]) {
          const got: string[] = [];
          for (let page = 1; page <= Math.ceil(all.length / size) + 1; page++) {
            const p = (
              await t.get<Page>(
                `/api/v1/medicines?sort=stock_quantity&order=${order}&page=${page}&page_size=${size}${scope}`,
                admin,
              )
            ).body;
            expect(p.total).toBe(all.length);
            got.push(...p.items.map((m) => `${m.name}:${m.stock_quantity}`));
          }
          expect(got, `${order} by ${size}${scope}`).toEqual(expected);
        }
      }
    }
  }, 120_000);

  it('sorts a search by stock too, every page, both ways', async () => {
    for (const search of ['srt', 'tie', 'srt expired']) {
      const all = (
        await t.get<Page>(
          `/api/v1/medicines?page_size=200&search=${encodeURIComponent(search)}&sort=name`,
          admin,
        )
      ).body.items;
      expect(all.length, search).toBeGreaterThan(2);
      for (const order of ['asc', 'desc'] as const) {
        for (const size of [2, 5]) {
          const got: string[] = [];
          for (let page = 1; page <= Math.ceil(all.length / size); page++) {
            const p = (
              await t.get<Page>(
                `/api/v1/medicines?search=${encodeURIComponent(search)}&sort=stock_quantity&order=${order}&page=${page}&page_size=${size}`,
                admin,
              )
            ).body;
            expect(p.total).toBe(all.length);
            got.push(...p.items.map((m) => `${m.name}:${m.stock_quantity}`));
          }
          expect(got, `${search} ${order} by ${size}`).toEqual(fullSort(all, order));
        }
      }
    }
  }, 120_000);

  it('reads the same pages whatever day medicine_stock was settled to, and far into the zero segment by counting as by walking', async () => {
    const all = await everything('');
    const searched = (await t.get<Page>('/api/v1/medicines?page_size=200&search=srt&sort=name', admin)).body
      .items;
    const day = await branchToday(t.context.db, main);
    const store = medicineStore(t.context);
    const names = new Map(all.map((m) => [m.id, m.name]));
    // Settled to an earlier day (the expired units back in), to a later one (most units out), to today.
    for (const settledTo of ['0000-01-01', inDays(400), day]) {
      await settleStockDay(t.context.db, main, settledTo);
      const state = await keptAndExpected();
      expect(state.kept, `settled to ${settledTo}`).toEqual(state.expected);
      for (const [order, search] of [
        ['asc', null],
        ['desc', null],
        ['desc', 'srt'],
      ] as const) {
        const items = search ? searched : all;
        const expected = fullSort(items, order);
        const conditions = catalogueConditions({});
        if (search) conditions.push(store.searchCondition(search, 'm')!);
        for (const [walkLimit, size] of [
          [0, 1],
          [3, 4],
          [2000, 3],
        ] as const) {
          const got: string[] = [];
          for (let offset = 0; offset < items.length; offset += size) {
            const rows = await stockSortedPage({
              db: t.context.db,
              branchId: main,
              day,
              active: 'true',
              conditions,
              desc: order === 'desc',
              limit: size,
              offset,
              total: async () => items.length,
              rowsTable: (r) => store.rowsTable(r),
              merged: (query) => store.merged(query),
              walkLimit,
              settle: false,
            });
            got.push(...rows.map((r) => `${names.get(r.id)}:${r.stock}`));
          }
          expect(got, `settled to ${settledTo}, ${order} by ${size}, counting past ${walkLimit}`).toEqual(
            expected,
          );
        }
      }
    }
    // The list settles the day itself: from an earlier day, the first read moves it on.
    await settleStockDay(t.context.db, main, '0000-01-01');
    const page = await t.get<Page>('/api/v1/medicines?sort=stock_quantity&order=desc&page_size=200', admin);
    expect(page.body.items.map((m) => `${m.name}:${m.stock_quantity}`)).toEqual(fullSort(all, 'desc'));
    expect(await t.query('SELECT day FROM medicine_stock_days WHERE branch_id = ?', main)).toEqual([{ day }]);
  }, 180_000);
});
