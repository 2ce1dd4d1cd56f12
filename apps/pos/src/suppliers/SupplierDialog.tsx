import type { Supplier } from '@pharmacy/contracts';
import { api } from '../api';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { CheckboxField, TextAreaField, TextField } from '../ui/fields';
import { FormDialog } from '../ui/FormDialog';
import { useForm } from '../ui/useForm';
import { useSaveThenClose } from '../ui/useSaveThenClose';

/** A number field's text for the request: blank leaves the server's default, anything else is sent as typed. */
const numberOrUnset = (text: string) => (text.trim() === '' ? undefined : Number(text));

export function SupplierDialog({ supplier, onClose }: { supplier?: Supplier; onClose: () => void }) {
  const { form, set, fieldsFor } = useForm({
    name: supplier?.name ?? '',
    tax_number: supplier?.tax_number ?? '',
    supplier_type: supplier?.supplier_type ?? 'distributor',
    lead_time_days: supplier ? String(supplier.lead_time_days) : '7',
    reliability_score: supplier ? String(supplier.reliability_score) : '100',
    contact_person: supplier?.contact_person ?? '',
    phone: supplier?.phone ?? '',
    email: supplier?.email ?? '',
    address: supplier?.address ?? '',
    notes: supplier?.notes ?? '',
    is_active: supplier?.is_active ?? true,
  });
  const save = useSaveThenClose({
    save: () => {
      const { lead_time_days, reliability_score, is_active, ...text } = form;
      // NaN goes out as null, so the server names the field ("must be a number") beside it.
      const numbers = {
        lead_time_days: numberOrUnset(lead_time_days),
        reliability_score: numberOrUnset(reliability_score),
      };
      return supplier
        ? api.suppliers.update(supplier.id, { ...text, ...numbers, is_active })
        : api.suppliers.create({ ...text, ...numbers });
    },
    invalidates: [['suppliers']],
    onClose,
  });
  const field = fieldsFor(save.error);
  return (
    <FormDialog
      title={supplier ? `Edit ${supplier.name}` : 'New supplier'}
      onClose={onClose}
      onSubmit={() => save.mutate()}
      error={save.error}
      pending={save.isPending}
      submitLabel={supplier ? 'Save changes' : 'Create supplier'}
    >
      <TextField label="Name" {...field('name')} />
      <div className="filters">
        <TextField label="Tax number" {...field('tax_number')} />
        <TextField label="Type" hint="distributor, manufacturer…" {...field('supplier_type')} />
      </div>
      <div className="filters">
        <TextField label="Lead time (days)" inputMode="numeric" {...field('lead_time_days')} />
        <TextField label="Reliability (0-100)" inputMode="numeric" {...field('reliability_score')} />
      </div>
      <TextField label="Contact person" {...field('contact_person')} />
      <div className="filters">
        <TextField label="Phone" type="tel" {...field('phone')} />
        <TextField label="Email" type="email" {...field('email')} />
      </div>
      <TextAreaField label="Address" rows={2} {...field('address')} />
      <TextAreaField label="Notes" rows={2} {...field('notes')} />
      {supplier && <CheckboxField label="Active" checked={form.is_active} onChange={set('is_active')} />}
    </FormDialog>
  );
}

export function DeactivateDialog({ supplier, onClose }: { supplier: Supplier; onClose: () => void }) {
  const deactivate = useSaveThenClose({
    save: () => api.suppliers.deactivate(supplier.id),
    invalidates: [['suppliers']],
    onClose,
  });
  return (
    <Dialog title={`Deactivate ${supplier.name}`} onClose={onClose}>
      <ErrorNotice error={deactivate.error} />
      <p>
        {supplier.name} will no longer be offered for new orders and deliveries. Its invoices can still be
        paid, and Edit can make it active again.
      </p>
      <div className="dialog-actions">
        <button type="button" onClick={onClose}>
          Keep active
        </button>
        <button
          type="button"
          className="primary"
          disabled={deactivate.isPending}
          onClick={() => deactivate.mutate()}
        >
          Deactivate
        </button>
      </div>
    </Dialog>
  );
}
