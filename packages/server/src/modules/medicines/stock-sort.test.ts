import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  batchOnHand,
  inDays,
  makeMedicine,
  makeRx,
  makeSupplier,
  openSessionFor,
  receive,
  setExpiry,
  setOnHand,
  setStatus,
} from '../../testing/factory';
import { startTestServer, type TestServer, testingOnPostgres } from '../../testing/harness';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { branchToday } from '../stock/ledger';
import { registeredEntities } from '../sync/registry';
import { TillStore } from '../sync/till-store';
import { catalogueConditions } from './list-conditions';
import { settleStockDay, stockSortedPage } from './stock-sort';
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
async function keptAndExpected(on: TestServer = t) {
  const kept = await on.query<Record<string, unknown>>(
    `SELECT branch_id, medicine_id, qty, name, is_active, low_stock_threshold FROM medicine_stock
      ORDER BY branch_id, medicine_id`,
  );
  const expected = await on.query<Record<string, unknown>>(
    `SELECT b.branch_id, b.medicine_id, sum(b.qty_on_hand - (SELECT coalesce(sum(r.quantity), 0)
        FROM stock_reservations r WHERE r.batch_id = b.id AND r.status = 'held')) AS qty, m.name, m.is_active,
        m.low_stock_threshold
      FROM batches b JOIN medicines m ON m.id = b.medicine_id WHERE b.regulator_status = 'active'
        AND b.expiry_date >= coalesce((SELECT d.day FROM medicine_stock_days d WHERE d.branch_id = b.branch_id), '')
      GROUP BY b.branch_id, b.medicine_id, m.name, m.is_active, m.low_stock_threshold
      HAVING sum(b.qty_on_hand - (SELECT coalesce(sum(r.quantity), 0)
        FROM stock_reservations r WHERE r.batch_id = b.id AND r.status = 'held')) <> 0
      ORDER BY b.branch_id, b.medicine_id`,
  );
  // medicine_stock_counts (migration 0031) holds how many of each branch's rows are above and below zero
  // (summed over the writers' shards).
  const counts = `SELECT branch_id, is_active, sum(positive) AS positive, sum(negative) AS negative
    FROM medicine_stock_counts GROUP BY branch_id, is_active HAVING sum(positive) <> 0 OR sum(negative) <> 0
    ORDER BY branch_id, is_active`;
  const counted = `SELECT branch_id, is_active, sum(CASE WHEN qty > 0 THEN 1 ELSE 0 END) AS positive,
      sum(CASE WHEN qty < 0 THEN 1 ELSE 0 END) AS negative FROM medicine_stock
    GROUP BY branch_id, is_active ORDER BY branch_id, is_active`;
  const asNumbers = (rows: Record<string, unknown>[]) =>
    rows.map((r) => ({
      branch_id: String(r.branch_id),
      is_active: Number(r.is_active),
      positive: Number(r.positive),
      negative: Number(r.negative),
    }));
  expect(asNumbers(await on.query(counts)), 'medicine_stock_counts').toEqual(
    asNumbers(await on.query(counted)),
  );
  type Kept = {
    branch_id: string;
    medicine_id: string;
    qty: number;
    name: string;
    is_active: number;
    low_stock_threshold: number;
  };
  const norm = (rows: Record<string, unknown>[]): Kept[] =>
    rows.map((r) => ({
      branch_id: String(r.branch_id),
      medicine_id: String(r.medicine_id),
      qty: Number(r.qty),
      name: String(r.name),
      is_active: Number(r.is_active),
      low_stock_threshold: Number(r.low_stock_threshold),
    }));
  return { kept: norm(kept), expected: norm(expected) };
}

