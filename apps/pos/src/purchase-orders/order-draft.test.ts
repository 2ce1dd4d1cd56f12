import { describe, expect, it } from 'vitest';
import { mergeLines } from '../purchasing/useDraftLines';
import { likelySupplier, orderItems, parseQty, suggestionLine } from './order-draft';

const line = (medicine_id: string, qty = '1', cost = '1.00') => ({
  medicine_id,
  medicine_name: medicine_id,
  qty,
  cost,
});

describe('order drafts', () => {
  it('reads quantities as whole positive units', () => {
    expect(parseQty('12')).toBe(12);
    for (const bad of ['0', '-1', '1.5', '', 'ten', '1000001']) expect(parseQty(bad), bad).toBeNull();
  });

  it('keeps one line per medicine when suggestions are added twice', () => {
    const merged = mergeLines([line('a', '5')], [line('a', '9'), line('b')]);
    expect(merged.map((l) => [l.medicine_id, l.qty])).toEqual([
      ['a', '5'],
      ['b', '1'],
    ]);
  });

  it('takes a suggestion with its edited quantity and last cost', () => {
    const s = {
      medicine_id: 'm',
      medicine_name: 'M',
      supplier_id: 's',
      suggested_qty: 40,
      last_unit_cost: '0.35',
    };
    expect(suggestionLine(s, '30')).toEqual({
      medicine_id: 'm',
      medicine_name: 'M',
      qty: '30',
      cost: '0.35',
    });
    expect(suggestionLine({ ...s, last_unit_cost: null }, '30').cost).toBe('');
  });

  it('picks the supplier most suggestions came from', () => {
    const s = (supplier_id: string | null) => ({
      medicine_id: 'x',
      medicine_name: 'x',
      supplier_id,
      suggested_qty: 1,
      last_unit_cost: null,
    });
    expect(likelySupplier([s('a'), s('b'), s('b'), s(null)])).toBe('b');
    expect(likelySupplier([s(null)])).toBeNull();
  });

  it('builds the request exactly (money through the money module) or names each bad field', () => {
    expect(orderItems([line('a', '3', '0.1'), line('b', '2', '1,05')], 2)).toEqual({
      items: [
        { medicine_id: 'a', ordered_qty: 3, agreed_unit_cost: 0.1 },
        { medicine_id: 'b', ordered_qty: 2, agreed_unit_cost: 1.05 },
      ],
    });
    expect(orderItems([line('a', '0', '1.001'), line('b', '2', '')], 2)).toEqual({
      problems: {
        'items.0.ordered_qty': 'must be a whole number of units above 0',
        'items.0.agreed_unit_cost': 'must be an amount',
        'items.1.agreed_unit_cost': 'must be an amount',
      },
    });
    expect(orderItems([], 2)).toEqual({ problems: { items: 'add at least one medicine' } });
  });
});
