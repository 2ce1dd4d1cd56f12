import type { Batch } from '@pharmacy/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, TextField } from '../ui/fields';

export type BatchAction = 'quarantined' | 'recalled' | 'active' | 'write-off';

const TITLES: Record<BatchAction, string> = {
  quarantined: 'Quarantine batch',
  recalled: 'Recall batch',
  active: 'Release batch',
  'write-off': 'Write off from batch',
};

/** Quarantine, recall, release (with the reason kept in the audit) or write off units (damaged, expired). */
export function BatchActionDialog({
  batch,
  action,
  onClose,
}: {
  batch: Batch;
  action: BatchAction;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const [quantity, setQuantity] = useState(action === 'write-off' ? String(batch.qty_on_hand) : '');
  const [local, setLocal] = useState<string | undefined>();
  const run = useMutation({
    mutationFn: () =>
      action === 'write-off'
        ? api.purchases.writeOff(batch.id, { quantity: Number(quantity), reason })
        : api.purchases.setStatus(batch.id, { status: action, reason }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['batches'] });
      queryClient.invalidateQueries({ queryKey: ['ledger'] });
      queryClient.invalidateQueries({ queryKey: ['alerts'] });
      queryClient.invalidateQueries({ queryKey: ['medicines'] });
      onClose();
    },
  });
  return (
    <Dialog title={`${TITLES[action]} ${batch.batch_number}`} onClose={onClose}>
      <form
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          if (action === 'write-off' && !/^\d+$/.test(quantity.trim()))
            return setLocal('must be a whole number');
          setLocal(undefined);
          run.mutate();
        }}
      >
        <p>
          {batch.medicine_name}, batch {batch.batch_number}: {batch.qty_on_hand} on hand, expires{' '}
          {batch.expiry_date}.
        </p>
        <ErrorNotice error={run.error} />
        {action === 'write-off' && (
          <TextField
            label="Quantity to write off"
            inputMode="numeric"
            value={quantity}
            onChange={setQuantity}
            error={local ?? fieldError(run.error, 'quantity')}
          />
        )}
        <TextField
          label="Reason"
          value={reason}
          onChange={setReason}
          error={fieldError(run.error, 'reason')}
          data-autofocus=""
        />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="primary" disabled={run.isPending}>
            {TITLES[action].split(' ')[0] === 'Write' ? 'Write off' : TITLES[action].split(' ')[0]}
          </button>
        </div>
      </form>
    </Dialog>
  );
}
