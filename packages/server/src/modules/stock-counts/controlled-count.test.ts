import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer, USER_PASSWORD } from '../../testing/harness';
import { makeMedicine, makeSupplier, medicineOnHand, receive } from '../../testing/factory';

let t: TestServer;
let admin: string;
let main: string;
let supplierId: string;
let cashier: { id: string; token: string; email: string };
let pharmacist: { id: string; token: string; email: string };

beforeAll(async () => {
  t = await startTestServer();
  admin = await t.adminToken();
  main = await t.mainBranchId();
  supplierId = (await makeSupplier(t)).id;
  cashier = await t.userWithRole('cashier');
  pharmacist = await t.userWithRole('pharmacist');
}, 60_000);
afterAll(() => t.close());

interface Movement {
  type: string;
  quantity: number;
  reason: string | null;
  user_id: string | null;
  reference_type: string | null;
}
const register = async (medicineId: string) => {
  const res = await t.get<{
    items: Array<{ movements: Movement[]; balanced: boolean; closing_balance: number }>;
  }>(`/api/v1/compliance/classified-drugs-book?medicine_id=${medicineId}`, admin);
  expect(res.status).toBe(200);
  return res.body.items[0]!;
};
const written = () => t.counts(['stock_counts', 'stock_count_lines', 'stock_movements']);
const submit = (body: Record<string, unknown>, token: string) =>
  t.post<Record<string, unknown>>('/api/v1/stockcount/submit', body, token);

describe('27.6: a controlled medicine count variance', () => {
  it('27.6: needs a reason and a pharmacist witness who is not the counter, and enters the register as a discrepancy', async () => {
    const diazepam = await makeMedicine(t, {
      name: 'Diazepam 5mg',
      is_controlled: true,
      requires_prescription: true,
    });
    const batch = await receive(t, diazepam.id, supplierId, { qty_received: 20 });
    const lines = [{ batch_id: batch.id, counted_qty: 18 }];
    const before = await written();

    const bare = await submit({ lines }, cashier.token);
    expect(bare.status).toBe(400);
    expect(bare.body.detail).toContain('Diazepam 5mg');
    const noWitness = await submit({ lines, variance_reason: 'Two tablets missing' }, cashier.token);
    expect(noWitness.status).toBe(403);
    expect(noWitness.body.code).toBe('WITNESS_REQUIRED');
    const refusedWitnesses = [
      { email: cashier.email, password: USER_PASSWORD }, // a cashier may not witness; nor the counter
      { email: pharmacist.email, password: 'not the password' },
    ];
    for (const witness of refusedWitnesses) {
      const res = await submit({ lines, variance_reason: 'Two tablets missing', witness }, cashier.token);
      expect(res.status).toBe(403);
      expect(res.body.code).toBe('WITNESS_INVALID');
    }
    const self = await submit(
      {
        lines,
        variance_reason: 'Two tablets missing',
        witness: { email: pharmacist.email, password: USER_PASSWORD },
      },
      pharmacist.token,
    );
    expect(self.status).toBe(403);
    expect(self.body.code).toBe('WITNESS_INVALID');
    expect(await written()).toEqual(before);
    expect(await medicineOnHand(t, diazepam.id, main)).toBe(20);

    const done = await submit(
      {
        lines,
        variance_reason: 'Two tablets missing',
        witness: { email: pharmacist.email, password: USER_PASSWORD },
      },
      cashier.token,
    );
    expect(done.status, JSON.stringify(done.body)).toBe(201);
    expect(done.body).toMatchObject({
      counted_by: cashier.id,
      witness_id: pharmacist.id,
      total_variance: -2,
    });
    expect(await medicineOnHand(t, diazepam.id, main)).toBe(18);
    const book = await register(diazepam.id);
    expect(book.closing_balance).toBe(18);
    expect(book.balanced).toBe(true);
    const count = book.movements.filter((m) => m.type === 'count');
    expect(count).toEqual([
      expect.objectContaining({
        quantity: -2,
        user_id: cashier.id,
        reference_type: 'stock_count',
        reason: 'Count discrepancy: Two tablets missing; witnessed by Test pharmacist',
      }),
    ]);
  });

  it('27.6: the approval threshold applies on top of the witness', async () => {
    const morphine = await makeMedicine(t, { name: 'Morphine 10mg', is_controlled: true });
    const batch = await receive(t, morphine.id, supplierId, { qty_received: 40 });
    const before = await written();
    const res = await submit(
      {
        lines: [{ batch_id: batch.id, counted_qty: 25 }],
        variance_reason: 'Broken vials',
        witness: { email: pharmacist.email, password: USER_PASSWORD },
      },
      cashier.token,
    );
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('APPROVAL_REQUIRED');
    expect(await written()).toEqual(before);
    expect(await medicineOnHand(t, morphine.id, main)).toBe(40);
  });

  it('27.6: an uncontrolled variance needs neither', async () => {
    const plain = await makeMedicine(t, { name: 'Paracetamol 500' });
    const batch = await receive(t, plain.id, supplierId, { qty_received: 10 });
    const res = await submit({ lines: [{ batch_id: batch.id, counted_qty: 9 }] }, cashier.token);
    expect(res.status).toBe(201);
    expect(res.body.witness_id).toBeNull();
  });
});
