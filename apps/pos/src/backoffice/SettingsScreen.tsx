import type { Settings } from '@pharmacy/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { ErrorNotice } from '../ui/ErrorNotice';
import { CheckboxField, fieldError, NumberField, SelectField, TextAreaField, TextField } from '../ui/fields';
import { formatDateTime } from '../ui/format';
import { VatRatesEditor } from './VatRatesEditor';

export function SettingsScreen() {
  const me = useUser();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: ['settings'], queryFn: () => api.settings.get() });
  const currencies = useQuery({ queryKey: ['currencies'], queryFn: () => api.currency.list() });
  const [form, setForm] = useState<Settings | null>(null);
  const [saved, setSaved] = useState(false);

  useEffect(() => {
    if (settings.data && !form) {
      const { updated_at: _ignored, ...rest } = settings.data;
      setForm(rest);
    }
  }, [settings.data, form]);

  const save = useMutation({
    mutationFn: (body: Settings) => api.settings.update(body),
    onSuccess: (next) => {
      queryClient.setQueryData(['settings'], next);
      const { updated_at: _ignored, ...rest } = next;
      setForm(rest);
      setSaved(true);
    },
  });

  if (settings.error) return <ErrorNotice error={settings.error} title="Settings could not be loaded." />;
  if (!form) return <p role="status">Loading settings…</p>;

  const readOnly = me.role !== 'admin';
  const err = save.error;
  const set =
    <K extends keyof Settings>(key: K) =>
    (value: Settings[K]) => {
      setSaved(false);
      setForm((f) => (f ? { ...f, [key]: value } : f));
    };
  const setNested = <K extends 'tax_policy' | 'login_throttle'>(key: K, patch: Partial<Settings[K]>) => {
    setSaved(false);
    setForm((f) => (f ? { ...f, [key]: { ...f[key], ...patch } } : f));
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(form);
  };

  return (
    <section aria-labelledby="settings-title">
      <div className="screen-header">
        <h1 id="settings-title">Settings</h1>
        <small>Last changed {formatDateTime(settings.data?.updated_at)}</small>
      </div>
      {readOnly && <p className="notice info">Only an administrator can change the settings.</p>}
      <form onSubmit={submit} noValidate>
        <fieldset disabled={readOnly || save.isPending} className="settings-grid">
          <fieldset className="card">
            <legend>Organisation</legend>
            <TextField
              label="Organisation name"
              value={form.organization_name}
              onChange={set('organization_name')}
              error={fieldError(err, 'organization_name')}
            />
            <TextField
              label="Legal name"
              value={form.organization_legal_name}
              onChange={set('organization_legal_name')}
              error={fieldError(err, 'organization_legal_name')}
            />
            <TextField label="TIN" value={form.tin} onChange={set('tin')} error={fieldError(err, 'tin')} />
            <TextField
              label="VAT number"
              value={form.vat_number}
              onChange={set('vat_number')}
              error={fieldError(err, 'vat_number')}
            />
            <TextField
              label="Phone"
              type="tel"
              value={form.phone}
              onChange={set('phone')}
              error={fieldError(err, 'phone')}
            />
            <TextField
              label="Email"
              type="email"
              value={form.email}
              onChange={set('email')}
              error={fieldError(err, 'email')}
            />
            <TextField
              label="Address"
              value={form.address}
              onChange={set('address')}
              error={fieldError(err, 'address')}
            />
            <SelectField
              label="Base currency"
              value={form.base_currency_code}
              onChange={set('base_currency_code')}
              options={(currencies.data?.items ?? [{ code: form.base_currency_code, name: '' }]).map((c) => ({
                value: c.code,
                label: c.name ? `${c.code} — ${c.name}` : c.code,
              }))}
              error={fieldError(err, 'base_currency_code')}
            />
            <TextField
              label="Time zone"
              value={form.timezone}
              onChange={set('timezone')}
              hint="IANA name; report days follow it."
              error={fieldError(err, 'timezone')}
            />
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
            <TextAreaField
              label="Receipt header"
              value={form.receipt_header}
              onChange={set('receipt_header')}
              maxLength={500}
              error={fieldError(err, 'receipt_header')}
            />
            <TextAreaField
              label="Receipt footer"
              value={form.receipt_footer}
              onChange={set('receipt_footer')}
              maxLength={500}
              error={fieldError(err, 'receipt_footer')}
            />
            <TextAreaField
              label="Return policy"
              value={form.return_policy}
              onChange={set('return_policy')}
              maxLength={500}
              error={fieldError(err, 'return_policy')}
            />
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
              value={form.discount_approval_threshold_pct}
              onChange={set('discount_approval_threshold_pct')}
              error={fieldError(err, 'discount_approval_threshold_pct')}
            />
            <NumberField
              label="Count variance needing a manager (units)"
              value={form.stock_variance_approval_threshold}
              onChange={set('stock_variance_approval_threshold')}
              error={fieldError(err, 'stock_variance_approval_threshold')}
            />
            <NumberField
              label="Exchange-rate tolerance (%)"
              value={form.fx_tolerance_pct}
              onChange={set('fx_tolerance_pct')}
              error={fieldError(err, 'fx_tolerance_pct')}
            />
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
        {saved && (
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
