import { describe, expect, it } from 'vitest';
import { fullReceipt, lineOutcome, receiptLines } from './receipt-draft';

const items = [
  { id: 'a', quantity: 6 },
  { id: 'b', quantity: 5 },
];

describe('receiptLines', () => {
  it('sends nothing for lines that arrived in full', () => {
    expect(receiptLines(items, fullReceipt(items))).toEqual({ lines: [] });
  });

  it('sends a short line with its reason', () => {
    const entries = { ...fullReceipt(items), b: { qty: '3', reason: 'damaged' as const } };
    expect(receiptLines(items, entries)).toEqual({
      lines: [{ item_id: 'b', received_quantity: 3, discrepancy_reason: 'damaged' }],
    });
  });

  it('names the problems by the line position, as the server does', () => {
    const entries = { a: { qty: '7', reason: '' as const }, b: { qty: '2', reason: '' as const } };
    expect(receiptLines(items, entries)).toEqual({
      problems: {
        'lines.0.received_quantity': 'a whole number from 0 to 6',
        'lines.1.discrepancy_reason': 'say why fewer arrived',
      },
    });
    expect(
      receiptLines(items, { a: { qty: '-1', reason: 'short' }, b: { qty: '1.5', reason: 'short' } }),
    ).toEqual({
      problems: {
        'lines.0.received_quantity': 'a whole number from 0 to 6',
        'lines.1.received_quantity': 'a whole number from 0 to 5',
      },
    });
  });

  it('takes 0 arrived with a reason', () => {
    expect(receiptLines(items, { ...fullReceipt(items), a: { qty: '0', reason: 'short' } })).toEqual({
      lines: [{ item_id: 'a', received_quantity: 0, discrepancy_reason: 'short' }],
    });
  });
});

describe('lineOutcome', () => {
  const line = {
    id: 'a',
    medicine_id: 'm',
    medicine_name: 'M',
    from_batch_id: 'x',
    to_batch_id: null,
    batch_number: 'B',
    expiry_date: '2030-01-01',
    quantity: 6,
    unit_cost: '1.00',
    received_quantity: null,
    discrepancy_reason: null,
  };
  it('says what arrived', () => {
    expect(lineOutcome(line)).toBe('6 in transit');
    expect(lineOutcome({ ...line, received_quantity: 6 })).toBe('6 received');
    expect(lineOutcome({ ...line, received_quantity: 4, discrepancy_reason: 'damaged' })).toBe(
      '4 of 6 received (damaged)',
    );
  });
});
