import type { Branch, Currency } from '@pharmacy/contracts';
import { ApiError } from '@pharmacy/contracts/client';
import { plainWords } from '@pharmacy/contracts/plain-words';
import { useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { ErrorNotice } from '../ui/ErrorNotice';
import { CheckboxField, SelectField, TextField } from '../ui/fields';
import { FormDialog } from '../ui/FormDialog';
import { useForm } from '../ui/useForm';
import { useSaveThenClose } from '../ui/useSaveThenClose';
import { useBranches } from '../branch/useBranches';

export function BranchesScreen() {
  const me = useUser();
  const branches = useBranches();
  const [editing, setEditing] = useState<Branch | 'new' | null>(null);
  const mayEdit = (b: Branch) =>
    me.role === 'admin' || (me.role === 'branch_manager' && b.id === me.branch_id);

  return (
    <section aria-labelledby="branches-title">
      <div className="screen-header">
        <h1 id="branches-title">Branches</h1>
        {me.role === 'admin' && (
          <button type="button" className="primary" onClick={() => setEditing('new')}>
            New branch
          </button>
        )}
      </div>
      <ErrorNotice error={branches.error} />
      <table aria-label="Branches">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Code</th>
            <th scope="col">Currency</th>
            <th scope="col">Time zone</th>
            <th scope="col">Status</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {branches.data?.items.map((b) => (
            <tr key={b.id}>
              <td>{b.name}</td>
              <td>{b.code}</td>
              <td>{b.currency_code}</td>
              <td>{b.timezone}</td>
              <td>{b.is_active ? 'Active' : 'Closed'}</td>
              <td className="actions">
                {mayEdit(b) && (
                  <button type="button" aria-label={`Edit ${b.name}`} onClick={() => setEditing(b)}>
                    Edit
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {editing && (
        <BranchDialog branch={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
    </section>
  );
}

function BranchDialog({ branch, onClose }: { branch?: Branch; onClose: () => void }) {
  const currencies = useQuery({ queryKey: ['currencies'], queryFn: () => api.currency.list() });
  const { form, set, fieldsFor } = useForm({
    name: branch?.name ?? '',
    code: branch?.code ?? '',
    address: branch?.address ?? '',
    phone: branch?.phone ?? '',
    vat_number: branch?.vat_number ?? '',
    currency_code: branch?.currency_code ?? '',
    timezone: branch?.timezone ?? '',
    is_active: branch?.is_active ?? true,
    drawer_currencies: branch?.drawer_currencies ?? [],
  });
  const save = useSaveThenClose({
    save: () => {
      const { currency_code, timezone, drawer_currencies, ...rest } = form;
      // Empty currency and time zone mean "the organisation's defaults" for a new branch.
      const body = {
        ...rest,
        ...(currency_code ? { currency_code } : {}),
        ...(timezone.trim() ? { timezone: timezone.trim() } : {}),
      };
      return branch
        ? api.branches.update(branch.id, { ...body, drawer_currencies })
        : api.branches.create(body);
    },
    // The payment dialog reads the till's branch (its drawer currencies) under ['branch', id].
    invalidates: [['branches'], ['branch']],
    onClose,
  });
  const err = save.error;
  const field = fieldsFor(err);
  return (
    <FormDialog
      title={branch ? `Edit ${branch.name}` : 'New branch'}
      onClose={onClose}
      onSubmit={() => save.mutate()}
      error={err}
      pending={save.isPending}
      submitLabel={branch ? 'Save changes' : 'Create branch'}
    >
      <TextField label="Name" {...field('name')} />
      <TextField label="Code" {...field('code')} hint="Short code printed on invoices, e.g. DSM-01." />
      <TextField label="Address" {...field('address')} />
      <TextField label="Phone" type="tel" {...field('phone')} />
      <TextField label="VAT number" {...field('vat_number')} />
      <SelectField
        label="Currency"
        {...field('currency_code')}
        options={[
          ...(branch ? [] : [{ value: '', label: 'Organisation default' }]),
          ...(currencies.data?.items ?? []).map((c) => ({ value: c.code, label: `${c.code} — ${c.name}` })),
        ]}
      />
      <TextField
        label="Time zone"
        {...field('timezone')}
        placeholder="Organisation default"
        hint="IANA name, e.g. Africa/Dar_es_Salaam."
      />
      {branch && <CheckboxField label="Active" checked={form.is_active} onChange={set('is_active')} />}
      {branch && (
        <DrawerCurrencies
          currencies={currencies.data?.items ?? []}
          value={form.drawer_currencies}
          onChange={set('drawer_currencies')}
          error={drawerError(err)}
        />
      )}
    </FormDialog>
  );
}

/** The server's message on drawer_currencies (or one of its items), in plain words. */
function drawerError(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const found = error.errors.find(
    (e) => e.path === 'drawer_currencies' || e.path.startsWith('drawer_currencies.'),
  );
  return found ? plainWords(found.message) : undefined;
}

/**
 * The foreign currencies this branch's drawers hold (issue 27.4): a sale paid in one of them gets its change in
 * it; any other foreign sale gets its change in the base currency, which every drawer holds. One checkbox per
 * active currency, named by its code and name; one the branch still holds that was deactivated stays listed so
 * it can be unticked.
 */
function DrawerCurrencies({
  currencies,
  value,
  onChange,
  error,
}: {
  currencies: readonly Currency[];
  value: readonly string[];
  onChange: (codes: string[]) => void;
  error: string | undefined;
}) {
  const id = useId();
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.settings.get(),
    staleTime: 300_000,
  });
  const base = settings.data?.base_currency_code;
  const listed = currencies.filter((c) => c.code !== base);
  const stale = value.filter((code) => !listed.some((c) => c.code === code));
  const options = [
    ...listed.map((c) => ({ code: c.code, label: `${c.code} — ${c.name}` })),
    ...stale.map((code) => ({ code, label: `${code} — not an active currency` })),
  ];
  const toggle = (code: string, held: boolean) =>
    onChange(held ? [...value, code] : value.filter((c) => c !== code));
  const describedBy = [`${id}-hint`, error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return (
    <fieldset className="plain drawer-currencies" aria-describedby={describedBy} aria-invalid={!!error}>
      <legend>Currencies held in the drawer</legend>
      <small id={`${id}-hint`} className="hint">
        A sale paid in one of these gets its change in it; any other foreign currency gets its change in{' '}
        {base ?? 'the base currency'}, which every drawer holds.
      </small>
      <div className="checkbox-row">
        {options.map((o) => (
          <div key={o.code} className="field checkbox">
            <input
              id={`${id}-${o.code}`}
              type="checkbox"
              checked={value.includes(o.code)}
              onChange={(e) => toggle(o.code, e.target.checked)}
              aria-invalid={error ? true : undefined}
            />
            <label htmlFor={`${id}-${o.code}`}>{o.label}</label>
          </div>
        ))}
      </div>
      {error && (
        <small id={`${id}-error`} className="field-error">
          {error}
        </small>
      )}
    </fieldset>
  );
}
