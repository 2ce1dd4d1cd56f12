import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addStock, makeMedicineId, makeRx, medicineOnHand, openSessionFor } from '../../testing/factory';
import { EMERGENCY_SUPPLY_PRESCRIBER } from './for-sale';

let t: TestServer;
let main: string;
let pharmacist: string;
let cashier: string;
let admin: string;

beforeAll(async () => {
  t = await startTestServer();
  main = await t.mainBranchId();
  admin = await t.adminToken();
  pharmacist = (await t.userWithRole('pharmacist')).token;
  cashier = (await t.userWithRole('cashier')).token;
  await openSessionFor(t, pharmacist, 50);
  await openSessionFor(t, cashier, 50);
  await openSessionFor(t, admin, 50);
}, 60_000);
afterAll(() => t.close());

type Body = Record<string, unknown>;
const sell = (body: Body, token: string) => t.post<Body>('/api/v1/sales', body, token);
const written = () => t.counts(['sales', 'sale_lines', 'stock_movements', 'prescriptions', 'dispensings']);

interface BookRow {
  sale_id: string | null;
  medicine_id: string;
  quantity: number;
  prescriber_name: string;
  patient_name: string;
  prescription_id: string;
}
const book = async (medicineId: string) =>
  (
    await t.get<{ items: BookRow[] }>(
      `/api/v1/compliance/prescription-book?medicine_id=${medicineId}&page_size=200`,
      admin,
    )
  ).body.items;

describe('27.2: a prescription-only line needs a prescription, whoever sells', () => {
  it('27.2: refuses an Rx-only line without a prescription for a pharmacist, an admin and a cashier, naming the medicine', async () => {
    const rx = await makeMedicineId(t, { price: 6, requires_prescription: true, name: 'Augmentin 625' });
    await addStock(t, rx, 10);
    const before = await written();
    for (const token of [pharmacist, admin, cashier]) {
      const res = await sell({ items: [{ medicine_id: rx, quantity: 1 }], payment_method: 'cash' }, token);
      expect(res.status, JSON.stringify(res.body)).toBe(403);
      expect(res.body.code).toBe('PRESCRIPTION_REQUIRED');
      expect(res.body.detail).toContain('Augmentin 625');
    }
    expect(await written()).toEqual(before);
    expect(await medicineOnHand(t, rx, main)).toBe(10);
    expect(await book(rx)).toEqual([]);
  });

  it('27.2: sells against an existing prescription and books the line in the prescription book', async () => {
    const rx = await makeMedicineId(t, { price: 6, requires_prescription: true, name: 'Augmentin 1g' });
    await addStock(t, rx, 10);
    const prescription = await makeRx(t, pharmacist, [{ medicine_id: rx, quantity: 2 }]);
    const sold = await sell(
      { items: [{ medicine_id: rx, quantity: 2 }], payment_method: 'cash', prescription_id: prescription.id },
      cashier,
    );
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    expect(sold.body.prescription_id).toBe(prescription.id);
    expect(await medicineOnHand(t, rx, main)).toBe(8);
    const rows = await book(rx);
    expect(rows.map((r) => [r.sale_id, r.quantity, r.prescription_id])).toEqual([
      [sold.body.id, 2, prescription.id],
    ]);
  });

  it('27.2: an emergency supply needs a pharmacist and a reason, and is listed in the prescription book with its sale', async () => {
    const rx = await makeMedicineId(t, { price: 6, requires_prescription: true, name: 'Ventolin inhaler' });
    await addStock(t, rx, 5);
    const emergency = { reason: 'Asthma attack, surgery closed', patient_name: 'Neema Said' };
    const before = await written();
    const byCashier = await sell(
      { items: [{ medicine_id: rx, quantity: 1 }], payment_method: 'cash', emergency_supply: emergency },
      cashier,
    );
    expect(byCashier.status).toBe(403);
    expect(byCashier.body.code).toBe('EMERGENCY_SUPPLY_NEEDS_PHARMACIST');
    expect(byCashier.body.detail).toContain('Ventolin inhaler');
    const noReason = await sell(
      {
        items: [{ medicine_id: rx, quantity: 1 }],
        payment_method: 'cash',
        emergency_supply: { reason: ' ', patient_name: 'Neema Said' },
      },
      pharmacist,
    );
    expect(noReason.status).toBe(400);
    expect(await written()).toEqual(before);

    const sold = await sell(
      { items: [{ medicine_id: rx, quantity: 1 }], payment_method: 'cash', emergency_supply: emergency },
      pharmacist,
    );
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    expect(await medicineOnHand(t, rx, main)).toBe(4);
    const rows = await book(rx);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      sale_id: sold.body.id,
      quantity: 1,
      prescriber_name: EMERGENCY_SUPPLY_PRESCRIBER,
      patient_name: 'Neema Said',
    });
    expect(sold.body.prescription_id).toBe(rows[0]!.prescription_id);
    const recorded = await t.get<{ notes: string; status: string }>(
      `/api/v1/prescriptions/${rows[0]!.prescription_id}`,
      admin,
    );
    expect(recorded.body.notes).toBe('Emergency supply: Asthma attack, surgery closed');
    expect(recorded.body.status).toBe('dispensed');
  });

  it('27.2: a controlled medicine has no emergency supply', async () => {
    const ctrl = await makeMedicineId(t, {
      price: 6,
      requires_prescription: true,
      is_controlled: true,
      name: 'Pethidine 50',
    });
    await addStock(t, ctrl, 5);
    const res = await sell(
      {
        items: [{ medicine_id: ctrl, quantity: 1 }],
        payment_method: 'cash',
        emergency_supply: { reason: 'pain', patient_name: 'X' },
      },
      pharmacist,
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('PRESCRIPTION_REQUIRED');
    expect(res.body.detail).toContain('Pethidine 50');
    expect(await medicineOnHand(t, ctrl, main)).toBe(5);
  });
});
