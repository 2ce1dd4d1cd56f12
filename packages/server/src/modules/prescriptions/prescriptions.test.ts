import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { dispenseForSale } from './for-sale';
import {
  inDays,
  ledgerMismatches,
  makeMedicine,
  makeRx,
  makeSupplier,
  medicineOnHand,
  openSessionFor,
  receive,
  type Rx,
  rxBody,
} from '../../testing/factory';

let t: TestServer;
let admin: string;
let main: string;
let north: string;
let supplierId: string;
let pharmacist: string;
let cashier: string;
let manager: string;
let northPharmacist: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  main = await t.mainBranchId();
  north = await t.createBranch('NORTH');
  supplierId = (await makeSupplier(t)).id;
  pharmacist = (await t.userWithRole('pharmacist')).token;
  cashier = (await t.userWithRole('cashier')).token;
  manager = (await t.userWithRole('branch_manager')).token;
  northPharmacist = (await t.userWithRole('pharmacist', north)).token;
}, 60_000);
afterAll(() => t.close());

const controlledMed = () =>
  makeMedicine(t, {
    generic_name: 'morphine sulfate',
    strength: '10mg',
    form: 'tablet',
    is_controlled: true,
    requires_prescription: true,
  });
const plainMed = () =>
  makeMedicine(t, {
    generic_name: 'amoxicillin',
    strength: '500mg',
    form: 'capsule',
    requires_prescription: true,
  });
const counts = () =>
  t.counts([
    'prescriptions',
    'prescription_items',
    'dispensings',
    'will_calls',
    'stock_movements',
    'change_log',
    'audit_log',
  ]);

