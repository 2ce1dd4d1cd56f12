import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { dispenseForSale } from '../prescriptions/for-sale';
import { consumeFefo } from '../stock/fefo';
import {
  inDays,
  ledgerMismatches,
  makeMedicine,
  makeRx,
  makeSupplier,
  medicineOnHand,
  openSessionFor,
  receive,
} from '../../testing/factory';

let t: TestServer;
let admin: string;
let main: string;
let north: string;
let supplierId: string;
let pharmacist: string;
let auditor: string;
let cashier: string;
let northPharmacist: string;

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  await openSessionFor(t, admin);
  main = await t.mainBranchId();
  north = await t.createBranch('NORTH');
  supplierId = (await makeSupplier(t)).id;
  pharmacist = (await t.userWithRole('pharmacist')).token;
  auditor = (await t.userWithRole('auditor')).token;
  cashier = (await t.userWithRole('cashier')).token;
  northPharmacist = (await t.userWithRole('pharmacist', north)).token;
}, 60_000);
afterAll(() => t.close());

interface Movement {
  id: string;
  type: string;
  quantity: number;
  balance_after: number;
  reference_type: string | null;
  prescription_id: string | null;
  patient_name: string | null;
  prescriber_name: string | null;
  collected_by_name: string | null;
  collector_id_number: string | null;
}
interface Entry {
  medicine_id: string;
  branch_id: string;
  opening_balance: number;
  closing_balance: number;
  on_hand: number;
  balanced: boolean;
  movements: Movement[];
}

/** A sale against a prescription the way the selling module does it: its own FEFO movements plus dispenseForSale. */
async function sellAgainst(rxId: string, medicineId: string, quantity: number, userId: string) {
  const saleId = `sale-${Math.random().toString(36).slice(2)}`;
  await t.context.db.transaction().execute(async (trx) => {
    await consumeFefo(trx, {
      branchId: main,
      medicineId,
      quantity,
      movementType: 'sale',
      reference: { type: 'sale', id: saleId },
      userId,
    });
    await dispenseForSale(trx, {
      prescriptionId: rxId,
      branchId: main,
      saleId,
      userId,
      lines: [{ medicineId, quantity }],
    });
  });
  return saleId;
}

