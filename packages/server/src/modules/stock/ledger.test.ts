import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../db/connection';
import { startTestServer, type TestServer } from '../../testing/harness';
import { consumeFefo, consumeFefoLines } from './fefo';
import { branchStock, InsufficientStock, moveBatchQuantity } from './ledger';
import { receiveBatch } from './receive';
import { inDays, ledgerMismatches, makeMedicine, makeSupplier, receive } from '../../testing/factory';

let t: TestServer;
let branches: string[];
let userId: string;
beforeAll(async () => {
  t = await startTestServer();
  branches = [await t.mainBranchId(), await t.createBranch('LEDGER2')];
  userId = (await t.userWithRole('inventory_manager')).id;
});
afterAll(() => t.close());

type Op =
  | { kind: 'receive'; branch: number; batch: number; expiry: number; qty: number; cost: number }
  | { kind: 'consume'; branch: number; qty: number }
  | { kind: 'writeOff'; pick: number; qty: number }
  | { kind: 'transfer'; from: number; qty: number }
  | { kind: 'block'; pick: number };

const op: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('receive' as const),
    branch: fc.nat(1),
    batch: fc.nat(5),
    expiry: fc.integer({ min: -3, max: 6 }),
    qty: fc.integer({ min: 1, max: 40 }),
    cost: fc.nat(5000),
  }),
  fc.record({
    kind: fc.constant('consume' as const),
    branch: fc.nat(1),
    qty: fc.integer({ min: 1, max: 50 }),
  }),
  fc.record({
    kind: fc.constant('writeOff' as const),
    pick: fc.nat(50),
    qty: fc.integer({ min: 1, max: 20 }),
  }),
  fc.record({
    kind: fc.constant('transfer' as const),
    from: fc.nat(1),
    qty: fc.integer({ min: 1, max: 30 }),
  }),
  fc.record({ kind: fc.constant('block' as const), pick: fc.nat(50) }),
);

interface BatchState {
  id: string;
  branch_id: string;
  expiry_date: string;
  qty_on_hand: number;
  regulator_status: string;
}

/** The medicine's batches as the given transaction (or, by default, the server) sees them. */
const batchesOf = (medicineId: string, db: Db = t.context.db): Promise<BatchState[]> =>
  db
    .selectFrom('batches')
    .select(['id', 'branch_id', 'expiry_date', 'qty_on_hand', 'regulator_status'])
    .where('medicine_id', '=', medicineId)
    .orderBy('id')
    .execute();