describe('prescription lifecycle', () => {
  it('create -> dispense partially -> dispense the rest -> will-call -> pickup with ID for a controlled medicine', async () => {
    const a = await controlledMed();
    const b = await plainMed();
    await receive(t, a.id, supplierId, { qty_received: 20 });
    await receive(t, b.id, supplierId, { qty_received: 20 });
    const rx = await makeRx(t, pharmacist, [
      { medicine_id: a.id, quantity: 10, dosage: '1 at night' },
      { medicine_id: b.id, quantity: 6, refills_allowed: 0 },
    ]);
    expect(rx.status).toBe('active');
    expect(rx.branch_id).toBe(main);
    expect(rx.valid_until).toBe(inDays(13)); // issue (yesterday) + 14 days: controlled

    const first = await t.post<{ dispense_id: string; prescription: Rx }>(
      `/api/v1/prescriptions/${rx.id}/dispense`,
      { items: [{ medicine_id: a.id, quantity: 4 }] },
      pharmacist,
    );
    expect(first.status).toBe(201);
    expect(first.body.prescription.status).toBe('partially_dispensed');
    expect(first.body.prescription.items[0]).toMatchObject({ dispensed_quantity: 4, remaining_quantity: 6 });
    // Prepared for the will-call shelf: held, not taken (issue 27.1).
    expect(await medicineOnHand(t, a.id, main)).toBe(20);
    const moves = await t.query(
      "SELECT type, quantity FROM stock_movements WHERE reference_type = 'dispense' AND reference_id = ?",
      first.body.dispense_id,
    );
    expect(moves).toEqual([]);
    expect(
      await t.query(
        'SELECT status, quantity FROM stock_reservations WHERE dispense_id = ?',
        first.body.dispense_id,
      ),
    ).toEqual([{ status: 'held', quantity: 4 }]);

    const over = await t.post(
      `/api/v1/prescriptions/${rx.id}/dispense`,
      { items: [{ medicine_id: a.id, quantity: 7 }] },
      pharmacist,
    );
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('PRESCRIPTION_NOT_VALID');

    const rest = await t.post<{ prescription: Rx }>(
      `/api/v1/prescriptions/${rx.id}/dispense`,
      {},
      pharmacist,
    );
    expect(rest.status).toBe(201);
    expect(rest.body.prescription.status).toBe('dispensed');
    expect(rest.body.prescription.items.map((i) => i.remaining_quantity)).toEqual([0, 0]);
    expect(await medicineOnHand(t, a.id, main)).toBe(20);
    expect(await medicineOnHand(t, b.id, main)).toBe(20);

    const wc = await t.post<{ id: string; status: string; has_controlled: boolean; items: unknown[] }>(
      '/api/v1/dispensing/will-call',
      { prescription_id: rx.id, bin_location: 'W-12', notes: 'fridge no' },
      pharmacist,
    );
    expect(wc.status).toBe(201);
    expect(wc.body).toMatchObject({ status: 'waiting', has_controlled: true });
    expect(wc.body.items).toHaveLength(3);
    expect((await t.get<Rx>(`/api/v1/prescriptions/${rx.id}`, cashier)).body.status).toBe('ready');
    const shelf = await t.get<{ items: Array<{ id: string }> }>('/api/v1/dispensing/will-call', cashier);
    expect(shelf.body.items.map((i) => i.id)).toContain(wc.body.id);
    const again = await t.post(
      '/api/v1/dispensing/will-call',
      { prescription_id: rx.id, bin_location: 'W-13' },
      pharmacist,
    );
    expect(again.status).toBe(409);
    const whileReady = await t.post(`/api/v1/prescriptions/${rx.id}/dispense`, {}, pharmacist);
    expect(whileReady.status).toBe(409);

    // The pickup is a sale (issue 27.1): the old hand-over route refuses, the sale needs the collector's ID.
    const unpaid = await t.put(
      `/api/v1/dispensing/will-call/${wc.body.id}/pickup`,
      { name: 'Juma', relationship: 'son', id_number: 'ID-777' },
      cashier,
    );
    expect(unpaid.status).toBe(409);
    expect(unpaid.body.code).toBe('PICKUP_NEEDS_SALE');
    await openSessionFor(t, cashier);
    const pickupSale = (collected_by: Record<string, string>) =>
      t.post<{ id: string }>(
        '/api/v1/sales',
        {
          items: [
            { medicine_id: a.id, quantity: 10 },
            { medicine_id: b.id, quantity: 6 },
          ],
          will_call_id: wc.body.id,
          collected_by,
          payment_method: 'card',
          print_receipt: false,
        },
        cashier,
      );
    const before = await counts();
    const noId = await pickupSale({ name: 'Juma', relationship: 'son' });
    expect(noId.status).toBe(400);
    expect((noId.body as { detail?: string }).detail).toMatch(/ID document number is required/);
    expect(await counts()).toEqual(before);

    const sold = await pickupSale({ name: 'Juma', relationship: 'son', id_number: 'ID-777' });
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    expect(await medicineOnHand(t, a.id, main)).toBe(10);
    expect(await medicineOnHand(t, b.id, main)).toBe(14);
    const picked = await t.get<{
      items: Array<{
        id: string;
        status: string;
        collector_id_number: string;
        picked_up_at: string;
        sale_id: string;
      }>;
    }>('/api/v1/dispensing/will-call?status=picked_up', cashier);
    const entry = picked.body.items.find((i) => i.id === wc.body.id)!;
    expect(entry).toMatchObject({
      status: 'picked_up',
      collector_id_number: 'ID-777',
      sale_id: sold.body.id,
    });
    expect(entry.picked_up_at).toBeTruthy();
    expect((await t.get<Rx>(`/api/v1/prescriptions/${rx.id}`, cashier)).body.status).toBe('dispensed');
    const twice = await t.put(
      `/api/v1/dispensing/will-call/${wc.body.id}/pickup`,
      { name: 'X', relationship: 'self', id_number: '1' },
      cashier,
    );
    expect(twice.status).toBe(409);
    expect(twice.body.code).toBe('ALREADY_PICKED_UP');
    const waiting = await t.get<{ items: Array<{ id: string }> }>('/api/v1/dispensing/will-call', cashier);
    expect(waiting.body.items.map((i) => i.id)).not.toContain(wc.body.id);

    const nothing = await t.post(`/api/v1/prescriptions/${rx.id}/dispense`, {}, pharmacist);
    expect(nothing.status).toBe(409);
    const audit = (
      await t.query<{ action: string }>(
        'SELECT action FROM audit_log WHERE entity_id IN (?, ?) ORDER BY created_at, id',
        rx.id,
        wc.body.id,
      )
    ).map((r) => r.action);
    expect(audit).toEqual([
      'prescription.create',
      'prescription.dispense',
      'prescription.dispense',
      'will_call.create',
      'will_call.pickup',
    ]);
    const changes = await t.query(
      "SELECT entity, count(*) AS n FROM change_log WHERE entity IN ('prescription', 'dispensing', 'will_call') GROUP BY entity ORDER BY entity",
    );
    expect(changes.length).toBe(3);
    // Replication order: a row's parents are logged before it (central applies changes in revision order).
    const firstRevision = async (entity: string, id: string | null) =>
      id === null
        ? 0
        : (
            await t.query<{ r: number }>(
              'SELECT min(revision) AS r FROM change_log WHERE entity = ? AND entity_id = ?',
              entity,
              id,
            )
          )[0]?.r;
    const logged = await t.query<{ revision: number; payload: string }>(
      "SELECT revision, payload FROM change_log WHERE entity = 'dispensing' ORDER BY revision",
    );
    expect(logged.length).toBeGreaterThan(0);
    for (const row of logged) {
      const d = JSON.parse(row.payload) as {
        prescription_id: string;
        prescription_item_id: string;
        will_call_id: string | null;
      };
      expect(await firstRevision('prescription', d.prescription_id)).toBeLessThan(row.revision);
      expect(await firstRevision('prescription_item', d.prescription_item_id)).toBeLessThan(row.revision);
      expect(await firstRevision('will_call', d.will_call_id)).toBeLessThan(row.revision);
    }
    expect(await ledgerMismatches(t)).toEqual([]);
  });

  it('27.1: a dispense with collected_by is refused with HANDOVER_NEEDS_SALE and takes no stock', async () => {
    const a = await controlledMed();
    await receive(t, a.id, supplierId, { qty_received: 5 });
    const rx = await makeRx(t, pharmacist, [{ medicine_id: a.id, quantity: 2 }]);
    const before = [...(await counts()), ...(await t.counts(['stock_reservations']))];
    for (const collected_by of [
      { name: 'Amina Juma', relationship: 'self', id_number: 'NID-123' },
      // the ID a controlled medicine needs is not what is missing: the hand-over itself is refused
      { name: 'Self', relationship: 'self' },
    ]) {
      const refused = await t.post(`/api/v1/prescriptions/${rx.id}/dispense`, { collected_by }, pharmacist);
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({
        code: 'HANDOVER_NEEDS_SALE',
        detail: 'Hand over through Sell: a hand-over is a sale (the prescription is linked to it)',
      });
    }
    expect([...(await counts()), ...(await t.counts(['stock_reservations']))]).toEqual(before);
    expect(await medicineOnHand(t, a.id, main)).toBe(5);
    expect((await t.get<Rx>(`/api/v1/prescriptions/${rx.id}`, pharmacist)).body).toMatchObject({
      status: 'active',
      dispensings: [],
    });

    // Without collected_by the dispensing still prepares for the will-call shelf: held, not taken.
    const prepared = await t.post<{ dispense_id: string; prescription: Rx }>(
      `/api/v1/prescriptions/${rx.id}/dispense`,
      {},
      pharmacist,
    );
    expect(prepared.status).toBe(201);
    expect(prepared.body.prescription.dispensings[0]!.will_call_id).toBeNull();
    expect(await medicineOnHand(t, a.id, main)).toBe(5);
    expect(
      await t.query(
        'SELECT status, quantity FROM stock_reservations WHERE dispense_id = ?',
        prepared.body.dispense_id,
      ),
    ).toEqual([{ status: 'held', quantity: 2 }]);

    // Selling with prescription_id still dispenses and hands over through the sale.
    const sold = await makeRx(t, pharmacist, [{ medicine_id: a.id, quantity: 1 }]);
    await openSessionFor(t, pharmacist);
    const sale = await t.post<{ id: string }>(
      '/api/v1/sales',
      {
        items: [{ medicine_id: a.id, quantity: 1 }],
        prescription_id: sold.id,
        payment_method: 'card',
        print_receipt: false,
      },
      pharmacist,
    );
    expect(sale.status, JSON.stringify(sale.body)).toBe(201);
    expect(await medicineOnHand(t, a.id, main)).toBe(4);
    const after = (await t.get<Rx>(`/api/v1/prescriptions/${sold.id}`, pharmacist)).body;
    expect(after.status).toBe('dispensed');
    expect(after.dispensings).toMatchObject([{ quantity: 1, sale_id: sale.body.id }]);
  });

  it('refills: a fully dispensed prescription re-opens its quantities up to refills_allowed', async () => {
    const m = await plainMed();
    await receive(t, m.id, supplierId, { qty_received: 50 });
    const rx = await makeRx(t, pharmacist, [{ medicine_id: m.id, quantity: 10, refills_allowed: 2 }]);
    expect(rx.valid_until).toBe(inDays(29));
    const fill1 = await t.post<{ prescription: Rx }>(
      `/api/v1/prescriptions/${rx.id}/dispense`,
      {},
      pharmacist,
    );
    expect(fill1.body.prescription.status).toBe('dispensed');
    const fill2 = await t.post<{ prescription: Rx }>(
      `/api/v1/prescriptions/${rx.id}/dispense`,
      { items: [{ medicine_id: m.id, quantity: 4 }] },
      pharmacist,
    );
    expect(fill2.status).toBe(201);
    expect(fill2.body.prescription.status).toBe('partially_dispensed');
    expect(fill2.body.prescription.items[0]).toMatchObject({
      refills_used: 1,
      dispensed_quantity: 4,
      remaining_quantity: 6,
      total_dispensed: 14,
    });
    const rest2 = await t.post<{ prescription: Rx }>(
      `/api/v1/prescriptions/${rx.id}/dispense`,
      {},
      pharmacist,
    );
    expect(rest2.body.prescription.items[0]).toMatchObject({
      refills_used: 1,
      remaining_quantity: 0,
      total_dispensed: 20,
    });
    const fill3 = await t.post<{ prescription: Rx }>(
      `/api/v1/prescriptions/${rx.id}/dispense`,
      {},
      pharmacist,
    );
    expect(fill3.body.prescription.items[0]).toMatchObject({ refills_used: 2, total_dispensed: 30 });
    expect(fill3.body.prescription.dispensings.map((d) => d.fill_number)).toEqual([1, 2, 2, 3]);
    const fill4 = await t.post(`/api/v1/prescriptions/${rx.id}/dispense`, {}, pharmacist);
    expect(fill4.status).toBe(409);
    expect(fill4.body.detail).toMatch(/every fill and refill/);
    const tooMuch = await makeRx(t, pharmacist, [{ medicine_id: m.id, quantity: 2, refills_allowed: 1 }]);
    await t.post(`/api/v1/prescriptions/${tooMuch.id}/dispense`, {}, pharmacist);
    const big = await t.post(
      `/api/v1/prescriptions/${tooMuch.id}/dispense`,
      { items: [{ medicine_id: m.id, quantity: 3 }] },
      pharmacist,
    );
    expect(big.status).toBe(409);
    // Prepared fills are held for the shelf, not taken: on hand stays, available drops.
    expect(await medicineOnHand(t, m.id, main)).toBe(50);
    const held = await t.query<{ n: number }>(
      "SELECT sum(quantity) AS n FROM stock_reservations WHERE medicine_id = ? AND status = 'held'",
      m.id,
    );
    expect(held[0]!.n).toBe(30 + 2);
  });

  it('refuses short stock (INSUFFICIENT_STOCK), medicines not on the prescription and expired prescriptions, writing nothing', async () => {
    const m = await plainMed();
    const other = await plainMed();
    await receive(t, m.id, supplierId, { qty_received: 3 });
    const rx = await makeRx(t, pharmacist, [{ medicine_id: m.id, quantity: 5 }]);
    const before = await counts();
    const short = await t.post(`/api/v1/prescriptions/${rx.id}/dispense`, {}, pharmacist);
    expect(short.status).toBe(409);
    expect(short.body.code).toBe('INSUFFICIENT_STOCK');
    const notOn = await t.post(
      `/api/v1/prescriptions/${rx.id}/dispense`,
      { items: [{ medicine_id: other.id, quantity: 1 }] },
      pharmacist,
    );
    expect(notOn.status).toBe(400);
    for (const body of [
      { items: [] },
      { items: [{ medicine_id: m.id, quantity: -1 }] },
      { items: [{ medicine_id: m.id, quantity: 1.5 }] },
      { notes: 'x'.repeat(10_000) },
      { extra: 1 },
    ]) {
      const res = await t.post(`/api/v1/prescriptions/${rx.id}/dispense`, body, pharmacist);
      expect(res.status).toBe(400);
      expect(res.body.detail).toBeTruthy();
    }
    await t.exec(
      'UPDATE prescriptions SET valid_until = ?, issue_date = ? WHERE id = ?',
      inDays(-3),
      inDays(-40),
      rx.id,
    );
    const expired = await t.post(
      `/api/v1/prescriptions/${rx.id}/dispense`,
      { items: [{ medicine_id: m.id, quantity: 1 }] },
      pharmacist,
    );
    expect(expired.status).toBe(409);
    expect(expired.body.detail).toMatch(/expired/);
    expect(await counts()).toEqual(before);
    expect((await t.get<Rx>(`/api/v1/prescriptions/${rx.id}`, pharmacist)).body.status).toBe('expired');
    const list = await t.get<{ items: Array<{ id: string }> }>(
      '/api/v1/prescriptions?status=expired',
      pharmacist,
    );
    expect(list.body.items.map((i) => i.id)).toContain(rx.id);
    const active = await t.get<{ items: Array<{ id: string }> }>(
      '/api/v1/prescriptions?status=active&page_size=200',
      pharmacist,
    );
    expect(active.body.items.map((i) => i.id)).not.toContain(rx.id);
  });
});