describe('medicine_stock (migration 0028)', () => {
  it('equals the active batches less held units after receipts, a sale, a will-call hold and its return, write-offs, quarantine, renames, a new threshold and raw updates', async () => {
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
    await t.put(`/api/v1/medicines/${b.id}`, { name: 'Kept Beta renamed', low_stock_threshold: 4 }, admin);
    expect((await t.delete(`/api/v1/medicines/${a.id}`, admin)).status).toBe(204);
    await setOnHand(t, a1.id, -2);
    state = await keptAndExpected();
    expect(state.kept).toEqual(state.expected);
    expect(state.kept.find((r) => r.medicine_id === b.id)).toMatchObject({
      name: 'Kept Beta renamed',
      qty: 5,
      low_stock_threshold: 4,
    });
    expect(state.kept.find((r) => r.medicine_id === a.id)).toMatchObject({ is_active: 0, qty: 3 });
    // Down to nothing: the row goes (a medicine without a row holds none).
    for (const { id } of await t.query<{ id: string }>('SELECT id FROM batches WHERE medicine_id = ?', b.id))
      await setOnHand(t, id, 0);
    state = await keptAndExpected();
    expect(state.kept).toEqual(state.expected);
    expect(state.kept.some((r) => r.medicine_id === b.id)).toBe(false);
  });
});

describe('medicine_stock vacuumed often on PostgreSQL (migration 0032)', () => {
  it.runIf(testingOnPostgres())(
    'has autovacuum visit it after 1 % of its rows changed, so its index-only reads keep skipping the table',
    async () => {
      const options = await t.query<{ reloptions: string[] | null }>(
        `SELECT reloptions FROM pg_class WHERE relname = 'medicine_stock' AND relkind = 'r'`,
      );
      expect(options[0]?.reloptions?.sort()).toEqual([
        'autovacuum_analyze_scale_factor=0.02',
        'autovacuum_vacuum_scale_factor=0.01',
        'autovacuum_vacuum_threshold=1000',
      ]);
    },
  );
});

