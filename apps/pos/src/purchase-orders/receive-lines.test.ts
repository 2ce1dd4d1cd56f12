import type { PurchaseOrderDetail } from '@pharmacy/contracts';
import { describe, expect, it } from 'vitest';
import { initialReceipt, receiptRequest } from './receive-lines';

const order = {
  items: [
    { id: 'i1', outstanding_qty: 6, agreed_unit_cost: '0.30' },
    { id: 'i2', outstanding_qty: 0, agreed_unit_cost: '1.00' },
    { id: 'i3', outstanding_qty: 20, agreed_unit_cost: '1.05' },
  ],
} as unknown as PurchaseOrderDetail;

describe('receiving against an order', () => {
  it('offers only outstanding items, prefilled with what is outstanding at the agreed cost', () => {
    expect(initialReceipt(order)).toEqual({
      i1: { qty: '6', batch: '', expiry: '', cost: '0.30' },
      i3: { qty: '20', batch: '', expiry: '', cost: '1.05' },
    });
  });

  it('sends only the items with a quantity (a partial receipt), mapping request lines back to items', () => {
    const drafts = initialReceipt(order);
    drafts.i1 = { qty: '0', batch: '', expiry: '', cost: '0.30' };
    drafts.i3 = { qty: '8', batch: ' LOT-7 ', expiry: '2031-02-28', cost: '1,10' };
    expect(receiptRequest(drafts, 2)).toEqual({
      lines: [
        { item_id: 'i3', received_qty: 8, batch_number: 'LOT-7', expiry_date: '2031-02-28', unit_cost: 1.1 },
      ],
      itemIds: ['i3'],
    });
  });

  it('names what is missing per item, and refuses an empty receipt', () => {
    const drafts = initialReceipt(order);
    drafts.i3 = { qty: '2.5', batch: '', expiry: '', cost: 'x' };
    drafts.i1 = { qty: '', batch: '', expiry: '', cost: '' };
    expect(receiptRequest(drafts, 2)).toEqual({
      problems: {
        'i3.qty': 'a whole number of units',
        'i3.batch': 'the batch number on the pack',
        'i3.expiry': 'the expiry date on the pack',
        'i3.cost': 'must be an amount',
      },
    });
    drafts.i3 = { qty: '', batch: '', expiry: '', cost: '' };
    expect(receiptRequest(drafts, 2)).toEqual({
      problems: { none: 'Enter a quantity for at least one item.' },
    });
  });
});
