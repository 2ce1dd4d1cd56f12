import type { Customer } from '@pharmacy/contracts';
import { CREDIT_GRANTERS, mayChangeCreditTerms, whoCan } from '@pharmacy/contracts/roles';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { CheckboxField, fieldError, NumberField, TextField } from '../ui/fields';
import { useFormatMoney } from '../ui/money';
import { DuplicateWarning, findDuplicates } from './DuplicateWarning';

interface Draft {
  name: string;
  phone: string;
  national_id: string;
  notes: string;
  is_credit_allowed: boolean;
  credit_limit: number;
}

const draftOf = (c: Customer): Draft => ({
  name: c.name,
  phone: c.phone,
  national_id: c.national_id,
  notes: c.notes,
  is_credit_allowed: c.is_credit_allowed,
  credit_limit: Number(c.credit_limit),
});

/** Only the fields the person changed: an unchanged credit limit is never sent (a cashier may edit the rest). */
function changes(before: Draft, after: Draft): Partial<Draft> {
  const out: Partial<Draft> = {};
  for (const key of Object.keys(after) as (keyof Draft)[])
    if (after[key] !== before[key]) Object.assign(out, { [key]: after[key] });
  return out;
}

/**
 * Edits a customer's details and, for a branch manager or an admin, the credit terms. A failed save keeps the
 * dialog and what was typed, with the server's message beside the field.
 */
export function EditCustomerDialog({ customer, onClose }: { customer: Customer; onClose: () => void }) {
  const me = useUser();
  const money = useFormatMoney();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(() => draftOf(customer));
  const [duplicates, setDuplicates] = useState<Customer[]>([]);
  const creditEditable = mayChangeCreditTerms(me.role);
  const set =
    <K extends keyof Draft>(key: K) =>
    (value: Draft[K]) => {
      setDraft((d) => ({ ...d, [key]: value }));
      if (key === 'name' || key === 'phone') setDuplicates([]);
    };
  const save = useMutation({
    mutationFn: async (anyway: boolean) => {
      const patch = changes(draftOf(customer), draft);
      const renamed = patch.name !== undefined || patch.phone !== undefined;
      const found =
        anyway || !renamed
          ? []
          : await findDuplicates({ name: draft.name, phone: draft.phone, excludeId: customer.id });
      if (found.length > 0) return { duplicates: found };
      if (Object.keys(patch).length === 0) return { saved: customer };
      return { saved: await api.customers.update(customer.id, patch) };
    },
    onSuccess: (result) => {
      setDuplicates(result.duplicates ?? []);
      if (!result.saved) return;
      queryClient.invalidateQueries({ queryKey: ['customer', customer.id] });
      queryClient.invalidateQueries({ queryKey: ['customers'] });
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    save.mutate(false);
  };
  const error = (path: string) => fieldError(save.error, path);
  return (
    <Dialog title={`Edit customer ${customer.name}`} onClose={onClose}>
      <form onSubmit={submit} aria-label="Edit customer" noValidate>
        <ErrorNotice error={save.error} />
        <TextField label="Name" value={draft.name} onChange={set('name')} error={error('name')} />
        <TextField
          label="Phone"
          type="tel"
          value={draft.phone}
          onChange={set('phone')}
          error={error('phone')}
        />
        <TextField
          label="National ID"
          value={draft.national_id}
          onChange={set('national_id')}
          error={error('national_id')}
        />
        <TextField label="Notes" value={draft.notes} onChange={set('notes')} error={error('notes')} />
        <fieldset>
          <legend>Credit terms</legend>
          <p>
            Balance <output aria-label="Current balance">{money(customer.current_balance)}</output>
          </p>
          <CheckboxField
            label="Credit allowed"
            checked={draft.is_credit_allowed}
            onChange={set('is_credit_allowed')}
            disabled={!creditEditable}
          />
          <NumberField
            label="Credit limit"
            value={draft.credit_limit}
            onChange={set('credit_limit')}
            min={0}
            step="0.01"
            disabled={!creditEditable}
            error={error('credit_limit')}
            hint={
              creditEditable
                ? 'A limit below the balance only stops further credit.'
                : `${whoCan(CREDIT_GRANTERS, 'change credit terms')}.`
            }
          />
        </fieldset>
        {duplicates.length > 0 ? (
          <DuplicateWarning
            duplicates={duplicates}
            proceedLabel="Save anyway"
            onProceed={() => save.mutate(true)}
          />
        ) : (
          <div className="actions">
            <button type="submit" className="primary" disabled={save.isPending}>
              Save customer
            </button>
          </div>
        )}
      </form>
    </Dialog>
  );
}
