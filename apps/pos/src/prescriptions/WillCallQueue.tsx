import type { WillCall } from '@pharmacy/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { TextField } from '../ui/fields';
import { useForm } from '../ui/useForm';
import { formatDateTime } from '../ui/format';

function PickupDialog({ entry, onClose }: { entry: WillCall; onClose: () => void }) {
  const queryClient = useQueryClient();
  const { form, fieldsFor } = useForm({ name: '', relationship: 'self', id_number: '' });
  const pickup = useMutation({
    mutationFn: () => api.dispensing.pickup(entry.id, form),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['will-call'] });
      queryClient.invalidateQueries({ queryKey: ['prescriptions'] });
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    pickup.mutate();
  };
  const err = pickup.error;
  const field = fieldsFor(err);
  return (
    <Dialog title={`Pickup for ${entry.patient_name}`} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <p>
          {entry.items.map((i) => `${i.quantity} × ${i.medicine_name}`).join(', ')} · shelf{' '}
          {entry.bin_location}
        </p>
        {entry.has_controlled && (
          <p className="notice info">
            A controlled medicine is in this bag: record the collector's ID document number.
          </p>
        )}
        <ErrorNotice error={err} />
        <TextField label="Collector name" {...field('name')} />
        <TextField label="Relationship to the patient" {...field('relationship')} />
        <TextField label="Collector ID number" {...field('id_number')} required={entry.has_controlled} />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={pickup.isPending}>
            Record pickup
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** The will-call shelf: prepared prescriptions waiting for the patient. */
export function WillCallQueue() {
  const [status, setStatus] = useState<'waiting' | 'picked_up'>('waiting');
  const [picking, setPicking] = useState<WillCall | null>(null);
  const list = useQuery({
    queryKey: ['will-call', status],
    queryFn: () => api.dispensing.willCall({ status, page_size: 100 }),
    refetchInterval: 30_000,
  });
  return (
    <section aria-labelledby="screen-title">
      <div className="screen-header">
        <h1 id="screen-title">Will-call</h1>
        <button type="button" onClick={() => setStatus((s) => (s === 'waiting' ? 'picked_up' : 'waiting'))}>
          {status === 'waiting' ? 'Show picked up' : 'Show waiting'}
        </button>
      </div>
      <ErrorNotice error={list.error} />
      <table aria-label={status === 'waiting' ? 'Waiting for pickup' : 'Picked up'}>
        <thead>
          <tr>
            <th scope="col">Patient</th>
            <th scope="col">Medicines</th>
            <th scope="col">Shelf</th>
            <th scope="col">{status === 'waiting' ? 'Placed' : 'Collected'}</th>
            <th scope="col">
              <span className="visually-hidden">Action</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {list.data?.items.map((w) => (
            <tr key={w.id}>
              <th scope="row">
                {w.patient_name}
                {w.has_controlled && <span className="badge">Controlled</span>}
              </th>
              <td>{w.items.map((i) => `${i.quantity} × ${i.medicine_name}`).join(', ')}</td>
              <td>{w.bin_location}</td>
              <td>
                {status === 'waiting'
                  ? formatDateTime(w.placed_at)
                  : `${w.collected_by_name ?? ''} ${w.collector_id_number ? `(ID ${w.collector_id_number})` : ''} ${formatDateTime(w.picked_up_at)}`}
              </td>
              <td>
                {w.status === 'waiting' && (
                  <button
                    type="button"
                    onClick={() => setPicking(w)}
                    aria-label={`Pick up for ${w.patient_name}`}
                  >
                    Pick up
                  </button>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data?.items.length === 0 && (
        <p>{status === 'waiting' ? 'Nothing is waiting on the shelf.' : 'No pickups yet.'}</p>
      )}
      {picking && <PickupDialog entry={picking} onClose={() => setPicking(null)} />}
    </section>
  );
}
