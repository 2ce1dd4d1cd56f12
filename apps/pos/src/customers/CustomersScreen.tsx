import type { AccountPaymentTender, Customer } from '@pharmacy/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useDeferredValue, useState } from 'react';
import { api } from '../api';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, NumberField, SelectField, TextField } from '../ui/fields';
import { formatDateTime } from '../ui/format';
import { useFormatMoney } from '../ui/money';
import { paymentMethodName } from '@pharmacy/contracts/payment-methods';
import { CustomerPicker } from './CustomerPicker';
import { EditCustomerDialog } from './EditCustomerDialog';

/** How a customer pays on account (the contracts' ACCOUNT_PAYMENT_TENDERS; tsc checks each against it). */
const TENDERS: readonly AccountPaymentTender[] = ['cash', 'card', 'mobile_money', 'bank_transfer'];

const TYPE_LABELS: Record<string, string> = { SALE: 'Credit sale', PAYMENT: 'Payment', REFUND: 'Refund' };

function CustomerAccount({ customerId }: { customerId: string }) {
  const money = useFormatMoney();
  const queryClient = useQueryClient();
  const [amount, setAmount] = useState(Number.NaN);
  const [editing, setEditing] = useState(false);
  const [method, setMethod] = useState<AccountPaymentTender>('cash');
  const customer = useQuery({
    queryKey: ['customer', customerId],
    queryFn: () => api.customers.get(customerId),
  });
  const ledger = useQuery({
    queryKey: ['customer-ledger', customerId],
    queryFn: () => api.customers.ledger(customerId, { page_size: 50 }),
  });
  const pay = useMutation({
    mutationFn: () => api.customers.pay(customerId, { amount, method }),
    onSuccess: () => {
      setAmount(Number.NaN);
      queryClient.invalidateQueries({ queryKey: ['customer', customerId] });
      queryClient.invalidateQueries({ queryKey: ['customer-ledger', customerId] });
      queryClient.invalidateQueries({ queryKey: ['customers'] });
      // the payment is in the open cash session: its X-report and expected cash change
      queryClient.invalidateQueries({ queryKey: ['cash-session'] });
      queryClient.invalidateQueries({ queryKey: ['z-report'] });
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (Number.isFinite(amount)) pay.mutate();
  };
  const c = customer.data;
  if (!c) return <ErrorNotice error={customer.error} />;
  return (
    <section className="card" aria-labelledby="account-title">
      <div className="screen-header">
        <h2 id="account-title">{c.name}</h2>
        <button type="button" onClick={() => setEditing(true)}>
          Edit customer
        </button>
      </div>
      {editing && <EditCustomerDialog customer={c} onClose={() => setEditing(false)} />}
      <dl className="figures">
        <div className="figure">
          <dt>Phone</dt>
          <dd>{c.phone || '—'}</dd>
        </div>
        <div className="figure">
          <dt>Credit</dt>
          <dd>{c.is_credit_allowed ? `Allowed up to ${money(c.credit_limit)}` : 'Not allowed'}</dd>
        </div>
        <div className="figure">
          <dt>National ID</dt>
          <dd>{c.national_id || '—'}</dd>
        </div>
        <div className="figure big-figure">
          <dt>Balance</dt>
          <dd>
            <output aria-label="Balance">{money(c.current_balance)}</output>
          </dd>
        </div>
      </dl>
      {pay.data && (
        <p role="status" className="notice ok">
          Payment of {money(pay.data.amount_paid)} recorded. New balance {money(pay.data.new_balance)}.
        </p>
      )}
      <form onSubmit={submit} className="inline-add" aria-label="Take a payment" noValidate>
        <NumberField
          label="Payment amount"
          value={amount}
          onChange={setAmount}
          min={0}
          step="0.01"
          error={fieldError(pay.error, 'amount')}
        />
        <SelectField
          label="Paid by"
          value={method}
          onChange={(v) => setMethod(v as AccountPaymentTender)}
          options={TENDERS.map((m) => ({ value: m, label: paymentMethodName(m) }))}
        />
        <button type="submit" className="primary" disabled={pay.isPending || !Number.isFinite(amount)}>
          Record payment
        </button>
      </form>
      <ErrorNotice error={pay.error} />
      <h3>Ledger</h3>
      <ErrorNotice error={ledger.error} />
      <table aria-label="Ledger">
        <thead>
          <tr>
            <th scope="col">Date</th>
            <th scope="col">Type</th>
            <th scope="col" className="num">
              Amount
            </th>
            <th scope="col" className="num">
              Balance after
            </th>
            <th scope="col">By</th>
          </tr>
        </thead>
        <tbody>
          {ledger.data?.items.map((r) => (
            <tr key={r.id}>
              <td>{formatDateTime(r.created_at)}</td>
              <td>{TYPE_LABELS[r.transaction_type] ?? r.transaction_type}</td>
              <td className="num">{money(r.amount)}</td>
              <td className="num">{money(r.balance_after)}</td>
              <td>{r.created_by_name ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {ledger.data?.items.length === 0 && <p>No account movements yet.</p>}
    </section>
  );
}

export function CustomersScreen() {
  const money = useFormatMoney();
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search.trim());
  const [selected, setSelected] = useState<string | null>(null);
  const [creating, setCreating] = useState(false);
  const list = useQuery({
    queryKey: ['customers', 'screen', deferred],
    queryFn: () => api.customers.list({ search: deferred || undefined, page_size: 50 }),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="screen-title">
      <div className="screen-header">
        <h1 id="screen-title">Customers</h1>
        <button type="button" className="primary" onClick={() => setCreating(true)}>
          New customer
        </button>
      </div>
      <div className="two-panes">
        <div>
          <TextField
            label="Search customers"
            type="search"
            value={search}
            onChange={setSearch}
            placeholder="Name, phone or ID"
          />
          <ErrorNotice error={list.error} />
          <table aria-label="Customers">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">Phone</th>
                <th scope="col" className="num">
                  Balance
                </th>
              </tr>
            </thead>
            <tbody>
              {list.data?.items.map((c: Customer) => (
                <tr key={c.id} aria-selected={selected === c.id}>
                  <td>
                    <button type="button" className="link-button" onClick={() => setSelected(c.id)}>
                      {c.name}
                    </button>
                  </td>
                  <td>{c.phone}</td>
                  <td className="num">{money(c.current_balance)}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {list.data?.items.length === 0 && <p>No customer matches.</p>}
        </div>
        <div>
          {selected ? (
            <CustomerAccount customerId={selected} />
          ) : (
            <p className="muted">Pick a customer to see the account.</p>
          )}
        </div>
      </div>
      {creating && (
        <Dialog title="New customer" onClose={() => setCreating(false)}>
          <CustomerPicker
            pickLabel="Open"
            onPick={(c) => {
              setSelected(c.id);
              setCreating(false);
            }}
          />
        </Dialog>
      )}
    </section>
  );
}
