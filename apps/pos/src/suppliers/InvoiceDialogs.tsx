import type { Supplier, SupplierInvoice } from '@pharmacy/contracts';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { moneyForRequest, useBaseExponent } from '../purchasing/money-input';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, TextAreaField, TextField } from '../ui/fields';
import { FormDialog } from '../ui/FormDialog';
import { formatDateTime } from '../ui/format';
import { useFormatMoney } from '../ui/money';
import { useSaveThenClose } from '../ui/useSaveThenClose';

const NOT_AN_AMOUNT = 'must be an amount in the currency’s decimals';

export function InvoiceDialog({
  supplier,
  branchId,
  onClose,
}: {
  supplier: Supplier;
  branchId: string;
  onClose: () => void;
}) {
  const exponent = useBaseExponent();
  const [invoiceNo, setInvoiceNo] = useState('');
  const [total, setTotal] = useState('');
  const [due, setDue] = useState('');
  const [notes, setNotes] = useState('');
  const [bad, setBad] = useState(false);
  const save = useSaveThenClose({
    save: (amount: number) =>
      api.supplierFinance.createInvoice({
        supplier_id: supplier.id,
        branch_id: branchId,
        invoice_no: invoiceNo,
        total_amount: amount,
        due_date: due || null,
        notes,
      }),
    invalidates: [['supplier-invoices']],
    onClose,
  });
  const submit = () => {
    const amount = moneyForRequest(total, exponent);
    setBad(amount === null);
    if (amount !== null) save.mutate(amount);
  };
  const err = save.error;
  return (
    <FormDialog
      title={`Record an invoice of ${supplier.name}`}
      onClose={onClose}
      onSubmit={submit}
      error={err}
      pending={save.isPending}
      submitLabel="Record invoice"
    >
      <TextField
        label="Invoice number"
        value={invoiceNo}
        onChange={setInvoiceNo}
        error={fieldError(err, 'invoice_no')}
      />
      <TextField
        label="Total amount"
        inputMode="decimal"
        value={total}
        onChange={setTotal}
        error={bad ? NOT_AN_AMOUNT : fieldError(err, 'total_amount')}
      />
      <TextField
        label="Due date"
        type="date"
        value={due}
        onChange={setDue}
        error={fieldError(err, 'due_date')}
      />
      <TextAreaField label="Notes" value={notes} onChange={setNotes} rows={2} maxLength={1000} />
    </FormDialog>
  );
}

export function PayDialog({ invoice, onClose }: { invoice: SupplierInvoice; onClose: () => void }) {
  const money = useFormatMoney();
  const exponent = useBaseExponent();
  const [amount, setAmount] = useState('');
  const [method, setMethod] = useState('bank_transfer');
  const [reference, setReference] = useState('');
  const [bad, setBad] = useState(false);
  const pay = useSaveThenClose({
    save: (value: number) => api.supplierFinance.pay(invoice.id, { amount: value, method, reference }),
    invalidates: [['supplier-invoices'], ['supplier-payments', invoice.id]],
    onClose,
  });
  const submit = () => {
    const value = moneyForRequest(amount, exponent);
    setBad(value === null);
    if (value !== null) pay.mutate(value);
  };
  const err = pay.error;
  return (
    <FormDialog
      title={`Pay invoice ${invoice.invoice_no || '(no number)'}`}
      onClose={onClose}
      onSubmit={submit}
      error={err}
      pending={pay.isPending}
      submitLabel="Record payment"
    >
      <p>
        Balance {money(invoice.balance)} of {money(invoice.total_amount)}
        {invoice.due_date ? `, due ${invoice.due_date}` : ''}.
      </p>
      <div className="inline-add">
        <TextField
          label="Amount"
          inputMode="decimal"
          value={amount}
          onChange={setAmount}
          error={bad ? NOT_AN_AMOUNT : fieldError(err, 'amount')}
        />
        <button type="button" onClick={() => setAmount(money(invoice.balance))}>
          Pay all
        </button>
      </div>
      <TextField
        label="Method"
        hint="cash, bank_transfer, cheque…"
        value={method}
        onChange={setMethod}
        error={fieldError(err, 'method')}
      />
      <TextField
        label="Reference"
        value={reference}
        onChange={setReference}
        error={fieldError(err, 'reference')}
      />
    </FormDialog>
  );
}

export function PaymentsDialog({ invoice, onClose }: { invoice: SupplierInvoice; onClose: () => void }) {
  const money = useFormatMoney();
  const payments = useQuery({
    queryKey: ['supplier-payments', invoice.id],
    queryFn: () => api.supplierFinance.payments(invoice.id),
  });
  const inv = payments.data?.invoice ?? invoice;
  return (
    <Dialog title={`Payments of invoice ${invoice.invoice_no || '(no number)'}`} onClose={onClose}>
      <ErrorNotice error={payments.error} />
      <p>
        Paid {money(inv.paid_amount)} of {money(inv.total_amount)}; balance {money(inv.balance)}.
      </p>
      <table aria-label="Payments">
        <thead>
          <tr>
            <th scope="col">Paid</th>
            <th scope="col">Method</th>
            <th scope="col">Reference</th>
            <th scope="col" className="num">
              Amount
            </th>
          </tr>
        </thead>
        <tbody>
          {payments.data?.items.map((p) => (
            <tr key={p.id}>
              <td>{formatDateTime(p.paid_at)}</td>
              <td>{p.method}</td>
              <td>{p.reference || '—'}</td>
              <td className="num">{money(p.amount)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {payments.data?.items.length === 0 && <p>No payments yet.</p>}
      <div className="dialog-actions">
        <button type="button" className="primary" onClick={onClose}>
          Close
        </button>
      </div>
    </Dialog>
  );
}
