import type { Batch } from '@pharmacy/contracts';
import { useState } from 'react';
import { api } from '../api';
import { fieldError, TextField } from '../ui/fields';
import { FormDialog } from '../ui/FormDialog';
import { useSaveThenClose } from '../ui/useSaveThenClose';

export type BatchAction = 'quarantined' | 'recalled' | 'active' | 'write-off';

const TITLES: Record<BatchAction, string> = {
  quarantined: 'Quarantine batch',
  recalled: 'Recall batch',
  active: 'Release batch',
  'write-off': 'Write off from batch',
};

/** The submit button of each action. */
const VERBS: Record<BatchAction, string> = {
  quarantined: 'Quarantine',
  recalled: 'Recall',
  active: 'Release',
  'write-off': 'Write off',
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
  const [reason, setReason] = useState('');
  const [quantity, setQuantity] = useState(action === 'write-off' ? String(batch.qty_on_hand) : '');
  const [local, setLocal] = useState<string | undefined>();
  const run = useSaveThenClose({
    save: () =>
      action === 'write-off'
        ? api.purchases.writeOff(batch.id, { quantity: Number(quantity), reason })
        : api.purchases.setStatus(batch.id, { status: action, reason }),
    invalidates: [['batches'], ['ledger'], ['alerts'], ['medicines']],
    onClose,
  });
  return (
    <FormDialog
      title={`${TITLES[action]} ${batch.batch_number}`}
      onClose={onClose}
      onSubmit={() => {
        if (action === 'write-off' && !/^\d+$/.test(quantity.trim()))
          return setLocal('must be a whole number');
        setLocal(undefined);
        run.mutate();
      }}
      error={run.error}
      pending={run.isPending}
      submitLabel={VERBS[action]}
      lead={
        <p>
          {batch.medicine_name}, batch {batch.batch_number}: {batch.qty_on_hand} on hand, expires{' '}
          {batch.expiry_date}.
        </p>
      }
    >
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
    </FormDialog>
  );
}
