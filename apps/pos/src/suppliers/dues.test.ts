import type { SupplierInvoice } from '@pharmacy/contracts';
import { describe, expect, it } from 'vitest';
import { dues, exceedsBalance, isOverdue } from './dues';

const inv = (status: SupplierInvoice['status'], balance: string, due_date: string | null) =>
  ({ status, balance, due_date }) as SupplierInvoice;

describe('supplier dues', () => {
  const invoices = [
    inv('unpaid', '100.10', '2030-01-10'),
    inv('partial', '0.20', '2030-02-01'),
    inv('paid', '0.00', '2029-01-01'),
    inv('unpaid', '5.00', null),
  ];

  it('adds the balances exactly (no float drift) and the overdue part', () => {
    expect(dues(invoices, '2030-01-15')).toEqual({ due: '105.30', overdue: '100.10' });
    expect(dues([], '2030-01-15')).toEqual({ due: '0', overdue: '0' });
  });

  it('calls an invoice overdue only when unpaid or partial past its due date', () => {
    expect(invoices.map((i) => isOverdue(i, '2030-01-15'))).toEqual([true, false, false, false]);
    expect(isOverdue(invoices[0] as SupplierInvoice, '2030-01-10')).toBe(false);
  });

  it('compares a payment with the balance as decimals', () => {
    expect(exceedsBalance('150.51', '150.50')).toBe(true);
    expect(exceedsBalance('150.5', '150.50')).toBe(false);
  });
});