describe('POST /prescriptions validation', () => {
  it('refuses bad input with 4xx and writes nothing', async () => {
    const m = await plainMed();
    const c = await controlledMed();
    const inactive = await makeMedicine(t, { is_active: false });
    const before = await counts();
    const cases: Array<[unknown, number]> = [
      [rxBody([{ medicine_id: m.id, quantity: 1 }], { issue_date: inDays(3) }), 400],
      [rxBody([{ medicine_id: c.id, quantity: 1, refills_allowed: 1 }]), 400],
      [rxBody([{ medicine_id: c.id, quantity: 1 }], { valid_until: inDays(40) }), 400],
      [rxBody([{ medicine_id: m.id, quantity: 1 }], { valid_until: inDays(-2) }), 400],
      [
        rxBody([
          { medicine_id: m.id, quantity: 1 },
          { medicine_id: m.id, quantity: 2 },
        ]),
        400,
      ],
      [rxBody([{ medicine_id: inactive.id, quantity: 1 }]), 400],
      [rxBody([{ medicine_id: '0190a000-0000-7000-8000-000000000000', quantity: 1 }]), 404],
      [rxBody([]), 400],
      [rxBody([{ medicine_id: m.id, quantity: 0 }]), 400],
      [rxBody([{ medicine_id: m.id, quantity: 2.5 }]), 400],
      [rxBody([{ medicine_id: m.id, quantity: 1, refills_allowed: -1 }]), 400],
      [rxBody([{ medicine_id: m.id, quantity: 1 }], { issue_date: '2025-02-30' }), 400],
      [rxBody([{ medicine_id: m.id, quantity: 1 }], { patient_name: '' }), 400],
      [rxBody([{ medicine_id: m.id, quantity: 1 }], { patient_name: 'x'.repeat(5000) }), 400],
      [rxBody([{ medicine_id: m.id, quantity: 1 }], { prescriber_licence_no: 'a\u0000b' }), 400],
      [rxBody([{ medicine_id: m.id, quantity: 1 }], { branch_id: north }), 403],
      [rxBody([{ medicine_id: m.id, quantity: 1 }], { branch_id: 'nope' }), 400],
      [rxBody([{ medicine_id: "' OR 1=1 --", quantity: 1 }]), 400],
    ];
    for (const [body, status] of cases) {
      const res = await t.post('/api/v1/prescriptions', body, pharmacist);
      expect([JSON.stringify(body).slice(0, 80), res.status]).toEqual([
        JSON.stringify(body).slice(0, 80),
        status,
      ]);
      expect(String(res.body.detail ?? '')).not.toBe('');
    }
    expect(await counts()).toEqual(before);
    expect(
      (await t.post('/api/v1/prescriptions', rxBody([{ medicine_id: m.id, quantity: 1 }]), cashier)).status,
    ).toBe(403);
  });

  it('stores unicode and SQL meta-characters as text; admin registers in another branch', async () => {
    const m = await plainMed();
    const rx = await makeRx(t, admin, [{ medicine_id: m.id, quantity: 1 }], {
      patient_name: "Zoë O'Brien 💊; DROP TABLE prescriptions; --",
      branch_id: north,
    });
    expect(rx.branch_id).toBe(north);
    const got = await t.get<{ patient_name: string }>(`/api/v1/prescriptions/${rx.id}`, northPharmacist);
    expect(got.body.patient_name).toBe("Zoë O'Brien 💊; DROP TABLE prescriptions; --");
    const found = await t.get<{ items: Array<{ id: string }> }>(
      `/api/v1/prescriptions?patient=${encodeURIComponent("O'Brien")}`,
      northPharmacist,
    );
    expect(found.body.items.map((i) => i.id)).toEqual([rx.id]);
    const pct = await t.get<{ total: number }>('/api/v1/prescriptions?patient=%25', northPharmacist);
    expect(pct.body.total).toBe(0);
  });
});

