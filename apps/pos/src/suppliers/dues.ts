import type { SupplierInvoice } from '@pharmacy/contracts';
import { addDecimals, compareDecimals } from '@pharmacy/contracts/money';

export const INVOICE_STATUS_LABELS: Record<SupplierInvoice['status'], string> = {
  unpaid: 'Unpaid',
  partial: 'Partly paid',
  paid: 'Paid',
};

/** An invoice not paid in full whose due date is before `today` (YYYY-MM-DD). */
export const isOverdue = (i: SupplierInvoice, today: string) =>
  i.status !== 'paid' && i.due_date !== null && i.due_date < today;

/** What is owed on the invoices (exact decimal strings), and how much of it is overdue. */
export function dues(invoices: readonly SupplierInvoice[], today: string): { due: string; overdue: string } {
  const open = invoices.filter((i) => i.status !== 'paid');
  return {
    due: addDecimals(['0', ...open.map((i) => i.balance)]),
    overdue: addDecimals(['0', ...open.filter((i) => isOverdue(i, today)).map((i) => i.balance)]),
  };
}

/** A payment amount the user typed is more than the balance (the server refuses it with OVERPAYMENT). */
export const exceedsBalance = (amount: string, balance: string) => compareDecimals(amount, balance) > 0;
