import type { Settings } from '@pharmacy/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { ErrorNotice } from '../ui/ErrorNotice';
import { CheckboxField, fieldError, NumberField, SelectField, TextAreaField, TextField } from '../ui/fields';
import { formatDateTime } from '../ui/format';
import { useForm } from '../ui/useForm';
import { VatRatesEditor } from './VatRatesEditor';

type Loaded = Awaited<ReturnType<typeof api.settings.get>>;

const withoutStamp = ({ updated_at: _ignored, ...settings }: Loaded): Settings => settings;

export function SettingsScreen() {
  const settings = useQuery({ queryKey: ['settings'], queryFn: () => api.settings.get() });
  if (settings.error) return <ErrorNotice error={settings.error} title="Settings could not be loaded." />;
  if (!settings.data) return <p role="status">Loading settings…</p>;
  return <SettingsForm loaded={settings.data} />;
}

function SettingsForm({ loaded }: { loaded: Loaded }) {
  const me = useUser();
  const queryClient = useQueryClient();
  const currencies = useQuery({ queryKey: ['currencies'], queryFn: () => api.currency.list() });
  const { form, setForm, set, fieldsFor } = useForm(() => withoutStamp(loaded));
  // The values the last save stored: "saved" until the next change makes a new form object.
  const [savedForm, setSavedForm] = useState<Settings | null>(null);
  const save = useMutation({
    mutationFn: (body: Settings) => api.settings.update(body),
    onSuccess: (next) => {
      queryClient.setQueryData(['settings'], next);
      const stored = withoutStamp(next);
      setForm(stored);
      setSavedForm(stored);
    },
  });

  const readOnly = me.role !== 'admin';
  const err = save.error;
  const field = fieldsFor(err);
  const setNested = <K extends 'tax_policy' | 'login_throttle'>(key: K, patch: Partial<Settings[K]>) =>
    setForm((f) => ({ ...f, [key]: { ...f[key], ...patch } }));
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(form);
  };

  return (
    <section aria-labelledby="settings-title">
      <div className="screen-header">
        <h1 id="settings-title">Settings</h1>
        <small>Last changed {formatDateTime(loaded.updated_at)}</small>
      </div>
      {readOnly && <p className="notice info">Only an administrator can change the settings.</p>}
      <form onSubmit={submit} noValidate>
        <fieldset disabled={readOnly || save.isPending} className="settings-grid">
          <fieldset className="card">
            <legend>Organisation</legend>
            <TextField label="Organisation name" {...field('organization_name')} />
            <TextField label="Legal name" {...field('organization_legal_name')} />
            <TextField label="TIN" {...field('tin')} />
            <TextField label="VAT number" {...field('vat_number')} />
            <TextField label="Phone" type="tel" {...field('phone')} />
            <TextField label="Email" type="email" {...field('email')} />
            <TextField label="Address" {...field('address')} />
            <SelectField
              label="Base currency"
              {...field('base_currency_code')}
              options={(currencies.data?.items ?? [{ code: form.base_currency_code, name: '' }]).map((c) => ({
                value: c.code,
                label: c.name ? `${c.code} — ${c.name}` : c.code,
              }))}
            />
            <TextField label="Time zone" {...field('timezone')} hint="IANA name; report days follow it." />
          </fieldset>

          <fieldset className="card">
            <legend>Tax policy</legend>
            <VatRatesEditor
              rates={form.tax_policy.vat_rates}
              onChange={(vat_rates) => setNested('tax_policy', { vat_rates })}
              error={fieldError(err, 'tax_policy.vat_rates')}
            />
            <CheckboxField
              label="Prices include VAT"
              checked={form.tax_policy.prices_include_vat}
              onChange={(prices_include_vat) => setNested('tax_policy', { prices_include_vat })}
            />
          </fieldset>

          <fieldset className="card">
            <legend>Receipts</legend>
            <TextAreaField label="Receipt header" {...field('receipt_header')} maxLength={500} />
            <TextAreaField label="Receipt footer" {...field('receipt_footer')} maxLength={500} />
            <TextAreaField label="Return policy" {...field('return_policy')} maxLength={500} />
          </fieldset>

          <fieldset className="card">
            <legend>Policies</legend>
            <SelectField
              label="Selling beyond stock"
              value={form.negative_stock_policy}
              onChange={(v) => set('negative_stock_policy')(v as Settings['negative_stock_policy'])}
              options={[
                { value: 'forbid', label: 'Forbid' },
                { value: 'allow', label: 'Allow (stock goes negative)' },
              ]}
            />
            <NumberField
              label="Discount needing a manager (%)"
              {...field('discount_approval_threshold_pct')}
            />
            <NumberField
              label="Count variance needing a manager (units)"
              {...field('stock_variance_approval_threshold')}
            />
            <NumberField label="Exchange-rate tolerance (%)" {...field('fx_tolerance_pct')} />
            <NumberField
              label="Failed sign-ins per account before a pause"
              value={form.login_throttle.max_failures_per_account}
              onChange={(v) => setNested('login_throttle', { max_failures_per_account: v })}
              error={fieldError(err, 'login_throttle.max_failures_per_account')}
            />
            <NumberField
              label="Failed sign-ins per address before a pause"
              value={form.login_throttle.max_failures_per_address}
              onChange={(v) => setNested('login_throttle', { max_failures_per_address: v })}
              error={fieldError(err, 'login_throttle.max_failures_per_address')}
            />
            <NumberField
              label="Sign-in pause window (minutes)"
              value={form.login_throttle.window_minutes}
              onChange={(v) => setNested('login_throttle', { window_minutes: v })}
              error={fieldError(err, 'login_throttle.window_minutes')}
            />
          </fieldset>
        </fieldset>
        <ErrorNotice error={err} title="Not saved." />
        {savedForm === form && (
          <p role="status" className="notice ok">
            Settings saved.
          </p>
        )}
        {!readOnly && (
          <div className="form-actions">
            <button type="submit" className="primary big" disabled={save.isPending}>
              {save.isPending ? 'Saving…' : 'Save settings'}
            </button>
          </div>
        )}
      </form>
    </section>
  );
}
