import type { Approval } from '@pharmacy/contracts';
import { ApiError } from '@pharmacy/contracts/client';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api } from '../api';
import { ManagerOverrideDialog } from '../approvals/ManagerOverrideDialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, TextField } from '../ui/fields';
import type { Cart } from './cart';

/** The discount a manager is asked to allow: the cart's discounted line (one approval covers one medicine). */
export function discountBounds(cart: Cart, convert: (base: number) => number, currency: string | undefined) {
  const discounted = cart.lines.filter((l) => l.discount > 0);
  const line = discounted.length === 1 ? discounted[0] : undefined;
  if (!line) return null;
  return {
    medicine_id: line.medicine_id,
    quantity: line.quantity,
    max_discount: convert(line.discount),
    ...(currency ? { currency_code: currency } : {}),
  };
}

/**
 * When a sale needs a manager's approval (403 APPROVAL_REQUIRED: a discount above the threshold), the
 * cashier asks for it from the till with a reason; the request waits in the manager's Approvals inbox,
 * and once approved its id goes with the sale (`onApproved`), which the cashier then completes. Or a manager
 * at the counter approves it on this till (Manager override), asked for at once if it was not yet.
 */
export function ApprovalRequest({
  error,
  cart,
  convert,
  currency,
  onApproved,
}: {
  error: unknown;
  cart: Cart;
  convert: (base: number) => number;
  currency: string | undefined;
  onApproved: (approvalId: string) => void;
}) {
  const [reason, setReason] = useState('');
  const [overriding, setOverriding] = useState(false);
  const [overridden, setOverridden] = useState<Approval | null>(null);
  const request = (why: string) => {
    const payload = discountBounds(cart, convert, currency);
    if (!payload) throw new Error('Ask for one discounted line at a time: remove the other discounts first.');
    return api.approvals.create({ kind: 'discount', payload, reason: why });
  };
  const ask = useMutation({ mutationFn: () => request(reason) });
  const asked = ask.data;
  const status = useQuery({
    queryKey: ['approvals', 'mine', asked?.id],
    queryFn: async () =>
      (await api.approvals.list({ status: 'all', page_size: 20 })).items.find((a) => a.id === asked?.id),
    enabled: !!asked,
    refetchInterval: (q) => (q.state.data?.status === 'pending' || !q.state.data ? 2_000 : false),
  });
  const current: Approval | undefined = overridden ?? status.data ?? asked;
  useEffect(() => {
    if (current?.status === 'approved') onApproved(current.id);
  }, [current?.status, current?.id, onApproved]);

  if (!(error instanceof ApiError && error.code === 'APPROVAL_REQUIRED') && !asked) return null;
  if (current && current.status !== 'pending') {
    return current.status === 'approved' ? (
      <p role="status" className="notice ok">
        Approved by {current.decided_by_name ?? 'a manager'}: complete the sale now.
      </p>
    ) : (
      <p role="alert" className="notice error">
        Rejected by {current.decided_by_name ?? 'a manager'}: {current.decision_reason}
      </p>
    );
  }
  const override = (
    <>
      <button type="button" onClick={() => setOverriding(true)}>
        Manager override
      </button>
      {overriding && (
        <ManagerOverrideDialog
          what="this discount"
          approval={current}
          ask={() => request(reason.trim() || 'Approved by a manager at the till')}
          onApproved={(approved) => {
            setOverridden(approved);
            setOverriding(false);
          }}
          onClose={() => setOverriding(false)}
        />
      )}
    </>
  );
  if (current) {
    return (
      <div role="status" className="notice info">
        Waiting for a manager to approve the discount… {override}
      </div>
    );
  }
  return (
    <fieldset className="plain">
      <legend>Ask a manager</legend>
      <TextField
        label="Reason for the discount"
        value={reason}
        onChange={setReason}
        error={fieldError(ask.error, 'reason')}
      />
      <ErrorNotice error={ask.error} />
      <div className="form-actions">
        <button type="button" disabled={ask.isPending} onClick={() => ask.mutate()}>
          Ask a manager to approve
        </button>
        {override}
      </div>
    </fieldset>
  );
}
