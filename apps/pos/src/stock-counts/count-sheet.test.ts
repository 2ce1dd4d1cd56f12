import { describe, expect, it } from 'vitest';
import {
  applyScan,
  approvalCovers,
  approvalNeed,
  countedQty,
  countSummary,
  type SheetLine,
  submitLines,
} from './count-sheet';

const line = (
  batch_id: string,
  medicine_id: string,
  batch_number: string,
  expected_qty: number,
): SheetLine => ({
  batch_id,
  medicine_id,
  medicine_name: medicine_id,
  strength: '',
  form: '',
  batch_number,
  expiry_date: '2030-01-01',
  regulator_status: 'active',
  expected_qty,
  is_controlled: false,
});

const sheet = [
  line('b1', 'm1', 'A', 10),
  line('b2', 'm1', 'B', 5),
  line('b3', 'm2', 'C', 40),
  line('b4', 'm3', 'D', 0),
];

describe('count sheets', () => {
  it('reads counted quantities as whole units, 0 allowed', () => {
    expect(countedQty('0')).toBe(0);
    expect(countedQty(' 12 ')).toBe(12);
    for (const bad of ['-1', '1.5', 'x', '', '99999999999']) expect(countedQty(bad), bad).toBeNull();
  });

  it('computes progress and variances over the counted lines only', () => {
    const s = countSummary(sheet, { b1: '10', b2: '3', b3: '52', b4: 'x' }, 10);
    expect(s.total).toBe(4);
    expect(s.counted).toBe(3);
    expect(s.invalid).toEqual(['b4']);
    expect(s.variances.map((v) => [v.line.batch_id, v.counted, v.variance])).toEqual([
      ['b2', 3, -2],
      ['b3', 52, 12],
    ]);
    expect(s.large.map((v) => v.line.batch_id)).toEqual(['b3']);
    expect(s.net).toBe(10);
    expect(submitLines(sheet, { b1: '10', b2: '3', b3: '52', b4: 'x' })).toEqual([
      { batch_id: 'b1', counted_qty: 10 },
      { batch_id: 'b2', counted_qty: 3 },
      { batch_id: 'b3', counted_qty: 52 },
    ]);
  });

  it('treats a variance of exactly the threshold as not large (the server checks "above")', () => {
    expect(countSummary(sheet, { b3: '50' }, 10).large).toEqual([]);
    expect(countSummary(sheet, { b3: '51' }, 10).large).toHaveLength(1);
  });

  it('asks for one approval only from roles the server asks it of, and only one batch per approval', () => {
    const one = countSummary(sheet, { b3: '52' }, 10);
    expect(approvalNeed(one, 'branch_manager')).toEqual({ kind: 'none' });
    expect(approvalNeed(one, 'inventory_manager')).toEqual({ kind: 'none' });
    expect(approvalNeed(one, 'pharmacist')).toMatchObject({ kind: 'one', variance: { variance: 12 } });
    const two = countSummary(sheet, { b3: '52', b1: '30' }, 10);
    expect(approvalNeed(two, 'pharmacist')).toEqual({ kind: 'many', count: 2 });
    expect(approvalNeed(countSummary(sheet, { b2: '3' }, 10), 'cashier')).toEqual({ kind: 'none' });
  });

  it('matches an approval to a variance as the server does', () => {
    const v = countSummary(sheet, { b3: '52' }, 10).large[0]!;
    expect(approvalCovers({ batch_id: 'b3', variance: 12 }, v)).toBe(true);
    expect(approvalCovers({ batch_id: 'b3', variance: 20 }, v)).toBe(true);
    expect(approvalCovers({ batch_id: 'b3', variance: 11 }, v)).toBe(false);
    expect(approvalCovers({ batch_id: 'b3', variance: -12 }, v)).toBe(false);
    expect(approvalCovers({ batch_id: 'b1', variance: 12 }, v)).toBe(false);
  });

  it('counts a scanned pack into its batch', () => {
    const first = applyScan(sheet, {}, 'm2');
    expect(first).toEqual({ counts: { b3: '1' }, batchId: 'b3', counted: true });
    const second = applyScan(sheet, { b3: '1' }, 'm2');
    expect(second).toMatchObject({ counts: { b3: '2' } });
    // a GS1 code names the batch
    expect(applyScan(sheet, {}, 'm1', 'B')).toEqual({ counts: { b2: '1' }, batchId: 'b2', counted: true });
    // several batches, no batch number: point at the first, count nothing
    expect(applyScan(sheet, {}, 'm1')).toEqual({ counts: {}, batchId: 'b1', counted: false });
    expect(applyScan(sheet, {}, 'm1', 'Z')).toEqual({ problem: 'Batch Z is not on this count sheet.' });
    expect(applyScan(sheet, {}, 'nope')).toEqual({
      problem: 'This medicine has no batch on this count sheet.',
    });
  });
});
