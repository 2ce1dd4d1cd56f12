import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addStock, makeMedicineId, makeRx, openSessionFor } from '../../testing/factory';

/** Central applies the prescription rule of POST /sales to the sales tills push. */
let central: TestServer;
let pharmacist: string;
let device: { id: string; token: string };

beforeAll(async () => {
  central = await startTestServer({ mode: 'central' });
  pharmacist = (await central.userWithRole('pharmacist')).token;
  await openSessionFor(central, pharmacist, 50);
  device = await central.registerDevice('Till 1');
}, 60_000);
afterAll(() => central.close());

type Payload = Record<string, unknown> & { lines: Array<Record<string, unknown>> };
const push = (payload: Payload) =>
  central.request<{ accepted: unknown[]; rejected: Array<{ code: string; message?: string }> }>(
    'POST',
    '/api/v1/sync/push',
    {
      body: {
        device_id: device.id,
        changes: [
          { client_mutation_id: newId(), entity: 'sale', op: 'upsert', entity_id: payload.id, payload },
        ],
      },
      headers: { 'x-device-token': device.token },
    },
  );

/** A sale as a till would push it: a real sale's change, under new ids and fiscal position. */
async function pushedCopy(saleId: string, changes: Record<string, unknown>): Promise<Payload> {
  const [row] = await central.query<{ payload: string }>(
    "SELECT payload FROM change_log WHERE entity = 'sale' AND entity_id = ?",
    saleId,
  );
  const sale = JSON.parse(row!.payload) as Payload;
  const id = newId();
  return {
    ...sale,
    ...changes,
    id,
    icv: 900 + Math.floor(Math.random() * 1000),
    invoice_number: `T-${id}`,
    uuid: newId(),
    client_mutation_id: newId(),
    lines: sale.lines.map((l) => ({ ...l, id: newId(), sale_id: id })),
    payments: [],
    movement_ids: [],
  };
}

describe('27.2: a pushed sale follows the prescription rule', () => {
  it('27.2: central refuses a pushed sale of an Rx-only medicine without a prescription, naming it', async () => {
    const rx = await makeMedicineId(central, {
      price: 4,
      requires_prescription: true,
      name: 'Augmentin 375',
    });
    await addStock(central, rx, 10);
    const prescription = await makeRx(central, pharmacist, [{ medicine_id: rx, quantity: 1 }]);
    const sold = await central.post<{ id: string }>(
      '/api/v1/sales',
      { items: [{ medicine_id: rx, quantity: 1 }], payment_method: 'cash', prescription_id: prescription.id },
      pharmacist,
    );
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);
    const before = await central.count('sales');
    const bare = await pushedCopy(sold.body.id, { prescription_id: null });
    const refused = await push(bare);
    expect(refused.status).toBe(200);
    expect(refused.body.accepted).toHaveLength(0);
    expect(refused.body.rejected[0]).toMatchObject({ code: 'PRESCRIPTION_REQUIRED' });
    expect(JSON.stringify(refused.body.rejected[0])).toContain('Augmentin 375');
    expect(await central.count('sales')).toBe(before);

    const covered = await pushedCopy(sold.body.id, {});
    const ok = await push(covered);
    expect(ok.body.rejected, JSON.stringify(ok.body)).toHaveLength(0);
    expect(await central.count('sales')).toBe(before + 1);
  });
});
