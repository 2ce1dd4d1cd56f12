import type { Transfer } from '@pharmacy/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, TextField } from '../ui/fields';

/** The sender takes back a transfer not yet received: its units return to the batches they left. */
export function CancelTransfer({
  transfer,
  onCancelled,
  onClose,
}: {
  transfer: Transfer;
  onCancelled: (t: Transfer) => void;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const cancel = useMutation({
    mutationFn: () => api.transfers.cancel(transfer.id, { reason }),
    onSuccess: (t) => {
      queryClient.invalidateQueries({ queryKey: ['transfers'] });
      queryClient.invalidateQueries({ queryKey: ['transfer-batches'] });
      onCancelled(t);
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    cancel.mutate();
  };
  const units = transfer.items.reduce((n, i) => n + i.quantity, 0);
  return (
    <Dialog title={`Cancel transfer to ${transfer.to_branch_name}`} onClose={onClose}>
      <form onSubmit={submit} noValidate>
        <p>
          The {units} units in transit go back into the batches they left. {transfer.to_branch_name} can no
          longer receive this transfer.
        </p>
        <ErrorNotice error={cancel.error} />
        <TextField
          label="Reason"
          value={reason}
          onChange={setReason}
          maxLength={500}
          error={fieldError(cancel.error, 'reason')}
          data-autofocus=""
        />
        <div className="form-actions">
          <button type="button" onClick={onClose}>
            Keep it in transit
          </button>
          <button type="submit" className="danger" disabled={cancel.isPending}>
            Cancel transfer
          </button>
        </div>
      </form>
    </Dialog>
  );
}
