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

describe('27.1: a pushed will-call pickup sale', () => {
  it('27.1: central takes a cashier’s pickup sale of a controlled medicine when its will-call entry names the sale', async () => {
    const cashier = (await central.userWithRole('cashier')).token;
    await openSessionFor(central, cashier, 50);
    const med = await makeMedicineId(central, {
      price: 4,
      requires_prescription: true,
      is_controlled: true,
      name: 'Tramadol 50 pushed',
    });
    await addStock(central, med, 10);
    const prescription = await makeRx(central, pharmacist, [{ medicine_id: med, quantity: 2 }]);
    await central.post(`/api/v1/prescriptions/${prescription.id}/dispense`, {}, pharmacist);
    const wc = await central.post<{ id: string }>(
      '/api/v1/dispensing/will-call',
      { prescription_id: prescription.id, bin_location: 'CD' },
      pharmacist,
    );
    const sold = await central.post<{ id: string }>(
      '/api/v1/sales',
      {
        items: [{ medicine_id: med, quantity: 2 }],
        payment_method: 'cash',
        will_call_id: wc.body.id,
        collected_by: { name: 'Said', relationship: 'self', id_number: 'NID-1' },
      },
      cashier,
    );
    expect(sold.status, JSON.stringify(sold.body)).toBe(201);

    // A copy no will-call entry names: a cashier's controlled line without a pharmacist is refused.
    const unlinked = await pushedCopy(sold.body.id, {});
    const refused = await push(unlinked);
    expect(refused.body.rejected[0]).toMatchObject({ code: 'CONTROLLED_NEEDS_PHARMACIST' });

    // The till pushes the entry (naming its sale) before the sale: central takes the sale.
    const linked = await pushedCopy(sold.body.id, {});
    const [entry] = await central.query<Record<string, unknown>>(
      'SELECT * FROM will_calls WHERE id = ?',
      wc.body.id,
    );
    const entryPush = await central.request<{ rejected: unknown[] }>('POST', '/api/v1/sync/push', {
      body: {
        device_id: device.id,
        changes: [
          {
            client_mutation_id: newId(),
            entity: 'will_call',
            op: 'upsert',
            entity_id: wc.body.id,
            payload: { ...entry, sale_id: linked.id },
          },
        ],
      },
      headers: { 'x-device-token': device.token },
    });
    expect(entryPush.body.rejected, JSON.stringify(entryPush.body)).toHaveLength(0);
    const ok = await push(linked);
    expect(ok.body.rejected, JSON.stringify(ok.body)).toHaveLength(0);
  });
});