describe('medicine_stock kept by every write of units (migration 0029)', () => {
  let central: TestServer;
  let till: TestServer;
  beforeAll(async () => {
    central = await startTestServer({ mode: 'central' });
    till = await startTestServer({ mode: 'till' });
  }, 60_000);
  afterAll(async () => {
    await central?.close();
    await till?.close();
  });

  /** medicine_stock on `on` is what its batches say, and medicine `id` of `branch` holds `qty` there. */
  async function holds(on: TestServer, branch: string, id: string, qty: number, step: string) {
    const state = await keptAndExpected(on);
    expect(state.kept, step).toEqual(state.expected);
    expect(state.kept.find((r) => r.branch_id === branch && r.medicine_id === id)?.qty ?? 0, step).toBe(qty);
  }

  it('equals the batches after a receipt into an existing batch, a sale of several lines over several batches, a return, a transfer out and in, a count, movements pushed by a till, a till snapshot and a pulled movement', async () => {
    const admin = await central.adminToken();
    const main = await central.mainBranchId();
    const north = await central.createBranch('UNITS');
    const supplierId = (await makeSupplier(central)).id;
    const a = await makeMedicine(central, { name: 'Units Alpha' });
    const b = await makeMedicine(central, { name: 'Units Beta' });
    const x = await receive(central, a.id, supplierId, {
      qty_received: 5,
      batch_number: 'UX',
      expiry_date: inDays(100),
    });
    const y = await receive(central, a.id, supplierId, { qty_received: 10, expiry_date: inDays(200) });
    const bb = await receive(central, b.id, supplierId, { qty_received: 8 });
    // Into the existing batch (same number and expiry): its units change, nothing else.
    await receive(central, a.id, supplierId, {
      qty_received: 3,
      batch_number: 'UX',
      expiry_date: inDays(100),
    });
    await holds(central, main, a.id, 18, 'receipt into an existing batch');

    // Two lines of Alpha: the second takes what is left of UX, then from the next batch.
    const cashier = (await central.userWithRole('cashier')).token;
    await openSessionFor(central, cashier);
    const sale = await central.post<{ id: string; items: Array<{ id: string; medicine_id: string }> }>(
      '/api/v1/sales',
      {
        items: [
          { medicine_id: a.id, quantity: 6 },
          { medicine_id: b.id, quantity: 2 },
          { medicine_id: a.id, quantity: 4 },
        ],
        payment_method: 'cash',
        print_receipt: false,
      },
      cashier,
    );
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    expect(await batchOnHand(central, x.id)).toBe(0);
    expect(await batchOnHand(central, y.id)).toBe(8);
    await holds(central, main, a.id, 8, 'sale');
    await holds(central, main, b.id, 6, 'sale');

    const back = await central.post(
      '/api/v1/returns',
      {
        sale_id: sale.body.id,
        lines: [{ sale_line_id: sale.body.items[0]!.id, quantity: 1, condition: 'resaleable' }],
      },
      cashier,
    );
    expect(back.status, JSON.stringify(back.body)).toBe(201);
    await holds(central, main, a.id, 9, 'return');

    const sent = await central.post<{ id: string }>(
      '/api/v1/transfers',
      { to_branch_id: north, items: [{ medicine_id: a.id, quantity: 3 }] },
      admin,
    );
    expect(sent.status, JSON.stringify(sent.body)).toBe(201);
    await holds(central, main, a.id, 6, 'transfer out');
    expect((await central.post(`/api/v1/transfers/${sent.body.id}/receive`, {}, admin)).status).toBe(200);
    await holds(central, north, a.id, 3, 'transfer in');

    const counted = await central.post(
      '/api/v1/stockcount/submit',
      { lines: [{ batch_id: bb.id, counted_qty: 5 }] },
      admin,
    );
    expect(counted.status, JSON.stringify(counted.body)).toBe(201);
    await holds(central, main, b.id, 5, 'count');

    // A till's sales arrive as movements.
    const device = await central.registerDevice('Units till');
    const movement = (batch: string, medicine: string, quantity: number) => {
      const id = newId();
      return {
        client_mutation_id: newId(),
        entity: 'stock_movement',
        op: 'upsert',
        entity_id: id,
        payload: {
          id,
          batch_id: batch,
          branch_id: main,
          medicine_id: medicine,
          type: 'sale',
          quantity,
          reference_type: 'sale',
          reference_id: newId(),
          user_id: null,
          reason: '',
          created_at: nowIso(),
        },
      };
    };
    // A run of 8 or more such changes (PostgreSQL applies it set-wise, sync/push-setwise.ts).
    const run = [
      ...[-1, -1, 1, -1].map((q) => movement(y.id, a.id, q)),
      ...[-1, -1, -1, -1, -1].map((q) => movement(bb.id, b.id, q)),
    ];
    const pushed = await central.request<{ accepted: unknown[] }>('POST', '/api/v1/sync/push', {
      body: { device_id: device.id, changes: run },
      headers: { 'x-device-token': device.token },
    });
    expect(pushed.body.accepted, JSON.stringify(pushed.body)).toHaveLength(run.length);
    await holds(central, main, a.id, 4, 'pushed movements');
    await holds(central, main, b.id, 0, 'pushed movements (down to none: no row)');
    // A new threshold while it holds none, then a receipt into its emptied batch: the units writer makes the row
    // again, with the medicine's threshold as it is now.
    expect((await central.put(`/api/v1/medicines/${b.id}`, { low_stock_threshold: 7 }, admin)).status).toBe(
      200,
    );
    await receive(central, b.id, supplierId, {
      qty_received: 2,
      batch_number: bb.batch_number,
      expiry_date: bb.expiry_date,
    });
    await holds(central, main, b.id, 2, 'receipt into an emptied batch after a new threshold');
    expect(
      (await keptAndExpected(central)).kept.find((r) => r.medicine_id === b.id)?.low_stock_threshold,
    ).toBe(7);

    // A till bootstraps from central's rows (the swap inserts its batches) ...
    const lines: string[] = [];
    for (const def of registeredEntities()) {
      const rows = def.snapshotWhere
        ? await central.query(`SELECT * FROM "${def.table}" WHERE ${def.snapshotWhere}`, main)
        : await central.query(`SELECT * FROM "${def.table}"`);
      for (const row of rows)
        lines.push(
          JSON.stringify({
            type: 'row',
            entity: def.entity,
            id: String(row[def.key]),
            payload: def.fromRow(row),
          }),
        );
    }
    const since = await central.headRevision();
    async function* snapshot() {
      yield JSON.stringify({ type: 'header', revision: since, epoch: 'units' });
      yield* lines;
      yield JSON.stringify({ type: 'end', rows: lines.length });
    }
    const store = new TillStore(till.context);
    await store.loadSnapshot(snapshot());
    await holds(till, main, a.id, 4, 'snapshot');
    await holds(till, north, a.id, 3, 'snapshot');

    // ... and pulls a write-off made at central after it.
    const off = await central.put(
      `/api/v1/purchases/${y.id}/write-off`,
      { quantity: 1, reason: 'broken' },
      admin,
    );
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    const changes = await central.query<{
      revision: number;
      entity: string;
      entity_id: string;
      op: 'upsert' | 'delete';
      payload: string;
      branch_id: string | null;
    }>(
      'SELECT revision, entity, entity_id, op, payload, branch_id FROM change_log WHERE revision > ? ORDER BY revision',
      since,
    );
    expect(changes.some((c) => c.entity === 'stock_movement')).toBe(true);
    await store.applyPullPage({
      epoch: 'units',
      changes: changes.map((c) => ({ ...c, payload: JSON.parse(c.payload) })),
      next_revision: changes.at(-1)!.revision,
      has_more: false,
    });
    await holds(till, main, a.id, 3, 'pulled movement');
    await holds(central, main, a.id, 3, 'write-off');
  }, 120_000);
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
    await setOnHand(t, sb.id, -3);
    const expired = await makeMedicine(t, { name: 'Srt expired only' });
    await setExpiry(t, (await receive(t, expired.id, supplier, { qty_received: 4 })).id, inDays(-3));
    const mixed = await makeMedicine(t, { name: 'Srt expired and fresh' });
    await setExpiry(t, (await receive(t, mixed.id, supplier, { qty_received: 6 })).id, inDays(-1));
    await receive(t, mixed.id, supplier, { qty_received: 5 });
    const against = await makeMedicine(t, { name: 'Srt expired against short' });
    await setExpiry(t, (await receive(t, against.id, supplier, { qty_received: 4 })).id, inDays(-2));
    const owed = await receive(t, against.id, supplier, { qty_received: 1 });
    await setOnHand(t, owed.id, -4);
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

  it('pages through exactly a full sort of what each stock filter keeps (low stock against each threshold, out of stock, both), both ways, with its total', async () => {
    // Thresholds of their own: one above its stock (low), one below (not low), one at it (low), one of zero.
    const all = await everything('&is_active=all');
    const byName = (name: string) => all.find((m) => m.name === name)!;
    for (const [name, threshold] of [
      ['Srt 00 X0', 3],
      ['Srt 05 X12', 12],
      ['Srt 02 x9', 40],
      ['Tie Same', 0],
    ] as const)
      expect(
        (await t.put(`/api/v1/medicines/${byName(name).id}`, { low_stock_threshold: threshold }, admin))
          .status,
      ).toBe(200);
    type Listed = Item & { low_stock_threshold: number };
    for (const scope of ['', '&is_active=all']) {
      const listed = (await everything(scope)) as Listed[];
      const filters: Array<[string, (m: Listed) => boolean]> = [
        ['low_stock=true', (m) => m.stock_quantity <= m.low_stock_threshold],
        ['low_stock=false', (m) => m.stock_quantity > m.low_stock_threshold],
        ['out_of_stock=true', (m) => m.stock_quantity <= 0],
        ['out_of_stock=false', (m) => m.stock_quantity > 0],
        [
          'low_stock=true&out_of_stock=false',
          (m) => m.stock_quantity > 0 && m.stock_quantity <= m.low_stock_threshold,
        ],
        ['low_stock=false&out_of_stock=true', () => false],
      ];
      for (const [filter, keeps] of filters) {
        const kept = listed.filter(keeps);
        for (const order of ['asc', 'desc'] as const)
          for (const size of [1, 4, 50]) {
            const got: string[] = [];
            for (let page = 1; page <= Math.ceil(kept.length / size) + 1; page++) {
              const p = (
                await t.get<Page>(
                  `/api/v1/medicines?sort=stock_quantity&order=${order}&page=${page}&page_size=${size}&${filter}${scope}`,
                  admin,
                )
              ).body;
              expect(p.total, `${filter}${scope} total`).toBe(kept.length);
              got.push(...p.items.map((m) => `${m.name}:${m.stock_quantity}`));
            }
            expect(got, `${filter}${scope} ${order} by ${size}`).toEqual(fullSort(kept, order));
          }
        // Another order, the same total.
        const byNameTotal = await t.get<Page>(
          `/api/v1/medicines?sort=name&page_size=1&${filter}${scope}`,
          admin,
        );
        expect(byNameTotal.body.total, `${filter}${scope} sorted by name`).toBe(kept.length);
      }
    }
  }, 120_000);

  it('gives with low_stock and out_of_stock exactly the rows of a plain query over the batches and each threshold, both ways, again after a threshold change and after a sale', async () => {
    const today = await branchToday(t.context.db, main);
    /** The obvious query: every medicine's sellable stock summed from its batches, the filter as written. */
    const plain = async (filter: string, scope: string) => {
      const stock = `coalesce((SELECT sum(b.qty_on_hand - (SELECT coalesce(sum(r.quantity), 0)
          FROM stock_reservations r WHERE r.batch_id = b.id AND r.status = 'held')) FROM batches b
        WHERE b.medicine_id = m.id AND b.branch_id = ? AND b.regulator_status = 'active' AND b.expiry_date >= ?), 0)`;
      const where = filter
        .split('&')
        .map((f) => {
          const [name, value] = f.split('=');
          if (name === 'low_stock') return `${stock} ${value === 'true' ? '<=' : '>'} m.low_stock_threshold`;
          return `${stock} ${value === 'true' ? '<=' : '>'} 0`;
        })
        .join(' AND ');
      const binds = filter.split('&').flatMap(() => [main, today]);
      const rows = await t.query<{ id: string; name: string; n: number; is_active: number }>(
        `SELECT m.id, m.name, m.is_active, ${stock} AS n FROM medicines m
          WHERE ${scope ? '1 = 1' : 'm.is_active = 1'} AND ${where}`,
        main,
        today,
        ...binds,
      );
      return rows.map((r) => ({
        id: r.id,
        name: r.name,
        stock_quantity: Number(r.n),
        is_active: Boolean(r.is_active),
      }));
    };
    const filters = [
      'low_stock=true',
      'low_stock=false',
      'out_of_stock=true',
      'out_of_stock=false',
      'low_stock=true&out_of_stock=false',
    ];
    const agree = async (step: string) => {
      for (const scope of ['', '&is_active=all'])
        for (const filter of filters) {
          const expected = await plain(filter, scope);
          for (const order of ['asc', 'desc'] as const) {
            const got: string[] = [];
            for (let page = 1; page <= Math.ceil(expected.length / 3) + 1; page++) {
              const p = (
                await t.get<Page>(
                  `/api/v1/medicines?sort=stock_quantity&order=${order}&page=${page}&page_size=3&${filter}${scope}`,
                  admin,
                )
              ).body;
              expect(p.total, `${step}: ${filter}${scope} total`).toBe(expected.length);
              got.push(...p.items.map((m) => `${m.name}:${m.stock_quantity}`));
            }
            expect(got, `${step}: ${filter}${scope} ${order}`).toEqual(fullSort(expected, order));
          }
        }
    };
    await agree('as received');

    // A medicine of 7 units leaves the low ones (its threshold now 6), one of 30 joins them (threshold 30).
    const all = await everything('&is_active=all');
    const named = (name: string) => all.find((m) => m.name === name)!;
    const [seven, thirty, twelve, one] = ['Srt 05 X12', 'Srt 00 x7', 'Srt 02 X2', 'Srt 05 x5'].map(named);
    expect([seven, thirty, twelve, one].map((m) => m!.stock_quantity)).toEqual([7, 30, 12, 1]);
    for (const [m, threshold] of [
      [seven!, 6],
      [thirty!, 30],
      [twelve!, 10],
    ] as const)
      expect(
        (await t.put(`/api/v1/medicines/${m.id}`, { low_stock_threshold: threshold }, admin)).status,
      ).toBe(200);
    const lowNames = async () => (await plain('low_stock=true', '')).map((m) => m.name);
    expect(await lowNames()).toContain('Srt 00 x7');
    expect(await lowNames()).not.toContain('Srt 05 X12');
    await agree('after a threshold change');

    // A sale takes the 12 down to 3 (low now) and sells out a medicine of 1 (out of stock).
    expect(await lowNames()).not.toContain('Srt 02 X2');
    const cashier = (await t.userWithRole('cashier')).token;
    // The cashier of the first test may still have its session open.
    const opened = await t.post('/api/v1/sessions/open', { opening_float: 100 }, cashier);
    expect([201, 409], JSON.stringify(opened.body)).toContain(opened.status);
    const sale = await t.post(
      '/api/v1/sales',
      {
        items: [
          { medicine_id: twelve!.id, quantity: 9 },
          { medicine_id: one!.id, quantity: 1 },
        ],
        payment_method: 'cash',
        print_receipt: false,
      },
      cashier,
    );
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    expect(await lowNames()).toContain('Srt 02 X2');
    expect((await plain('out_of_stock=true', '')).map((m) => m.id)).toContain(one!.id);
    await agree('after a sale');
  }, 180_000);

  it('sorts a search by stock too, every page, both ways, active, inactive or all, with its total', async () => {
    for (const [search, scope] of [
      ['srt', ''],
      ['tie', ''],
      ['srt expired', ''],
      ['srt', '&is_active=all'],
      ['srt', '&is_active=false'],
    ] as const) {
      const all = (
        await t.get<Page>(
          `/api/v1/medicines?page_size=200&search=${encodeURIComponent(search)}&sort=name${scope}`,
          admin,
        )
      ).body.items;
      expect(all.length, search).toBeGreaterThan(scope.endsWith('false') ? 0 : 2);
      for (const order of ['asc', 'desc'] as const) {
        for (const size of [2, 5]) {
          const got: string[] = [];
          for (let page = 1; page <= Math.ceil(all.length / size); page++) {
            const p = (
              await t.get<Page>(
                `/api/v1/medicines?search=${encodeURIComponent(search)}&sort=stock_quantity&order=${order}&page=${page}&page_size=${size}${scope}`,
                admin,
              )
            ).body;
            expect(p.total, `${search}${scope} total`).toBe(all.length);
            got.push(...p.items.map((m) => `${m.name}:${m.stock_quantity}`));
          }
          expect(got, `${search}${scope} ${order} by ${size}`).toEqual(fullSort(all, order));
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
      // A search as one matching many reads the catalogue's name index, testing each medicine (`searched`).
      for (const [order, search, manyMatches] of [
        ['asc', null, false],
        ['desc', null, false],
        ['desc', 'srt', false],
        ['asc', 'srt', true],
        ['desc', 'srt', true],
      ] as const) {
        const items = search ? searched : all;
        const expected = fullSort(items, order);
        const conditions = catalogueConditions({});
        if (search) conditions.push(store.searchCondition(search, 'm')!);
        // Walked, counted, and read from the nearer end of the zero segment.
        for (const [walkLimit, size, near] of [
          [0, 1, 100],
          [3, 4, 100],
          [2000, 3, 100],
          [2000, 2, 0],
          [0, 3, 2],
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
              near,
              settle: false,
              searched: manyMatches,
            });
            got.push(...rows.map((r) => `${names.get(r.id)}:${r.stock}`));
          }
          expect(
            got,
            `settled to ${settledTo}, ${order}${manyMatches ? ' searched' : ''} by ${size}, counting past ${walkLimit}, from the nearer end past ${near}`,
          ).toEqual(expected);
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
