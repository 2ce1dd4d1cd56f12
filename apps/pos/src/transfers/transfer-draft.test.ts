import { describe, expect, it } from 'vitest';
import { fefoPreview, transferItems } from './transfer-draft';

const batch = (
  batch_number: string,
  expiry_date: string,
  qty_on_hand: number,
  regulator_status = 'active',
) => ({
  id: batch_number,
  batch_number,
  expiry_date,
  qty_on_hand,
  regulator_status: regulator_status as 'active' | 'quarantined' | 'recalled',
});

describe('transfer drafts', () => {
  const batches = [
    batch('LATE', '2031-06-30', 50),
    batch('SOON', '2030-02-01', 8),
    batch('HELD', '2029-12-01', 30, 'quarantined'),
    batch('GONE', '2030-01-09', 40),
    batch('TODAY', '2030-01-10', 2),
  ];

  it('previews FEFO as the server picks: earliest expiry first, skipping expired, quarantined, empty', () => {
    expect(fefoPreview(batches, 15, '2030-01-10')).toEqual({
      picks: [
        { batch_number: 'TODAY', expiry_date: '2030-01-10', quantity: 2 },
        { batch_number: 'SOON', expiry_date: '2030-02-01', quantity: 8 },
        { batch_number: 'LATE', expiry_date: '2031-06-30', quantity: 5 },
      ],
      short: 0,
    });
    expect(fefoPreview(batches, 100, '2030-01-10').short).toBe(40);
  });

  it('sends a medicine for FEFO or a chosen batch, and names bad quantities', () => {
    const line = (batch_id: string, qty: string) => ({ medicine_id: 'm', medicine_name: 'M', qty, batch_id });
    expect(transferItems([line('', '15'), line('b1', '3')])).toEqual({
      items: [
        { medicine_id: 'm', quantity: 15 },
        { batch_id: 'b1', quantity: 3 },
      ],
    });
    expect(transferItems([line('', '0')])).toEqual({
      problems: { 'items.0.quantity': 'a whole number of units above 0' },
    });
    expect(transferItems([])).toEqual({ problems: { items: 'add at least one medicine' } });
  });
});
