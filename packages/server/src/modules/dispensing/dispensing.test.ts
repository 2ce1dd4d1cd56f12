import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
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

let t: TestServer;
let admin: string;
let main: string;
let north: string;
let supplierId: string;
let pharmacist: string;
let cashier: string;
let auditor: string;
let northPharmacist: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  main = await t.mainBranchId();
  north = await t.createBranch('NORTH');
  supplierId = (await makeSupplier(t)).id;
  pharmacist = (await t.userWithRole('pharmacist')).token;
  cashier = (await t.userWithRole('cashier')).token;
  auditor = (await t.userWithRole('auditor')).token;
  northPharmacist = (await t.userWithRole('pharmacist', north)).token;
}, 60_000);
afterAll(() => t.close());

type Search = {
  items: Array<{ medicine_id: string; name: string; selling_price: string; stock_quantity: number }>;
};

describe('GET /dispensing/generic-search', () => {
  it('lists in-stock, active substitutes with the same generic name, strength and form, cheapest first', async () => {
    const g = { generic_name: 'Ibuprofen', strength: '400mg', form: 'tablet' };
    const asked = await makeMedicine(t, { ...g, name: 'Brufen 400', selling_price: 5 });
    const cheap = await makeMedicine(t, {
      ...g,
      generic_name: ' ibuprofen ',
      name: 'Ibu Generic',
      selling_price: 1.5,
    });
    const mid = await makeMedicine(t, { ...g, name: 'Nurofen 400', selling_price: 3 });
    const noStock = await makeMedicine(t, { ...g, name: 'Empty Ibu', selling_price: 1 });
    const otherStrength = await makeMedicine(t, {
      ...g,
      strength: '200mg',
      name: 'Ibu 200',
      selling_price: 0.5,
    });
    const otherForm = await makeMedicine(t, { ...g, form: 'syrup', name: 'Ibu Syrup', selling_price: 0.5 });
    const inactive = await makeMedicine(t, { ...g, name: 'Old Ibu', selling_price: 0.5 });
    const expiredOnly = await makeMedicine(t, { ...g, name: 'Expired Ibu', selling_price: 0.5 });
    const quarantined = await makeMedicine(t, { ...g, name: 'Quarantined Ibu', selling_price: 0.5 });
    const northOnly = await makeMedicine(t, { ...g, name: 'North Ibu', selling_price: 0.5 });
    for (const m of [asked, cheap, mid, otherStrength, otherForm, inactive])
      await receive(t, m.id, supplierId, { qty_received: 7 });
    const old = await receive(t, expiredOnly.id, supplierId, { qty_received: 7 });
    await setExpiry(t, old.id, inDays(-1));
    const q = await receive(t, quarantined.id, supplierId, { qty_received: 7 });
    await setStatus(t, q.id, 'quarantined');
    await receive(t, northOnly.id, supplierId, { qty_received: 7, branch_id: north });
    await t.delete(`/api/v1/medicines/${inactive.id}`, admin);

    const res = await t.get<Search>(`/api/v1/dispensing/generic-search?medicine_id=${asked.id}`, cashier);
    expect(res.status).toBe(200);
    expect(res.body.items.map((i) => i.name)).toEqual(['Ibu Generic', 'Nurofen 400']);
    expect(res.body.items[0]).toMatchObject({
      medicine_id: cheap.id,
      selling_price: '1.50',
      stock_quantity: 7,
    });
    expect(res.body.items.map((i) => i.medicine_id)).not.toContain(noStock.id);
    expect(res.body.items.map((i) => i.medicine_id)).not.toContain(asked.id);

    const byName = await t.get<Search>(
      '/api/v1/dispensing/generic-search?generic_name=IBUPROFEN&strength=400mg&form=tablet',
      cashier,
    );
    expect(byName.body.items.map((i) => i.name)).toEqual(['Ibu Generic', 'Nurofen 400', 'Brufen 400']);
    const anyStrength = await t.get<Search>(
      '/api/v1/dispensing/generic-search?generic_name=ibuprofen',
      cashier,
    );
    expect(anyStrength.body.items.map((i) => i.name)).toEqual([
      'Ibu 200',
      'Ibu Syrup',
      'Ibu Generic',
      'Nurofen 400',
      'Brufen 400',
    ]);
    const northView = await t.get<Search>(
      `/api/v1/dispensing/generic-search?medicine_id=${asked.id}`,
      northPharmacist,
    );
    expect(northView.body.items.map((i) => i.name)).toEqual(['North Ibu']);
    const adminNorth = await t.get<Search>(
      `/api/v1/dispensing/generic-search?medicine_id=${asked.id}&branch_id=${north}`,
      admin,
    );
    expect(adminNorth.body.items.map((i) => i.name)).toEqual(['North Ibu']);
  });

  it('refuses bad queries', async () => {
    const noGeneric = await makeMedicine(t, { name: 'No Generic' });
    expect((await t.get('/api/v1/dispensing/generic-search', cashier)).status).toBe(400);
    expect(
      (await t.get(`/api/v1/dispensing/generic-search?medicine_id=${noGeneric.id}`, cashier)).status,
    ).toBe(400);
    expect(
      (
        await t.get(
          '/api/v1/dispensing/generic-search?medicine_id=0190a000-0000-7000-8000-000000000000',
          cashier,
        )
      ).status,
    ).toBe(404);
    expect((await t.get('/api/v1/dispensing/generic-search?medicine_id=abc', cashier)).status).toBe(400);
    expect(
      (await t.get(`/api/v1/dispensing/generic-search?generic_name=${'x'.repeat(300)}`, cashier)).status,
    ).toBe(400);
    const sqlish = await t.get<Search>(
      `/api/v1/dispensing/generic-search?generic_name=${encodeURIComponent("x' OR 1=1 --")}`,
      cashier,
    );
    expect(sqlish.status).toBe(200);
    expect(sqlish.body.items).toEqual([]);
  });
});