describe('patients as customers', () => {
  it('checks customer_id against customers and filters by it', async () => {
    const m = await plainMed();
    const customer = await t.post<{ id: string }>(
      '/api/v1/customers',
      { name: 'Rehema Ally', phone: '+255700000009' },
      admin,
    );
    expect(customer.status).toBe(201);
    const before = await counts();
    const unknown = await t.post(
      '/api/v1/prescriptions',
      rxBody([{ medicine_id: m.id, quantity: 1 }], { customer_id: '0190a000-0000-7000-8000-000000000002' }),
      pharmacist,
    );
    expect(unknown.status).toBe(404);
    expect(await counts()).toEqual(before);
    const rx = await makeRx(t, pharmacist, [{ medicine_id: m.id, quantity: 1 }], {
      customer_id: customer.body.id,
      patient_name: 'Rehema Ally',
    });
    const list = await t.get<{ items: Array<{ id: string }> }>(
      `/api/v1/prescriptions?customer_id=${customer.body.id}`,
      pharmacist,
    );
    expect(list.body.items.map((i) => i.id)).toEqual([rx.id]);
  });
});

describe('branch scoping and unknown ids', () => {
  it('403 for another branch, 404 for unknown ids, lists scoped to the caller', async () => {
    const m = await plainMed();
    await receive(t, m.id, supplierId, { qty_received: 5 });
    const rx = await makeRx(t, pharmacist, [{ medicine_id: m.id, quantity: 1 }]);
    const before = await counts();
    expect((await t.get(`/api/v1/prescriptions/${rx.id}`, northPharmacist)).status).toBe(403);
    expect((await t.post(`/api/v1/prescriptions/${rx.id}/dispense`, {}, northPharmacist)).status).toBe(403);
    expect((await t.post(`/api/v1/prescriptions/${rx.id}/cancel`, {}, northPharmacist)).status).toBe(403);
    expect(
      (
        await t.post(
          '/api/v1/dispensing/will-call',
          { prescription_id: rx.id, bin_location: 'A' },
          northPharmacist,
        )
      ).status,
    ).toBe(403);
    expect(await counts()).toEqual(before);
    const unknown = '0190a000-0000-7000-8000-000000000001';
    expect((await t.get(`/api/v1/prescriptions/${unknown}`, pharmacist)).status).toBe(404);
    expect((await t.post(`/api/v1/prescriptions/${unknown}/dispense`, {}, pharmacist)).status).toBe(404);
    expect(
      (
        await t.post(
          '/api/v1/dispensing/will-call',
          { prescription_id: unknown, bin_location: 'A' },
          pharmacist,
        )
      ).status,
    ).toBe(404);
    expect((await t.get('/api/v1/prescriptions/not-a-uuid', pharmacist)).status).toBe(400);
    const northList = await t.get<{ items: Array<{ branch_id: string }> }>(
      `/api/v1/prescriptions?branch_id=${main}`,
      northPharmacist,
    );
    expect(northList.body.items.every((i) => i.branch_id === north)).toBe(true);
    const adminList = await t.get<{ items: Array<{ id: string }> }>(
      `/api/v1/prescriptions?branch_id=${main}&page_size=200`,
      admin,
    );
    expect(adminList.body.items.map((i) => i.id)).toContain(rx.id);
    expect((await t.get('/api/v1/prescriptions?page_size=1000', admin)).status).toBe(400);
    expect((await t.get('/api/v1/prescriptions?status=lost', admin)).status).toBe(400);
  });
});

