import type { Customer } from '@pharmacy/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useDeferredValue, useState } from 'react';
import { api } from '../api';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, TextField } from '../ui/fields';
import { useFormatMoney } from '../ui/money';
import { DuplicateWarning, findDuplicates } from './DuplicateWarning';

/** Find a customer by name, phone or national ID, or create one on the spot; `onPick` gets the choice. */
export function CustomerPicker({
  onPick,
  pickLabel = 'Attach',
}: {
  onPick: (c: Customer) => void;
  pickLabel?: string;
}) {
  const money = useFormatMoney();
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search.trim());
  const [name, setName] = useState('');
  const [phone, setPhone] = useState('');
  const list = useQuery({
    queryKey: ['customers', deferred],
    queryFn: () => api.customers.list({ search: deferred || undefined, page_size: 8 }),
    placeholderData: keepPreviousData,
  });
  const [duplicates, setDuplicates] = useState<Customer[]>([]);
  const create = useMutation({
    // A first submit looks for the same phone or name; "Create anyway" skips the look.
    mutationFn: async (anyway: boolean) => {
      const found = anyway ? [] : await findDuplicates({ name, phone });
      return found.length > 0
        ? { duplicates: found }
        : { customer: await api.customers.create({ name, phone }) };
    },
    onSuccess: (result) => {
      setDuplicates(result.duplicates ?? []);
      if (!result.customer) return;
      queryClient.invalidateQueries({ queryKey: ['customers'] });
      onPick(result.customer);
    },
  });
  const edit = (set: (v: string) => void) => (v: string) => {
    set(v);
    setDuplicates([]);
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    create.mutate(false);
  };
  return (
    <div className="customer-picker">
      <TextField
        label="Search customers"
        type="search"
        value={search}
        onChange={setSearch}
        placeholder="Name, phone or ID"
      />
      <ErrorNotice error={list.error} />
      <ul className="pick-list" aria-label="Customers found">
        {list.data?.items.map((c) => (
          <li key={c.id}>
            <span>
              <strong>{c.name}</strong> <span className="muted">{c.phone}</span>
              {c.is_credit_allowed && (
                <span className="muted"> · credit, balance {money(c.current_balance)}</span>
              )}
            </span>
            <button type="button" onClick={() => onPick(c)} aria-label={`${pickLabel} ${c.name}`}>
              {pickLabel}
            </button>
          </li>
        ))}
        {list.data?.items.length === 0 && <li className="muted">No customer matches.</li>}
      </ul>
      <form onSubmit={submit} aria-label="Quick new customer" noValidate className="inline-form">
        <h3>New customer</h3>
        <ErrorNotice error={create.error} />
        <TextField
          label="Customer name"
          value={name}
          onChange={edit(setName)}
          error={fieldError(create.error, 'name')}
        />
        <TextField
          label="Customer phone"
          type="tel"
          value={phone}
          onChange={edit(setPhone)}
          error={fieldError(create.error, 'phone')}
        />
        {duplicates.length > 0 ? (
          <DuplicateWarning
            duplicates={duplicates}
            openLabel="Use existing"
            onOpen={onPick}
            proceedLabel="Create anyway"
            onProceed={() => create.mutate(true)}
          />
        ) : (
          <button type="submit" disabled={create.isPending}>
            Create customer
          </button>
        )}
      </form>
    </div>
  );
}
