import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../lib/ids';
import { nowIso } from '../../lib/time';
import { startTestServer, type TestServer } from '../../testing/harness';
import { addStock, batchOnHand, makeMedicineId } from '../../testing/factory';

/**
 * A batch of insert-once changes (stock movements, sales) long enough to be applied set-wise on PostgreSQL
 * (push-setwise.ts) answers exactly as the one-by-one path does on SQLite: a failing change refused alone,
 * a repeated mutation id answered once, every accepted change with its own ascending revision, a replay
 * answered from the stored results. Runs on both dialects.
 */
let central: TestServer;
let device: { id: string; token: string };
let branchId: string;

type Answer = {
  accepted: Array<{ client_mutation_id: string; revision: number; id: string }>;
  rejected: Array<{ client_mutation_id: string; code: string }>;
};
const push = (changes: unknown[]) =>
  central.request<Answer>('POST', '/api/v1/sync/push', {
    body: { device_id: device.id, changes },
    headers: { 'x-device-token': device.token },
  });
const movementChange = (batchId: string, medicineId: string, clientMutationId = newId()) => {
  const id = newId();
  return {
    client_mutation_id: clientMutationId,
    entity: 'stock_movement',
    op: 'upsert',
    entity_id: id,
    payload: {
      id,
      batch_id: batchId,
      branch_id: branchId,
      medicine_id: medicineId,
      type: 'sale',
      quantity: -1,
      reference_type: 'sale',
      reference_id: newId(),
      user_id: null,
      reason: '',
      created_at: nowIso(),
    },
  };
};

beforeAll(async () => {
  central = await startTestServer({ mode: 'central' });
  branchId = await central.mainBranchId();
  device = await central.registerDevice('Runs till');
}, 60_000);
afterAll(() => central.close());

describe('a run of insert-once changes', () => {
  it('refuses a failing change alone, keeps the others, and answers a replay from the stored results', async () => {
    const med = await makeMedicineId(central, { price: 5 });
    const batch = await addStock(central, med, 100);
    const changes = Array.from({ length: 12 }, () => movementChange(batch, med));
    // The sixth names a batch central does not hold: refused (the movement's foreign key), the others applied.
    changes[5] = movementChange(newId(), med);
    const first = await push(changes);
    expect(first.status).toBe(200);
    expect(first.body.rejected.map((r) => [r.client_mutation_id, r.code])).toEqual([
      [changes[5]!.client_mutation_id, 'CONSTRAINT'],
    ]);
    expect(first.body.accepted).toHaveLength(11);
    const revisions = first.body.accepted.map((a) => a.revision);
    expect(revisions).toEqual([...revisions].sort((a, b) => a - b));
    expect(new Set(revisions).size).toBe(11);
    expect(await batchOnHand(central, batch)).toBe(89);

    const again = await push(changes);
    expect(again.body).toEqual(first.body);
    expect(await batchOnHand(central, batch)).toBe(89);
  });

  it('applies a mutation id repeated within the batch once', async () => {
    const med = await makeMedicineId(central, { price: 5 });
    const batch = await addStock(central, med, 100);
    const changes = Array.from({ length: 10 }, () => movementChange(batch, med));
    changes[7] = { ...changes[2]! };
    const res = await push(changes);
    expect(res.body.rejected).toEqual([]);
    expect(res.body.accepted.map((a) => a.client_mutation_id)).toEqual(
      changes.map((c) => c.client_mutation_id),
    );
    expect(res.body.accepted[7]).toEqual(res.body.accepted[2]);
    expect(await batchOnHand(central, batch)).toBe(91);
  });

  it('gives each accepted change the revision of its own change-log row', async () => {
    const med = await makeMedicineId(central, { price: 5 });
    const batch = await addStock(central, med, 100);
    const changes = Array.from({ length: 9 }, () => movementChange(batch, med));
    const res = await push(changes);
    for (const [i, a] of res.body.accepted.entries()) {
      const [row] = await central.query<{ revision: number }>(
        "SELECT revision FROM change_log WHERE entity = 'stock_movement' AND entity_id = ?",
        changes[i]!.entity_id,
      );
      expect(a.revision).toBe(row!.revision);
    }
  });

  it('refuses a change naming a row another branch holds (OTHER_BRANCH), read ahead for the run', async () => {
    const med = await makeMedicineId(central, { price: 5 });
    const other = await central.createBranch('RUNS2');
    const theirs = await addStock(central, med, 5, { branchId: other });
    const [movement] = await central.query<{ id: string }>(
      'SELECT id FROM stock_movements WHERE batch_id = ?',
      theirs,
    );
    const batch = await addStock(central, med, 100);
    const changes = Array.from({ length: 9 }, () => movementChange(batch, med));
    changes[4] = {
      ...changes[4]!,
      entity_id: movement!.id,
      payload: { ...changes[4]!.payload, id: movement!.id },
    };
    const res = await push(changes);
    expect(res.body.rejected.map((r) => r.code)).toEqual(['OTHER_BRANCH']);
    expect(res.body.accepted).toHaveLength(8);
    expect(await batchOnHand(central, batch)).toBe(92);
  });
});