describe('POST /prescriptions/{id}/cancel', () => {
  it('cancels freely while nothing is dispensed; needs a reason after; refuses ready, complete and cancelled', async () => {
    const m = await plainMed();
    await receive(t, m.id, supplierId, { qty_received: 30 });
    const fresh = await makeRx(t, pharmacist, [{ medicine_id: m.id, quantity: 4 }]);
    expect((await t.post(`/api/v1/prescriptions/${fresh.id}/cancel`, {}, cashier)).status).toBe(403);
    const c1 = await t.post<Rx>(`/api/v1/prescriptions/${fresh.id}/cancel`, {}, manager);
    expect(c1.status).toBe(200);
    expect(c1.body.status).toBe('cancelled');
    expect((await t.post(`/api/v1/prescriptions/${fresh.id}/cancel`, {}, manager)).status).toBe(409);
    expect((await t.post(`/api/v1/prescriptions/${fresh.id}/dispense`, {}, pharmacist)).status).toBe(409);

    const partial = await makeRx(t, pharmacist, [{ medicine_id: m.id, quantity: 4 }]);
    await t.post(
      `/api/v1/prescriptions/${partial.id}/dispense`,
      { items: [{ medicine_id: m.id, quantity: 1 }] },
      pharmacist,
    );
    const before = await counts();
    const noReason = await t.post(`/api/v1/prescriptions/${partial.id}/cancel`, {}, pharmacist);
    expect(noReason.status).toBe(400);
    expect(noReason.body.code).toBe('REASON_REQUIRED');
    expect(await counts()).toEqual(before);
    const withReason = await t.post<Rx & { cancel_reason: string }>(
      `/api/v1/prescriptions/${partial.id}/cancel`,
      { reason: 'Prescriber changed therapy' },
      pharmacist,
    );
    expect(withReason.status).toBe(200);
    expect(withReason.body).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'Prescriber changed therapy',
    });
    expect(withReason.body.dispensings).toHaveLength(1);

    const ready = await makeRx(t, pharmacist, [{ medicine_id: m.id, quantity: 2 }]);
    await t.post(`/api/v1/prescriptions/${ready.id}/dispense`, {}, pharmacist);
    await t.post(
      '/api/v1/dispensing/will-call',
      { prescription_id: ready.id, bin_location: 'B1' },
      pharmacist,
    );
    expect(
      (await t.post(`/api/v1/prescriptions/${ready.id}/cancel`, { reason: 'x' }, pharmacist)).status,
    ).toBe(409);

    const done = await makeRx(t, pharmacist, [{ medicine_id: m.id, quantity: 2 }]);
    expect((await t.post(`/api/v1/prescriptions/${done.id}/dispense`, {}, pharmacist)).status).toBe(201);
    expect(
      (await t.post(`/api/v1/prescriptions/${done.id}/cancel`, { reason: 'x' }, pharmacist)).status,
    ).toBe(409);

    const refillable = await makeRx(t, pharmacist, [{ medicine_id: m.id, quantity: 2, refills_allowed: 1 }]);
    await t.post(`/api/v1/prescriptions/${refillable.id}/dispense`, {}, pharmacist);
    expect((await t.post(`/api/v1/prescriptions/${refillable.id}/cancel`, {}, pharmacist)).status).toBe(400);
    expect(
      (
        await t.post(
          `/api/v1/prescriptions/${refillable.id}/cancel`,
          { reason: 'Refills withdrawn' },
          pharmacist,
        )
      ).status,
    ).toBe(200);
  });
});