type Reminder = { id: string; branch_id: string; due_date: string; medicine_name: string };

describe('/dispensing/refills', () => {
  it('creates reminders and lists those due by a day, branch-scoped', async () => {
    const m = await makeMedicine(t, { name: 'Metformin 500' });
    const mk = (due: string, token = pharmacist, extra: Record<string, unknown> = {}) =>
      t.post<Reminder>(
        '/api/v1/dispensing/refills',
        { patient_name: 'Baraka', medicine_id: m.id, due_date: due, contact: '+255711000000', ...extra },
        token,
      );
    const soon = await mk(inDays(3));
    expect(soon.status).toBe(201);
    expect(soon.body).toMatchObject({ branch_id: main, medicine_name: 'Metformin 500', due_date: inDays(3) });
    const later = await mk(inDays(20), cashier);
    expect(later.status).toBe(201);
    const northOne = await mk(inDays(1), northPharmacist);
    expect(northOne.body.branch_id).toBe(north);
    const due = await t.get<{ items: Reminder[] }>(
      `/api/v1/dispensing/refills?due_before=${inDays(7)}`,
      pharmacist,
    );
    expect(due.body.items.map((r) => r.id)).toEqual([soon.body.id]);
    const all = await t.get<{ items: Reminder[] }>('/api/v1/dispensing/refills', pharmacist);
    expect(all.body.items.map((r) => r.id)).toEqual([soon.body.id, later.body.id]);
    const adminAll = await t.get<{ total: number }>('/api/v1/dispensing/refills', admin);
    expect(adminAll.body.total).toBe(3);

    const rx = await makeRx(t, pharmacist, [{ medicine_id: m.id, quantity: 30, refills_allowed: 2 }]);
    const linked = await mk(inDays(25), pharmacist, { prescription_id: rx.id });
    expect(linked.status).toBe(201);

    const before = [
      await t.count('refill_reminders'),
      await t.count('change_log'),
      await t.count('audit_log'),
    ];
    expect((await mk(inDays(-1))).status).toBe(400);
    expect((await mk('2025-13-01')).status).toBe(400);
    expect(
      (await mk(inDays(1), pharmacist, { medicine_id: '0190a000-0000-7000-8000-000000000000' })).status,
    ).toBe(404);
    expect((await mk(inDays(1), pharmacist, { branch_id: north })).status).toBe(403);
    expect((await mk(inDays(1), northPharmacist, { prescription_id: rx.id })).status).toBe(403);
    expect(
      (await mk(inDays(1), pharmacist, { prescription_id: '0190a000-0000-7000-8000-000000000000' })).status,
    ).toBe(404);
    expect((await mk(inDays(1), pharmacist, { contact: '' })).status).toBe(400);
    expect((await mk(inDays(1), pharmacist, { patient_name: 42 })).status).toBe(400);
    expect((await mk(inDays(1), auditor)).status).toBe(403);
    expect([
      await t.count('refill_reminders'),
      await t.count('change_log'),
      await t.count('audit_log'),
    ]).toEqual(before);
  });
});

