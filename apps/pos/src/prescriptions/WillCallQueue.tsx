import type { WillCall } from '@pharmacy/contracts';
import { DISPENSERS } from '@pharmacy/contracts/roles';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'wouter';
import { api } from '../api';
import { ErrorNotice } from '../ui/ErrorNotice';
import { TextField } from '../ui/fields';
import { FormDialog } from '../ui/FormDialog';
import { RoleButton } from '../ui/RoleButton';
import { useForm } from '../ui/useForm';
import { formatDateTime } from '../ui/format';
import { useSaveThenClose } from '../ui/useSaveThenClose';

function ReturnDialog({ entry, onClose }: { entry: WillCall; onClose: () => void }) {
  const { form, fieldsFor } = useForm({ reason: 'Not collected' });
  const back = useSaveThenClose({
    save: () => api.dispensing.returnToStock(entry.id, form),
    invalidates: [['will-call'], ['prescriptions']],
    onClose,
  });
  const field = fieldsFor(back.error);
  return (
    <FormDialog
      title={`Return to stock: ${entry.patient_name}`}
      onClose={onClose}
      onSubmit={() => back.mutate()}
      error={back.error}
      pending={back.isPending}
      submitLabel="Return to stock"
      lead={
        <p>
          {entry.items.map((i) => `${i.quantity} × ${i.medicine_name}`).join(', ')} go back on the shelves;
          the prescription can be dispensed again.
        </p>
      }
    >
      <TextField label="Reason" {...field('reason')} />
    </FormDialog>
  );
}

/** The will-call shelf: prepared prescriptions waiting for the patient. */
export function WillCallQueue() {
  const [status, setStatus] = useState<'waiting' | 'picked_up'>('waiting');
  const [returning, setReturning] = useState<WillCall | null>(null);
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
                  <>
                    <Link href="/sell" aria-label={`Pick up for ${w.patient_name} at the till`}>
                      Pick up at the till
                    </Link>{' '}
                    <RoleButton
                      roles={DISPENSERS}
                      action="return a bag to stock"
                      onClick={() => setReturning(w)}
                      aria-label={`Return to stock for ${w.patient_name}`}
                    >
                      Return to stock
                    </RoleButton>
                  </>
                )}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {list.data?.items.length === 0 && (
        <p>{status === 'waiting' ? 'Nothing is waiting on the shelf.' : 'No pickups yet.'}</p>
      )}
      {status === 'waiting' && (
        <p className="hint">A pickup is a sale: on the Sell screen, Pick up puts the bag in the cart.</p>
      )}
      {returning && <ReturnDialog entry={returning} onClose={() => setReturning(null)} />}
    </section>
  );
}
