import { describe, expect, it } from 'vitest';
import { ledgerDocument } from './ledger-links';

const m = { reference_id: '0192f2c4-0000-7000-8000-0000abcdef12', batch_id: 'b1', medicine_id: 'm1' };

describe('ledgerDocument', () => {
  it('links the documents that have a screen', () => {
    expect(ledgerDocument({ ...m, reference_type: 'purchase_order' })).toEqual({
      label: 'Purchase order …abcdef12',
      href: `~/back-office/purchase-orders/${m.reference_id}`,
    });
    expect(ledgerDocument({ ...m, reference_type: 'transfer' })?.href).toBe(
      `~/back-office/transfers/${m.reference_id}`,
    );
    expect(ledgerDocument({ ...m, reference_type: 'write_off' })).toEqual({
      label: 'Write-off',
      href: '~/back-office/stock/m1?batch=b1',
    });
    expect(ledgerDocument({ ...m, reference_type: 'purchase_receipt' })?.href).toBe(
      '~/back-office/stock/m1?batch=b1',
    );
  });

  it('names the others without a link, and nothing without a reference', () => {
    expect(ledgerDocument({ ...m, reference_type: 'sale' })).toEqual({ label: 'Sale …abcdef12' });
    expect(ledgerDocument({ ...m, reference_type: 'stock_count' })).toEqual({
      label: 'Stock count …abcdef12',
    });
    expect(ledgerDocument({ ...m, reference_type: 'odd_thing' })).toEqual({ label: 'odd thing …abcdef12' });
    expect(ledgerDocument({ ...m, reference_type: null })).toBeNull();
  });
});
