import type { Transfer } from '@pharmacy/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { CellInput } from '../purchasing/CellInput';
import { closeOnEscape } from '../purchasing/escape';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, TextAreaField } from '../ui/fields';
import { fullReceipt, type Reason, type ReceiptEntry, receiptLines } from './receipt-draft';

/**
 * Receives a transfer in transit at its destination: every line starts as arrived in full; the receiver
 * lowers what did not arrive and says why (short or damaged).
 */
export function ReceiveTransfer({
  transfer,
  onReceived,
  onClose,
}: {
  transfer: Transfer;
  onReceived: (t: Transfer) => void;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [entries, setEntries] = useState<Record<string, ReceiptEntry>>(() => fullReceipt(transfer.items));
  const [notes, setNotes] = useState('');
  const [problems, setProblems] = useState<Record<string, string>>({});
  const receive = useMutation({
    mutationFn: (lines: Parameters<typeof api.transfers.receive>[1]['lines']) =>
      api.transfers.receive(transfer.id, { notes, lines }),
    onSuccess: (t) => {
      queryClient.invalidateQueries({ queryKey: ['transfers'] });
      queryClient.invalidateQueries({ queryKey: ['transfer-batches'] });
      onReceived(t);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const built = receiptLines(transfer.items, entries);
    setProblems('problems' in built ? built.problems : {});
    if ('lines' in built) receive.mutate(built.lines);
  };
  const err = receive.error;
  /** Changes a line and drops its local problems (the form says what is still wrong on the next submit). */
  const set = (n: number, id: string, patch: Partial<ReceiptEntry>) => {
    setEntries((all) => ({ ...all, [id]: { ...all[id]!, ...patch } }));
    setProblems((p) => Object.fromEntries(Object.entries(p).filter(([k]) => !k.startsWith(`lines.${n}.`))));
  };
  const problem = (n: number, field: string) =>
    problems[`lines.${n}.${field}`] ?? fieldError(err, `lines.${n}.${field}`);
  return (
    <form
      onSubmit={submit}
      onKeyDown={closeOnEscape(onClose)}
      noValidate
      className="card"
      aria-labelledby="receive-title"
    >
      <h2 id="receive-title">Receive transfer from {transfer.from_branch_name}</h2>
      <ErrorNotice error={err} />
      <table aria-label="Lines to receive" className="line-table">
        <thead>
          <tr>
            <th scope="col">Medicine</th>
            <th scope="col">Batch</th>
            <th scope="col" className="num">
              Sent
            </th>
            <th scope="col" className="num">
              Received
            </th>
            <th scope="col">Discrepancy</th>
          </tr>
        </thead>
        <tbody>
          {transfer.items.map((i, n) => {
            const entry = entries[i.id]!;
            const label = `${i.medicine_name} ${i.batch_number}`;
            return (
              <tr key={i.id}>
                <td>{i.medicine_name}</td>
                <td>
                  {i.batch_number} (exp {i.expiry_date})
                </td>
                <td className="num">{i.quantity}</td>
                <td className="num">
                  <CellInput
                    label={`Received of ${label}`}
                    inputMode="numeric"
                    value={entry.qty}
                    onChange={(qty) => set(n, i.id, { qty })}
                    error={problem(n, 'received_quantity')}
                  />
                </td>
                <td>
                  <span className="cell-input">
                    <select
                      aria-label={`Discrepancy reason for ${label}`}
                      value={entry.reason}
                      onChange={(e) => set(n, i.id, { reason: e.target.value as Reason })}
                    >
                      <option value="">None</option>
                      <option value="short">Short</option>
                      <option value="damaged">Damaged</option>
                    </select>
                    {problem(n, 'discrepancy_reason') && (
                      <small className="field-error">{problem(n, 'discrepancy_reason')}</small>
                    )}
                  </span>
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      <TextAreaField label="Receipt notes" value={notes} onChange={setNotes} rows={2} maxLength={500} />
      <div className="form-actions">
        <button type="button" onClick={onClose}>
          Close
        </button>
        <button type="submit" className="primary" disabled={receive.isPending}>
          Receive into stock
        </button>
      </div>
    </form>
  );
}