describe('compliance books', () => {
  it('the classified drugs book balance equals stock after receipts, dispensings, write-offs and transfers', async () => {
    const pethidine = await makeMedicine(t, {
      name: 'Pethidine 50mg',
      generic_name: 'pethidine',
      is_controlled: true,
    });
    const plain = await makeMedicine(t, { name: 'Plain Paracetamol' });
    const b1 = await receive(t, pethidine.id, supplierId, { qty_received: 30, expiry_date: inDays(200) });
    await receive(t, pethidine.id, supplierId, { qty_received: 12, expiry_date: inDays(100) });
    await receive(t, plain.id, supplierId, { qty_received: 5 });
    const rx = await makeRx(t, pharmacist, [
      { medicine_id: pethidine.id, quantity: 10 },
      { medicine_id: plain.id, quantity: 2 },
    ]);
    await t.post(
      `/api/v1/prescriptions/${rx.id}/dispense`,
      { items: [{ medicine_id: pethidine.id, quantity: 4 }] },
      pharmacist,
    );
    const user = await t.userWithRole('pharmacist');
    const saleId = await sellAgainst(rx.id, pethidine.id, 3, user.id);
    const wo = await t.put(
      `/api/v1/purchases/${b1.id}/write-off`,
      { quantity: 2, reason: 'broken ampoules' },
      admin,
    );
    expect(wo.status).toBe(200);
    const tr = await t.post<{ id: string }>(
      '/api/v1/transfers',
      { to_branch_id: north, items: [{ medicine_id: pethidine.id, quantity: 5 }] },
      admin,
    );
    expect(tr.status).toBe(201);
    expect((await t.post(`/api/v1/transfers/${tr.body.id}/receive`, {}, admin)).status).toBe(200);
    await t.post(`/api/v1/prescriptions/${rx.id}/dispense`, {}, pharmacist);
    const wc = await t.post<{ id: string }>(
      '/api/v1/dispensing/will-call',
      { prescription_id: rx.id, bin_location: 'CD safe' },
      pharmacist,
    );
    // The pickup is a sale: it takes the units reserved at dispensing (issue 27.1).
    await openSessionFor(t, pharmacist);
    const pickup = await t.post(
      '/api/v1/sales',
      {
        items: [
          { medicine_id: pethidine.id, quantity: 7 },
          { medicine_id: plain.id, quantity: 2 },
        ],
        will_call_id: wc.body.id,
        collected_by: { name: 'Neema', relationship: 'daughter', id_number: 'NID-42' },
        payment_method: 'card',
        print_receipt: false,
      },
      pharmacist,
    );
    expect(pickup.status, JSON.stringify(pickup.body)).toBe(201);

    const book = await t.get<{ items: Entry[]; total: number }>(
      `/api/v1/compliance/classified-drugs-book?medicine_id=${pethidine.id}`,
      auditor,
    );
    expect(book.status).toBe(200);
    const mainEntry = book.body.items.find((e) => e.branch_id === main)!;
    const northEntry = book.body.items.find((e) => e.branch_id === north)!;
    expect(mainEntry.opening_balance).toBe(0);
    expect(mainEntry.closing_balance).toBe(await medicineOnHand(t, pethidine.id, main));
    expect(mainEntry.closing_balance).toBe(42 - 4 - 3 - 2 - 5 - 3);
    expect(mainEntry.balanced).toBe(true);
    expect(northEntry.closing_balance).toBe(await medicineOnHand(t, pethidine.id, north));
    expect(northEntry.closing_balance).toBe(5);
    let running = 0;
    for (const m of mainEntry.movements) {
      running += m.quantity;
      expect(m.balance_after).toBe(running);
    }
    // The prepared units were held, not moved, until the pickup's sale took them from their batches.
    expect(mainEntry.movements.map((m) => m.type)).toEqual([
      'purchase',
      'purchase',
      'sale',
      'write_off',
      'transfer_out',
      'sale',
      'sale',
    ]);
    const dispensed = mainEntry.movements.filter(
      (m) => m.reference_type === 'dispense' || m.reference_type === 'sale',
    );
    expect(dispensed).toHaveLength(3);
    for (const m of dispensed)
      expect(m).toMatchObject({
        prescription_id: rx.id,
        patient_name: 'Amina Juma',
        prescriber_name: 'Dr. Mushi',
      });
    const last = dispensed.at(-1)!;
    expect(last).toMatchObject({ collected_by_name: 'Neema', collector_id_number: 'NID-42' });
    expect(mainEntry.movements.filter((m) => m.reference_type === 'sale').length).toBeGreaterThan(0);
    // plain medicines are not in the book
    const all = await t.get<{ items: Entry[] }>('/api/v1/compliance/classified-drugs-book', auditor);
    expect(all.body.items.some((e) => e.medicine_id === plain.id)).toBe(false);

    const after = await t.get<{ items: Entry[] }>(
      `/api/v1/compliance/classified-drugs-book?medicine_id=${pethidine.id}&branch_id=${main}&from=${inDays(2)}`,
      auditor,
    );
    expect(after.body.items[0]).toMatchObject({
      opening_balance: await medicineOnHand(t, pethidine.id, main),
      closing_balance: await medicineOnHand(t, pethidine.id, main),
      movements: [],
    });

    // The branch-bound view is their own branch.
    const northView = await t.get<{ items: Entry[] }>(
      `/api/v1/compliance/classified-drugs-book?branch_id=${main}`,
      northPharmacist,
    );
    expect(northView.body.items.every((e) => e.branch_id === north)).toBe(true);
    expect(await ledgerMismatches(t)).toEqual([]);

    // The prescription book lists each dispensing once.
    const pb = await t.get<{
      items: Array<{
        id: string;
        prescription_id: string;
        source: string;
        sale_id: string | null;
        quantity: number;
        medicine_id: string;
      }>;
      total: number;
    }>(`/api/v1/compliance/prescription-book?page_size=200`, pharmacist);
    expect(pb.status).toBe(200);
    const mine = pb.body.items.filter((r) => r.prescription_id === rx.id);
    const dispensingRows = await t.query<{ id: string }>(
      'SELECT id FROM dispensings WHERE prescription_id = ?',
      rx.id,
    );
    expect(mine.map((r) => r.id).sort()).toEqual(dispensingRows.map((r) => r.id).sort());
    expect(new Set(mine.map((r) => r.id)).size).toBe(mine.length);
    expect(mine.map((r) => [r.source, r.quantity])).toEqual([
      ['dispense', 4],
      ['sale', 3],
      ['dispense', 3],
      ['dispense', 2],
    ]);
    expect(mine.find((r) => r.source === 'sale')!.sale_id).toBe(saleId);
    expect(mine.reduce((s, r) => s + (r.medicine_id === pethidine.id ? r.quantity : 0), 0)).toBe(10);

    const csv = await t.request('GET', `/api/v1/compliance/prescription-book?format=csv&branch_id=${main}`, {
      token: auditor,
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get('content-type')).toMatch(/text\/csv/);
    const lines = String(csv.body).trim().split('\r\n');
    expect(lines[0]).toMatch(/^dispensed_at,branch_id,prescription_id,patient_name/);
    expect(lines.length).toBe(1 + pb.body.total);

    const northBook = await t.get<{ total: number }>('/api/v1/compliance/prescription-book', northPharmacist);
    expect(northBook.body.total).toBe(0);
    const future = await t.get<{ total: number }>(
      `/api/v1/compliance/prescription-book?from=${inDays(2)}`,
      auditor,
    );
    expect(future.body.total).toBe(0);
  });

  it('a window counts earlier movements in its opening balance', async () => {
    const m = await makeMedicine(t, { name: 'Diazepam 5mg', is_controlled: true });
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date(Date.now() - 10 * 86_400_000));
      await receive(t, m.id, supplierId, { qty_received: 20 });
    } finally {
      vi.useRealTimers();
    }
    const rx = await makeRx(t, pharmacist, [{ medicine_id: m.id, quantity: 5 }]);
    // Handed over through its will-call pickup sale (a hand-over is a sale, issue 27.1).
    expect((await t.post(`/api/v1/prescriptions/${rx.id}/dispense`, {}, pharmacist)).status).toBe(201);
    const wc = await t.post<{ id: string }>(
      '/api/v1/dispensing/will-call',
      { prescription_id: rx.id, bin_location: 'CD safe' },
      pharmacist,
    );
    if ((await t.get('/api/v1/sessions/current', pharmacist)).status === 404)
      await openSessionFor(t, pharmacist);
    const pickup = await t.post(
      '/api/v1/sales',
      {
        items: [{ medicine_id: m.id, quantity: 5 }],
        will_call_id: wc.body.id,
        collected_by: { name: 'Self', relationship: 'self', id_number: 'N1' },
        payment_method: 'card',
        print_receipt: false,
      },
      pharmacist,
    );
    expect(pickup.status, JSON.stringify(pickup.body)).toBe(201);
    const url = `/api/v1/compliance/classified-drugs-book?medicine_id=${m.id}&branch_id=${main}`;
    const recent = (await t.get<{ items: Entry[] }>(`${url}&from=${inDays(-5)}`, auditor)).body.items[0]!;
    expect(recent).toMatchObject({ opening_balance: 20, closing_balance: 15, on_hand: 15, balanced: true });
    expect(recent.movements.map((x) => [x.quantity, x.balance_after, x.collector_id_number])).toEqual([
      [-5, 15, 'N1'],
    ]);
    const old = (await t.get<{ items: Entry[] }>(`${url}&from=${inDays(-10)}&to=${inDays(-10)}`, auditor))
      .body.items[0]!;
    expect(old).toMatchObject({ opening_balance: 0, closing_balance: 20 });
    expect(old.movements.map((x) => x.type)).toEqual(['purchase']);
  });

  it('a real sale with prescription_id dispenses it, lands in both books, and has a fiscal preview', async () => {
    const m = await makeMedicine(t, {
      name: 'Tramadol 50mg',
      is_controlled: true,
      requires_prescription: true,
    });
    await receive(t, m.id, supplierId, { qty_received: 10 });
    const rx = await makeRx(t, pharmacist, [{ medicine_id: m.id, quantity: 6 }]);
    const sale = await t.post<{ id: string; invoice_number: string }>(
      '/api/v1/sales',
      {
        items: [{ medicine_id: m.id, quantity: 4 }],
        payment_lines: [{ method: 'cash', amount: 100 }],
        prescription_id: rx.id,
      },
      admin,
    );
    expect(sale.status).toBe(201);
    const after = await t.get<{
      status: string;
      items: Array<{ remaining_quantity: number }>;
      dispensings: Array<{ sale_id: string }>;
    }>(`/api/v1/prescriptions/${rx.id}`, pharmacist);
    expect(after.body.status).toBe('partially_dispensed');
    expect(after.body.items[0]!.remaining_quantity).toBe(2);
    expect(after.body.dispensings.map((d) => d.sale_id)).toEqual([sale.body.id]);
    const over = await t.post(
      '/api/v1/sales',
      {
        items: [{ medicine_id: m.id, quantity: 3 }],
        payment_lines: [{ method: 'cash', amount: 100 }],
        prescription_id: rx.id,
      },
      admin,
    );
    expect(over.status).toBe(409);
    expect(over.body.code).toBe('PRESCRIPTION_NOT_VALID');
    const book = await t.get<{ items: Entry[] }>(
      `/api/v1/compliance/classified-drugs-book?medicine_id=${m.id}`,
      auditor,
    );
    const saleMove = book.body.items[0]!.movements.find((x) => x.reference_type === 'sale')!;
    expect(saleMove).toMatchObject({ quantity: -4, prescription_id: rx.id, patient_name: 'Amina Juma' });
    expect(book.body.items[0]!.closing_balance).toBe(await medicineOnHand(t, m.id, main));

    const preview = await t.get<{
      sale_id: string;
      invoice_number: string;
      fiscal_xml: string;
      fiscal_hash: string;
      icv: number;
    }>(`/api/v1/compliance/fiscal-preview/${sale.body.id}`, auditor);
    expect(preview.status).toBe(200);
    expect(preview.body).toMatchObject({ sale_id: sale.body.id, invoice_number: sale.body.invoice_number });
    expect(preview.body.fiscal_xml.length).toBeGreaterThan(0);
    expect(preview.body.fiscal_hash).toMatch(/^[0-9a-f]{64}$/);
    expect((await t.get(`/api/v1/compliance/fiscal-preview/${sale.body.id}`, northPharmacist)).status).toBe(
      403,
    );
    expect((await t.get(`/api/v1/compliance/fiscal-preview/${sale.body.id}`, cashier)).status).toBe(200);
    expect(
      (await t.get('/api/v1/compliance/fiscal-preview/0190a000-0000-7000-8000-000000000000', auditor)).status,
    ).toBe(404);
    expect((await t.get('/api/v1/compliance/fiscal-preview/abc', auditor)).status).toBe(400);
  });

  it('refuses bad windows and roles', async () => {
    expect(
      (await t.get(`/api/v1/compliance/prescription-book?from=${inDays(2)}&to=${inDays(1)}`, auditor)).status,
    ).toBe(400);
    expect(
      (await t.get(`/api/v1/compliance/classified-drugs-book?from=${inDays(2)}&to=${inDays(1)}`, auditor))
        .status,
    ).toBe(400);
    expect((await t.get('/api/v1/compliance/prescription-book?from=yesterday', auditor)).status).toBe(400);
    expect((await t.get('/api/v1/compliance/prescription-book?format=pdf', auditor)).status).toBe(400);
    expect((await t.get('/api/v1/compliance/classified-drugs-book?medicine_id=1', auditor)).status).toBe(400);
    expect((await t.get('/api/v1/compliance/classified-drugs-book', cashier)).status).toBe(403);
    expect((await t.get('/api/v1/compliance/prescription-book', cashier)).status).toBe(403);
  });
});