describe('/dispensing/will-call bad input', () => {
  it('404 unknown entries, 403 other branch, 400 bad bodies, nothing written', async () => {
    const m = await makeMedicine(t, {});
    await receive(t, m.id, supplierId, { qty_received: 5 });
    const rx = await makeRx(t, pharmacist, [{ medicine_id: m.id, quantity: 1 }]);
    await t.post(`/api/v1/prescriptions/${rx.id}/dispense`, {}, pharmacist);
    const before = [await t.count('will_calls'), await t.count('change_log')];
    expect(
      (await t.post('/api/v1/dispensing/will-call', { prescription_id: rx.id }, pharmacist)).status,
    ).toBe(400);
    expect(
      (
        await t.post(
          '/api/v1/dispensing/will-call',
          { prescription_id: rx.id, bin_location: 'x'.repeat(61) },
          pharmacist,
        )
      ).status,
    ).toBe(400);
    expect(
      (await t.post('/api/v1/dispensing/will-call', { prescription_id: rx.id, bin_location: 'A' }, cashier))
        .status,
    ).toBe(403);
    expect([await t.count('will_calls'), await t.count('change_log')]).toEqual(before);
    const wc = await t.post<{ id: string }>(
      '/api/v1/dispensing/will-call',
      { prescription_id: rx.id, bin_location: 'A' },
      pharmacist,
    );
    expect(wc.status).toBe(201);
    expect(
      (
        await t.put(
          `/api/v1/dispensing/will-call/${wc.body.id}/pickup`,
          { name: 'A', relationship: 'self' },
          northPharmacist,
        )
      ).status,
    ).toBe(403);
    expect(
      (
        await t.put(
          `/api/v1/dispensing/will-call/${wc.body.id}/pickup`,
          { name: '', relationship: 'self' },
          pharmacist,
        )
      ).status,
    ).toBe(400);
    expect(
      (
        await t.put(
          '/api/v1/dispensing/will-call/0190a000-0000-7000-8000-000000000000/pickup',
          { name: 'A', relationship: 'self' },
          pharmacist,
        )
      ).status,
    ).toBe(404);
    const northShelf = await t.get<{ items: unknown[] }>('/api/v1/dispensing/will-call', northPharmacist);
    expect(northShelf.body.items).toEqual([]);
    // a pickup is a sale: the hand-over route writes nothing
    const unpaid = await t.put(
      `/api/v1/dispensing/will-call/${wc.body.id}/pickup`,
      { name: 'A', relationship: 'self' },
      pharmacist,
    );
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.code).toBe('PICKUP_NEEDS_SALE');
    const returnBefore = [await t.count('will_calls'), await t.count('change_log')];
    const noReason = await t.post(`/api/v1/dispensing/will-call/${wc.body.id}/return`, {}, pharmacist);
    expect(noReason.status).toBe(400);
    const otherBranch = await t.post(
      `/api/v1/dispensing/will-call/${wc.body.id}/return`,
      { reason: 'x' },
      northPharmacist,
    );
    expect(otherBranch.status).toBe(403);
    const byCashier = await t.post(
      `/api/v1/dispensing/will-call/${wc.body.id}/return`,
      { reason: 'x' },
      cashier,
    );
    expect(byCashier.status).toBe(403);
    expect([await t.count('will_calls'), await t.count('change_log')]).toEqual(returnBefore);
  });
});

// biome-ignore lint/suspicious/noExplicitAny: answers are asserted field by field
type Json = Record<string, any>;

/**
 * Issue 27.1: a prescription with Tramadol ×2 (controlled) and Zithromax put on will-call. Dispensing reserves
 * the units by batch; the pickup is a sale paid at the till, which takes them; the register names the sale and
 * the collector; an entry not collected goes back to stock.
 */
