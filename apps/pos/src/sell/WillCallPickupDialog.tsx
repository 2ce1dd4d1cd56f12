import type { WillCall } from '@pharmacy/contracts';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { TextField } from '../ui/fields';
import { useForm } from '../ui/useForm';
import { type CartAction, lineFromMedicine } from './cart';

/**
 * Sell → Pick up (issue 27.1): a will-call pickup is a sale. The cashier picks the waiting entry and says who
 * collects it (with an ID document number for a controlled medicine); its medicines go into the cart at the
 * prepared quantities, linked to the prescription, and the sale takes the stock reserved for them when paid.
 */
export function WillCallPickupDialog({
  dispatch,
  onLoaded,
  onClose,
}: {
  dispatch: (action: CartAction) => void;
  onLoaded: (label: string) => void;
  onClose: () => void;
}) {
  const [entry, setEntry] = useState<WillCall | null>(null);
  const waiting = useQuery({
    queryKey: ['will-call', 'waiting'],
    queryFn: () => api.dispensing.willCall({ status: 'waiting', page_size: 100 }),
  });
  return (
    <Dialog title={entry ? `Pick up for ${entry.patient_name}` : 'Pick up a will-call'} onClose={onClose}>
      {entry ? (
        <CollectorForm entry={entry} dispatch={dispatch} onLoaded={onLoaded} onBack={() => setEntry(null)} />
      ) : (
        <>
          <ErrorNotice error={waiting.error} />
          {waiting.data?.items.length === 0 && <p>Nothing is waiting on the will-call shelf.</p>}
          <ul className="plain-list">
            {waiting.data?.items.map((w) => (
              <li key={w.id}>
                <button
                  type="button"
                  onClick={() => setEntry(w)}
                  aria-label={`Pick up for ${w.patient_name}`}
                >
                  {w.patient_name} · {w.items.map((i) => `${i.quantity} × ${i.medicine_name}`).join(', ')} ·
                  shelf {w.bin_location}
                </button>
              </li>
            ))}
          </ul>
          <div className="dialog-actions">
            <button type="button" onClick={onClose}>
              Cancel
            </button>
          </div>
        </>
      )}
    </Dialog>
  );
}

function CollectorForm({
  entry,
  dispatch,
  onLoaded,
  onBack,
}: {
  entry: WillCall;
  dispatch: (action: CartAction) => void;
  onLoaded: (label: string) => void;
  onBack: () => void;
}) {
  const { form, fieldsFor } = useForm({ name: '', relationship: 'self', id_number: '' });
  const [missing, setMissing] = useState<Record<string, string>>({});
  const load = useMutation({
    mutationFn: async () => {
      const lines = [];
      for (const item of entry.items) {
        const m = await api.medicines.get(item.medicine_id);
        // The reserved units are this entry's: they count as in stock for its line.
        lines.push({
          ...lineFromMedicine(m, item.quantity),
          stock_quantity: m.stock_quantity + item.quantity,
        });
      }
      return lines;
    },
    onSuccess: (lines) => {
      const label = `Will-call for ${entry.patient_name}`;
      dispatch({
        type: 'pickup',
        willCall: { id: entry.id, label, collector: form },
        lines,
        prescription: { id: entry.prescription_id, label: `${entry.patient_name} (will-call)` },
      });
      onLoaded(label);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (!form.name.trim()) problems.name = 'Say who collects it.';
    if (entry.has_controlled && !form.id_number.trim())
      problems.id_number = 'Required: a controlled medicine is handed over.';
    setMissing(problems);
    if (Object.keys(problems).length === 0) load.mutate();
  };
  const field = fieldsFor(load.error);
  const withMissing = (name: 'name' | 'relationship' | 'id_number') => {
    const f = field(name);
    return { ...f, error: missing[name] ?? f.error };
  };
  return (
    <form onSubmit={submit} noValidate>
      <p>
        {entry.items.map((i) => `${i.quantity} × ${i.medicine_name}`).join(', ')} · shelf {entry.bin_location}
      </p>
      {entry.has_controlled && (
        <p className="notice info">
          A controlled medicine is in this bag: record the collector's ID document number.
        </p>
      )}
      <ErrorNotice error={load.error} />
      <TextField label="Collector name" {...withMissing('name')} data-autofocus="" />
      <TextField label="Relationship to the patient" {...withMissing('relationship')} />
      <TextField label="Collector ID number" {...withMissing('id_number')} required={entry.has_controlled} />
      <div className="dialog-actions">
        <button type="button" onClick={onBack}>
          Back
        </button>
        <button type="submit" className="primary" disabled={load.isPending}>
          Put in the cart
        </button>
      </div>
    </form>
  );
}