describe('stock ledger (property)', () => {
  it('keeps every batch equal to the sum of its movements, never negative, and takes FEFO', async () => {
    const today = inDays(0);
    await fc.assert(
      fc.asyncProperty(fc.array(op, { minLength: 1, maxLength: 25 }), async (ops) => {
        const medicine = await makeMedicine(t);
        const ref = { type: 'test', id: medicine.id };
        for (const o of ops) {
          await t.context.db.transaction().execute(async (trx) => {
            if (o.kind === 'receive') {
              // batch numbers carry their expiry so a repeat never clashes
              await receiveBatch(trx, {
                branchId: branches[o.branch]!,
                medicineId: medicine.id,
                batchNumber: `N${o.batch}E${o.expiry}`,
                expiryDate: inDays(o.expiry * 30),
                quantity: o.qty,
                unitCost: o.cost,
                reference: ref,
                userId,
              });
            } else if (o.kind === 'consume' || o.kind === 'transfer') {
              const branchId = branches[o.kind === 'consume' ? o.branch : o.from]!;
              const before = (await batchesOf(medicine.id, trx)).filter((b) => b.branch_id === branchId);
              const sellable = before.filter(
                (b) => b.regulator_status === 'active' && b.expiry_date >= today && b.qty_on_hand > 0,
              );
              const available = sellable.reduce((s, b) => s + b.qty_on_hand, 0);
              let taken: Awaited<ReturnType<typeof consumeFefo>>;
              try {
                taken = await consumeFefo(trx, {
                  branchId,
                  medicineId: medicine.id,
                  quantity: o.qty,
                  movementType: o.kind === 'consume' ? 'sale' : 'transfer_out',
                  reference: ref,
                  userId,
                });
              } catch (err) {
                expect(err).toBeInstanceOf(InsufficientStock);
                expect(available).toBeLessThan(o.qty);
                expect((err as InsufficientStock).available).toBe(available);
                return;
              }
              expect(available).toBeGreaterThanOrEqual(o.qty);
              expect(taken.reduce((s, x) => s + x.quantity, 0)).toBe(o.qty);
              // FEFO: taken in expiry order, only sellable batches, and every earlier-expiring one emptied first
              const expiries = taken.map((x) => x.expiryDate);
              expect([...expiries].sort()).toEqual(expiries);
              for (const x of taken) expect(sellable.some((b) => b.id === x.batchId)).toBe(true);
              const lastExpiry = expiries.at(-1)!;
              for (const b of sellable) {
                if (b.expiry_date < lastExpiry) {
                  const got = taken.filter((x) => x.batchId === b.id).reduce((s, x) => s + x.quantity, 0);
                  expect(got).toBe(b.qty_on_hand);
                }
              }
              if (o.kind === 'transfer') {
                for (const x of taken) {
                  await receiveBatch(trx, {
                    branchId: branches[1 - o.from]!,
                    medicineId: medicine.id,
                    batchNumber: x.batchNumber,
                    expiryDate: x.expiryDate,
                    quantity: x.quantity,
                    unitCost: x.unitCost,
                    movementType: 'transfer_in',
                    reference: ref,
                    userId,
                  });
                }
              }
            } else {
              const all = await batchesOf(medicine.id, trx);
              if (all.length === 0) return;
              const batch = all[o.pick % all.length]!;
              if (o.kind === 'block') {
                await trx
                  .updateTable('batches')
                  .set({ regulator_status: 'quarantined' })
                  .where('id', '=', batch.id)
                  .execute();
                return;
              }
              try {
                await moveBatchQuantity(trx, {
                  batchId: batch.id,
                  delta: -o.qty,
                  type: 'write_off',
                  reference: ref,
                  userId,
                });
                expect(batch.qty_on_hand).toBeGreaterThanOrEqual(o.qty);
              } catch (err) {
                expect(err).toBeInstanceOf(InsufficientStock);
                expect(batch.qty_on_hand).toBeLessThan(o.qty);
              }
            }
          });
        }
        expect(await ledgerMismatches(t)).toEqual([]);
        const rows = await batchesOf(medicine.id);
        expect(rows.every((b) => b.qty_on_hand >= 0)).toBe(true);
        for (const branchId of branches) {
          const stock = await branchStock(t.context.db, branchId, [medicine.id]);
          const want = rows
            .filter(
              (b) => b.branch_id === branchId && b.regulator_status === 'active' && b.expiry_date >= today,
            )
            .reduce((s, b) => s + b.qty_on_hand, 0);
          expect(stock.get(medicine.id)).toBe(want);
        }
      }),
      { numRuns: 40 },
    );
  }, 120_000);

  it('puts a shortfall on the next batch only when allowNegative, and still refuses without any batch', async () => {
    const medicine = await makeMedicine(t);
    const supplier = await makeSupplier(t);
    const b = await receive(t, medicine.id, supplier.id, { qty_received: 3 });
    const taken = await t.context.db.transaction().execute((trx) =>
      consumeFefo(trx, {
        branchId: branches[0]!,
        medicineId: medicine.id,
        quantity: 5,
        movementType: 'sale',
        reference: { type: 'test', id: 'x' },
        userId,
        allowNegative: true,
      }),
    );
    expect(taken.map((x) => [x.batchId, x.quantity])).toEqual([
      [b.id, 3],
      [b.id, 2],
    ]);
    expect((await batchesOf(medicine.id))[0]!.qty_on_hand).toBe(-2);
    expect(await ledgerMismatches(t)).toEqual([]);
    const none = await makeMedicine(t);
    await expect(
      t.context.db.transaction().execute((trx) =>
        consumeFefo(trx, {
          branchId: branches[0]!,
          medicineId: none.id,
          quantity: 1,
          movementType: 'sale',
          reference: { type: 'test', id: 'x' },
          userId,
          allowNegative: true,
        }),
      ),
    ).rejects.toBeInstanceOf(InsufficientStock);
  });

  it('takes several lines at once as if one after another: lines of a medicine share its batches FEFO, a shortfall lands on the batch sold next, the first short line is refused and nothing is written', async () => {
    const supplier = await makeSupplier(t);
    const a = await makeMedicine(t);
    const b = await makeMedicine(t);
    const a1 = await receive(t, a.id, supplier.id, { qty_received: 4, expiry_date: inDays(30) });
    const a2 = await receive(t, a.id, supplier.id, { qty_received: 5, expiry_date: inDays(60) });
    const b1 = await receive(t, b.id, supplier.id, { qty_received: 2 });
    const take = (lines: Array<{ medicineId: string; quantity: number }>, allowNegative: boolean) =>
      t.context.db.transaction().execute((trx) =>
        consumeFefoLines(trx, {
          branchId: branches[0]!,
          lines,
          movementType: 'sale',
          reference: { type: 'test', id: 'lines' },
          userId,
          allowNegative,
        }),
      );
    const before = await t.counts(['stock_movements', 'change_log']);
    await expect(
      take(
        [
          { medicineId: a.id, quantity: 3 },
          { medicineId: b.id, quantity: 3 },
        ],
        false,
      ),
    ).rejects.toMatchObject({ medicineId: b.id, wanted: 3, available: 2 });
    expect(await t.counts(['stock_movements', 'change_log'])).toEqual(before);
    expect((await batchesOf(a.id)).map((x) => x.qty_on_hand).sort()).toEqual([4, 5]);

    const taken = await take(
      [
        { medicineId: a.id, quantity: 3 },
        { medicineId: b.id, quantity: 3 },
        { medicineId: a.id, quantity: 4 },
      ],
      true,
    );
    expect(taken.map((line) => line.map((x) => [x.batchId, x.quantity]))).toEqual([
      [[a1.id, 3]],
      [
        [b1.id, 2],
        [b1.id, 1],
      ],
      [
        [a1.id, 1],
        [a2.id, 3],
      ],
    ]);
    const onHand = new Map(
      (await batchesOf(a.id)).concat(await batchesOf(b.id)).map((x) => [x.id, x.qty_on_hand]),
    );
    expect([onHand.get(a1.id), onHand.get(a2.id), onHand.get(b1.id)]).toEqual([0, 2, -1]);
    expect(new Set(taken.flat().map((x) => x.movementId)).size).toBe(5);
    expect(await ledgerMismatches(t)).toEqual([]);
    const kept = await t.query<{ medicine_id: string; qty: number }>(
      'SELECT medicine_id, qty FROM medicine_stock WHERE branch_id = ? AND medicine_id IN (?, ?) ORDER BY qty',
      branches[0],
      a.id,
      b.id,
    );
    expect(kept.map((r) => [r.medicine_id, Number(r.qty)])).toEqual([
      [b.id, -1],
      [a.id, 2],
    ]);
  });

  it('never goes negative when many write-offs race on one batch', async () => {
    const medicine = await makeMedicine(t);
    const supplier = await makeSupplier(t);
    const b = await receive(t, medicine.id, supplier.id, { qty_received: 10 });
    const admin = await t.adminToken();
    const results = await Promise.all(
      Array.from({ length: 25 }, () =>
        t.put(`/api/v1/purchases/${b.id}/write-off`, { quantity: 1, reason: 'race' }, admin),
      ),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(10);
    expect(results.filter((r) => r.status === 409)).toHaveLength(15);
    expect((await batchesOf(medicine.id))[0]!.qty_on_hand).toBe(0);
    expect(await ledgerMismatches(t)).toEqual([]);
  });
});