describe('dispenseForSale', () => {
  it('records the dispensing in the caller’s transaction; a transaction that then throws leaves nothing', async () => {
    const m = await plainMed();
    const otc = await makeMedicine(t, {});
    const rx = await makeRx(t, pharmacist, [{ medicine_id: m.id, quantity: 5 }]);
    const user = await t.userWithRole('pharmacist');
    const before = await counts();
    await expect(
      t.context.db.transaction().execute(async (trx) => {
        const out = await dispenseForSale(trx, {
          prescriptionId: rx.id,
          branchId: main,
          saleId: 'sale-1',
          userId: user.id,
          lines: [{ medicineId: m.id, quantity: 2 }],
        });
        expect(out.coveredMedicineIds).toEqual([m.id]);
        throw new Error('sale failed later');
      }),
    ).rejects.toThrow('sale failed later');
    expect(await counts()).toEqual(before);
    expect(
      (await t.get<Rx>(`/api/v1/prescriptions/${rx.id}`, pharmacist)).body.items[0]!.dispensed_quantity,
    ).toBe(0);

    const out = await t.context.db.transaction().execute((trx) =>
      dispenseForSale(trx, {
        prescriptionId: rx.id,
        branchId: main,
        saleId: 'sale-2',
        userId: user.id,
        lines: [
          { medicineId: m.id, quantity: 2 },
          { medicineId: otc.id, quantity: 1 },
          { medicineId: m.id, quantity: 1 },
        ],
      }),
    );
    expect(out.coveredMedicineIds).toEqual([m.id]);
    const after = (await t.get<Rx>(`/api/v1/prescriptions/${rx.id}`, pharmacist)).body;
    expect(after.status).toBe('partially_dispensed');
    expect(after.items[0]!.remaining_quantity).toBe(2);
    expect(after.dispensings).toMatchObject([{ source: 'sale', quantity: 3 }]);

    const call = (input: Partial<Parameters<typeof dispenseForSale>[1]>) =>
      t.context.db.transaction().execute((trx) =>
        dispenseForSale(trx, {
          prescriptionId: rx.id,
          branchId: main,
          saleId: 's',
          userId: user.id,
          lines: [{ medicineId: m.id, quantity: 1 }],
          ...input,
        }),
      );
    await expect(call({ lines: [{ medicineId: m.id, quantity: 3 }] })).rejects.toMatchObject({
      status: 409,
      code: 'PRESCRIPTION_NOT_VALID',
    });
    await expect(call({ branchId: north })).rejects.toMatchObject({
      status: 409,
      code: 'PRESCRIPTION_NOT_VALID',
    });
    await expect(call({ prescriptionId: '0190a000-0000-7000-8000-000000000009' })).rejects.toMatchObject({
      status: 404,
    });
    await t.post(`/api/v1/prescriptions/${rx.id}/cancel`, { reason: 'test' }, pharmacist);
    await expect(call({})).rejects.toMatchObject({ status: 409, code: 'PRESCRIPTION_NOT_VALID' });
  });
});
