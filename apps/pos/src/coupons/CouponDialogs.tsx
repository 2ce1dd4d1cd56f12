import type { Coupon } from '@pharmacy/contracts';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { ErrorNotice } from '../ui/ErrorNotice';
import { FormDialog } from '../ui/FormDialog';
import { CheckboxField, fieldError, SelectField, TextField } from '../ui/fields';
import { useFormatMoney } from '../ui/money';
import { useForm } from '../ui/useForm';
import { useSaveThenClose } from '../ui/useSaveThenClose';
import { couponBody, formOf } from './coupon-form';

export function CouponDialog({ coupon, onClose }: { coupon?: Coupon; onClose: () => void }) {
  const { form, set, fieldsFor } = useForm(() => formOf(coupon));
  const save = useSaveThenClose({
    save: () => {
      const body = couponBody(form);
      return coupon ? api.coupons.update(coupon.id, body) : api.coupons.create(body);
    },
    invalidates: [['coupons']],
    onClose,
  });
  const field = fieldsFor(save.error);
  // The form's date fields map to the request's timestamps: their errors are the server's for those.
  const dateError = (key: 'starts_at' | 'ends_at') => fieldError(save.error, key);
  return (
    <FormDialog
      title={coupon ? `Edit ${coupon.code}` : 'New coupon'}
      onClose={onClose}
      onSubmit={() => save.mutate()}
      error={save.error}
      pending={save.isPending}
      submitLabel={coupon ? 'Save changes' : 'Create coupon'}
    >
      <TextField label="Code" {...field('code')} data-autofocus="" />
      <TextField label="Description" {...field('description')} />
      <SelectField
        label="Kind"
        value={form.discount_type}
        onChange={(v) => set('discount_type')(v as 'percent' | 'fixed')}
        options={[
          { value: 'percent', label: 'Percent of the basket' },
          { value: 'fixed', label: 'Fixed amount' },
        ]}
      />
      <TextField
        label={form.discount_type === 'percent' ? 'Percent off' : 'Amount off'}
        inputMode="decimal"
        {...field('discount_value')}
      />
      {form.discount_type === 'percent' && (
        <TextField label="Largest discount (cap)" inputMode="decimal" {...field('max_discount')} />
      )}
      <TextField label="Minimum basket" inputMode="decimal" {...field('min_subtotal')} />
      <TextField
        label="Valid from"
        type="date"
        value={form.starts_on}
        onChange={set('starts_on')}
        error={dateError('starts_at')}
      />
      <TextField
        label="Valid until"
        type="date"
        value={form.ends_on}
        onChange={set('ends_on')}
        error={dateError('ends_at')}
      />
      <TextField label="Usage limit" inputMode="numeric" hint="Empty: unlimited" {...field('usage_limit')} />
      <TextField
        label="Limit per customer"
        inputMode="numeric"
        hint="Empty: unlimited"
        {...field('per_customer_limit')}
      />
      <CheckboxField label="Active" checked={form.is_active} onChange={set('is_active')} />
    </FormDialog>
  );
}

/** Checks a code against a basket, as the till would at checkout. */
export function ValidateCoupon() {
  const [code, setCode] = useState('');
  const [subtotal, setSubtotal] = useState('');
  const money = useFormatMoney();
  const check = useMutation({
    mutationFn: () =>
      api.coupons.validate(
        code.trim(),
        subtotal.trim() ? { subtotal: Number(subtotal.replace(',', '.')) } : {},
      ),
  });
  const r = check.data;
  return (
    <form
      className="card inline-form"
      aria-label="Validate a code"
      onSubmit={(e) => {
        e.preventDefault();
        if (code.trim()) check.mutate();
      }}
    >
      <h2>Validate a code</h2>
      <div className="filters">
        <TextField label="Coupon code" value={code} onChange={setCode} />
        <TextField label="Basket subtotal" inputMode="decimal" value={subtotal} onChange={setSubtotal} />
        <button type="submit" disabled={check.isPending}>
          Validate
        </button>
      </div>
      <ErrorNotice error={check.error} />
      {r && (
        <p role="status" className={`notice ${r.valid ? 'ok' : 'error'}`}>
          {r.valid
            ? `${r.coupon.code} applies: ${money(r.discount_amount)} off.`
            : `${r.coupon.code} does not apply (${REASONS[r.reason ?? ''] ?? r.reason}).`}
        </p>
      )}
    </form>
  );
}

const REASONS: Record<string, string> = {
  INACTIVE: 'inactive',
  NOT_STARTED: 'not started yet',
  EXPIRED: 'expired',
  MIN_SUBTOTAL: 'basket below its minimum',
  USAGE_LIMIT: 'used up',
  CUSTOMER_LIMIT: "the customer's limit is reached",
  CUSTOMER_REQUIRED: 'it has a limit per customer: choose the customer',
};