describe('27.1: a will-call pickup is a sale', () => {
  const onHand = async (id: string) =>
    (await t.query<{ n: number }>('SELECT sum(qty_on_hand) AS n FROM batches WHERE medicine_id = ?', id))[0]!
      .n;
  const available = async (id: string) =>
    (await t.get<Json>(`/api/v1/medicines/${id}`, cashier)).body.stock_quantity as number;

  async function prepared() {
    const tramadol = await makeMedicine(t, {
      name: `Tramadol ${Math.random()}`,
      is_controlled: true,
      requires_prescription: true,
    });
    const zithromax = await makeMedicine(t, {
      name: `Zithromax ${Math.random()}`,
      requires_prescription: true,
    });
    await receive(t, tramadol.id, supplierId, { qty_received: 41 });
    await receive(t, zithromax.id, supplierId, { qty_received: 83 });
    const rx = await makeRx(t, pharmacist, [
      { medicine_id: tramadol.id, quantity: 2 },
      { medicine_id: zithromax.id, quantity: 1 },
    ]);
    expect((await t.post(`/api/v1/prescriptions/${rx.id}/dispense`, {}, pharmacist)).status).toBe(201);
    const wc = await t.post<Json>(
      '/api/v1/dispensing/will-call',
      { prescription_id: rx.id, bin_location: 'W-1' },
      pharmacist,
    );
    expect(wc.status).toBe(201);
    const pickup = (token: string, body: Json = {}) =>
      t.post<Json>(
        '/api/v1/sales',
        {
          items: [
            { medicine_id: tramadol.id, quantity: 2 },
            { medicine_id: zithromax.id, quantity: 1 },
          ],
          will_call_id: wc.body.id,
          collected_by: { name: 'Baraka Mushi', relationship: 'son', id_number: 'NID-2741' },
          print_receipt: false,
          ...body,
        },
        token,
      );
    return { tramadol, zithromax, rx, wc: wc.body, pickup };
  }

  let sessionOpen = false;
  const till = async () => {
    if (!sessionOpen) await openSessionFor(t, cashier);
    sessionOpen = true;
    return cashier;
  };

  it('27.1: pickup needs payment; stock reserved at dispensing, leaves at sale', async () => {
    const { tramadol, zithromax, rx, wc, pickup } = await prepared();
    // Reserved: on hand, not available to anyone else.
    expect([await onHand(tramadol.id), await onHand(zithromax.id)]).toEqual([41, 83]);
    expect([await available(tramadol.id), await available(zithromax.id)]).toEqual([39, 82]);
    const held = await t.query<Json>(
      "SELECT medicine_id, quantity, batch_id FROM stock_reservations WHERE prescription_id = ? AND status = 'held'",
      rx.id,
    );
    expect(held.map((h) => h.quantity).sort()).toEqual([1, 2]);
    expect(held.every((h) => typeof h.batch_id === 'string')).toBe(true);
    const token = await till();
    const other = await t.post<Json>(
      '/api/v1/sales',
      { items: [{ medicine_id: zithromax.id, quantity: 83 }], emergency_supply: null, print_receipt: false },
      token,
    );
    expect(other.status).not.toBe(201);

    // No hand-over without payment.
    const unpaid = await t.put<Json>(
      `/api/v1/dispensing/will-call/${wc.id}/pickup`,
      { name: 'Baraka Mushi', relationship: 'son', id_number: 'NID-2741' },
      token,
    );
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.code).toBe('PICKUP_NEEDS_SALE');
    const before = await t.counts(['sales', 'stock_movements', 'will_calls', 'change_log']);
    const short = await pickup(token, { payment_lines: [{ method: 'cash', amount: 0.01 }] });
    expect(short.status).toBe(400);
    expect(short.body.code).toBe('PAYMENT_SHORT');
    const wrong = await pickup(token, {
      items: [
        { medicine_id: tramadol.id, quantity: 1 },
        { medicine_id: zithromax.id, quantity: 1 },
      ],
    });
    expect(wrong.status).toBe(409);
    expect(wrong.body.code).toBe('WILL_CALL_MISMATCH');
    expect(await t.counts(['sales', 'stock_movements', 'will_calls', 'change_log'])).toEqual(before);
    expect(
      (await t.get<Json>(`/api/v1/dispensing/will-call?status=waiting`, token)).body.items.map(
        (i: Json) => i.id,
      ),
    ).toContain(wc.id);

    // The sale, by a cashier: paid, the reserved units leave, the entry and the prescription are done.
    const sale = await pickup(token, { payment_method: 'cash' });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    expect(sale.body.prescription_id).toBe(rx.id);
    expect([await onHand(tramadol.id), await onHand(zithromax.id)]).toEqual([39, 82]);
    expect([await available(tramadol.id), await available(zithromax.id)]).toEqual([39, 82]);
    expect(
      await t.query<Json>(
        'SELECT DISTINCT status, sale_id FROM stock_reservations WHERE prescription_id = ?',
        rx.id,
      ),
    ).toEqual([{ status: 'sold', sale_id: sale.body.id }]);
    const moves = await t.query<Json>(
      "SELECT medicine_id, quantity FROM stock_movements WHERE reference_type = 'sale' AND reference_id = ? ORDER BY quantity",
      sale.body.id,
    );
    expect(moves.map((m) => m.quantity)).toEqual([-2, -1]);
    const rxAfter = await t.get<Json>(`/api/v1/prescriptions/${rx.id}`, token);
    expect(rxAfter.body.status).toBe('dispensed');
    expect(rxAfter.body.dispensings.every((d: Json) => d.sale_id === sale.body.id)).toBe(true);
    const again = await pickup(token, { payment_method: 'cash' });
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('WILL_CALL_NOT_WAITING');
  });

  it('27.1: the controlled-drug register links the pickup to its sale and the person who collected it', async () => {
    const { tramadol, pickup } = await prepared();
    const token = await till();
    const noId = await pickup(token, { collected_by: { name: 'Baraka Mushi', relationship: 'son' } });
    expect(noId.status).toBe(400);
    expect(noId.body.errors[0].path).toBe('collected_by.id_number');
    const sale = await pickup(token, { payment_method: 'card' });
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    const book = await t.get<Json>(
      `/api/v1/compliance/classified-drugs-book?medicine_id=${tramadol.id}&branch_id=${main}`,
      admin,
    );
    const out = (book.body.items[0].movements as Json[]).filter((m) => m.quantity < 0);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({
      type: 'sale',
      quantity: -2,
      reference_type: 'sale',
      reference_id: sale.body.id,
      collected_by_name: 'Baraka Mushi',
      collector_id_number: 'NID-2741',
    });
    expect(book.body.items[0].balanced).toBe(true);
  });

  it('27.1: a will-call not collected goes back to stock and releases its reservation', async () => {
    const { tramadol, zithromax, rx, wc, pickup } = await prepared();
    expect(await available(tramadol.id)).toBe(39);
    const back = await t.post<Json>(
      `/api/v1/dispensing/will-call/${wc.id}/return`,
      { reason: 'Not collected within 14 days' },
      pharmacist,
    );
    expect(back.status, JSON.stringify(back.body)).toBe(200);
    expect(back.body).toMatchObject({ status: 'returned', return_reason: 'Not collected within 14 days' });
    expect([await available(tramadol.id), await available(zithromax.id)]).toEqual([41, 83]);
    expect([await onHand(tramadol.id), await onHand(zithromax.id)]).toEqual([41, 83]);
    expect(
      await t.query<Json>('SELECT DISTINCT status FROM stock_reservations WHERE prescription_id = ?', rx.id),
    ).toEqual([{ status: 'released' }]);
    const rxAfter = await t.get<Json>(`/api/v1/prescriptions/${rx.id}`, pharmacist);
    expect(rxAfter.body.status).toBe('active');
    expect(rxAfter.body.dispensings).toEqual([]);
    const book = await t.get<Json>(`/api/v1/compliance/prescription-book?medicine_id=${tramadol.id}`, admin);
    expect(book.body.items).toEqual([]);
    expect(rxAfter.body.items.map((i: Json) => i.remaining_quantity)).toEqual([2, 1]);
    const twice = await t.post<Json>(
      `/api/v1/dispensing/will-call/${wc.id}/return`,
      { reason: 'x' },
      pharmacist,
    );
    expect(twice.status).toBe(409);
    const token = await till();
    const sale = await pickup(token, { payment_method: 'cash' });
    expect(sale.status).toBe(409);
    expect(sale.body.code).toBe('WILL_CALL_NOT_WAITING');
    // It can be dispensed again.
    expect((await t.post(`/api/v1/prescriptions/${rx.id}/dispense`, {}, pharmacist)).status).toBe(201);
  });
});
