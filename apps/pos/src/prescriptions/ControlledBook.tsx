import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { ErrorNotice } from '../ui/ErrorNotice';
import { TextField } from '../ui/fields';
import { formatDateTime } from '../ui/format';

const TYPE_LABELS: Record<string, string> = {
  purchase: 'Received',
  sale: 'Dispensed / sold',
  return: 'Returned',
  transfer_out: 'Transfer out',
  transfer_in: 'Transfer in',
  adjustment: 'Adjustment',
  write_off: 'Write-off',
  count: 'Count',
};

/** The controlled (classified) drugs book, read-only: every movement with the running balance. */
export function ControlledBook() {
  const [from, setFrom] = useState('');
  const [to, setTo] = useState('');
  const book = useQuery({
    queryKey: ['classified-book', from, to],
    queryFn: () =>
      api.compliance.classifiedBook({ from: from || undefined, to: to || undefined, page_size: 50 }),
  });
  return (
    <section aria-labelledby="screen-title">
      <h1 id="screen-title">Controlled drugs book</h1>
      <search className="filters">
        <TextField label="From" type="date" value={from} onChange={setFrom} />
        <TextField label="To" type="date" value={to} onChange={setTo} />
      </search>
      <ErrorNotice error={book.error} />
      {book.data?.items.length === 0 && <p>No controlled medicine has moved in this window.</p>}
      {book.data?.items.map((entry) => (
        <section
          key={`${entry.medicine_id}-${entry.branch_id}`}
          className="card book-entry"
          aria-label={`Book of ${entry.medicine_name}`}
        >
          <h2>
            {entry.medicine_name} {entry.strength} {entry.form} · {entry.branch_name}
          </h2>
          <p>
            Opening balance {entry.opening_balance} · closing balance <strong>{entry.closing_balance}</strong>{' '}
            · on hand {entry.on_hand}{' '}
            {entry.balanced ? (
              <span className="badge ok">Balanced</span>
            ) : (
              <strong className="field-error">Does not match stock</strong>
            )}
          </p>
          <table aria-label={`Movements of ${entry.medicine_name}`}>
            <thead>
              <tr>
                <th scope="col">Date</th>
                <th scope="col">Movement</th>
                <th scope="col">Batch</th>
                <th scope="col" className="num">
                  In/out
                </th>
                <th scope="col" className="num">
                  Balance
                </th>
                <th scope="col">Patient / prescriber</th>
                <th scope="col">Collected by</th>
                <th scope="col">User</th>
              </tr>
            </thead>
            <tbody>
              {entry.movements.map((m) => (
                <tr key={m.id}>
                  <td>{formatDateTime(m.created_at)}</td>
                  <td>{TYPE_LABELS[m.type] ?? m.type}</td>
                  <td>{m.batch_number}</td>
                  <td className="num">{m.quantity > 0 ? `+${m.quantity}` : m.quantity}</td>
                  <td className="num">{m.balance_after}</td>
                  <td>{m.patient_name ? `${m.patient_name} / ${m.prescriber_name ?? ''}` : '—'}</td>
                  <td>
                    {m.collected_by_name
                      ? `${m.collected_by_name}${m.collector_id_number ? ` (ID ${m.collector_id_number})` : ''}`
                      : '—'}
                  </td>
                  <td>{m.user_name ?? '—'}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      ))}
    </section>
  );
}
