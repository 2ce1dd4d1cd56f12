import type { PurchaseOrderDetail } from '@pharmacy/contracts';
import { describe, expect, it } from 'vitest';
import { allowedActions, csvField, orderCsv } from './lifecycle';

describe('allowedActions', () => {
  it('follows the API: send a draft, receive a sent or partly received order, cancel a draft or sent one', () => {
    expect(allowedActions('DRAFT', 'branch_manager')).toEqual(['send', 'cancel']);
    expect(allowedActions('SENT', 'branch_manager')).toEqual(['receive', 'cancel']);
    expect(allowedActions('PARTIALLY_RECEIVED', 'branch_manager')).toEqual(['receive']);
    expect(allowedActions('RECEIVED', 'branch_manager')).toEqual([]);
    expect(allowedActions('CANCELLED', 'admin')).toEqual([]);
    expect(allowedActions('SENT', 'admin')).toEqual(['receive', 'cancel']);
  });

  it('narrows to the role: an inventory manager only receives, an auditor and a cashier do nothing', () => {
    expect(allowedActions('DRAFT', 'inventory_manager')).toEqual([]);
    expect(allowedActions('SENT', 'inventory_manager')).toEqual(['receive']);
    expect(allowedActions('PARTIALLY_RECEIVED', 'inventory_manager')).toEqual(['receive']);
    for (const role of ['auditor', 'cashier', 'pharmacist'] as const)
      for (const status of ['DRAFT', 'SENT', 'PARTIALLY_RECEIVED'] as const)
        expect(allowedActions(status, role), `${role} ${status}`).toEqual([]);
  });
});

describe('orderCsv', () => {
  const order = {
    id: 'po-1',
    supplier_name: 'Acme, "Best" Pharma',
    branch_name: 'Main',
    status: 'PARTIALLY_RECEIVED',
    expected_date: '2030-01-02',
    notes: '=HYPERLINK("x")',
    total_amount: '31.50',
    items: [
      {
        medicine_name: 'Amoxicillin 500mg',
        ordered_qty: 10,
        received_qty: 4,
        outstanding_qty: 6,
        agreed_unit_cost: '3.15',
        line_total: '31.50',
      },
    ],
  } as unknown as PurchaseOrderDetail;

  it('writes a header block and a row per item, quoting and defusing what needs it', () => {
    const lines = orderCsv(order).split('\r\n');
    expect(lines[1]).toBe('Supplier,"Acme, ""Best"" Pharma"');
    expect(lines[3]).toBe('Status,Partly received');
    expect(lines[5]).toBe(`Notes,"'=HYPERLINK(""x"")"`);
    expect(lines[7]).toBe('Medicine,Ordered,Received,Outstanding,Unit cost,Line total');
    expect(lines[8]).toBe('Amoxicillin 500mg,10,4,6,3.15,31.50');
    expect(lines[9]).toBe('Total,,,,,31.50');
    expect(lines[10]).toBe('');
  });

  it('keeps numbers as they are (a negative figure is not text to defuse)', () => {
    expect(csvField(-3)).toBe('-3');
    expect(csvField('-3')).toBe("'-3");
    expect(csvField(null)).toBe('');
  });
});
