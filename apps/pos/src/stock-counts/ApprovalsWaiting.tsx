import type { Approval } from '@pharmacy/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { TextAreaField } from '../ui/fields';
import { formatDateTime } from '../ui/format';

/**
 * For a branch manager (or admin): count variances colleagues asked to have approved, to approve or
 * reject (PUT /approvals/{id}); nobody decides their own request.
 */
export function ApprovalsWaiting() {
  const me = useUser();
  const [deciding, setDeciding] = useState<Approval | null>(null);
  const pending = useQuery({
    queryKey: ['approvals', 'stock_variance', 'pending'],
    queryFn: () => api.approvals.list({ kind: 'stock_variance', status: 'pending', page_size: 50 }),
    refetchInterval: 30_000,
  });
  const items = (pending.data?.items ?? []).filter((a) => a.requested_by !== me.id && !a.is_expired);
  if (items.length === 0 && !pending.error) return null;
  return (
    <section aria-labelledby="waiting-title" className="card waiting">
      <h2 id="waiting-title">Count variances waiting for your approval</h2>
      <ErrorNotice error={pending.error} />
      <table aria-label="Approvals waiting">
        <thead>
          <tr>
            <th scope="col">Asked by</th>
            <th scope="col">Batch</th>
            <th scope="col" className="num">
              Variance
            </th>
            <th scope="col">Reason</th>
            <th scope="col">Expires</th>
            <th scope="col">Decide</th>
          </tr>
        </thead>
        <tbody>
          {items.map((a) => (
            <tr key={a.id}>
              <td>{a.requested_by_name}</td>
              <td>
                <BatchName batchId={String(a.payload.batch_id)} />
              </td>
              <td className="num">{String(a.payload.variance)}</td>
              <td>{a.reason}</td>
              <td>{formatDateTime(a.expires_at)}</td>
              <td>
                <button
                  type="button"
                  aria-label={`Decide the request of ${a.requested_by_name}`}
                  onClick={() => setDeciding(a)}
                >
                  Decide
                </button>
              </td>
            </tr>
          ))}
        </tbody>
      </table>
      {deciding && <DecideDialog approval={deciding} onClose={() => setDeciding(null)} />}
    </section>
  );
}

function BatchName({ batchId }: { batchId: string }) {
  const batch = useQuery({
    queryKey: ['batch', batchId],
    queryFn: () => api.transfers.batch(batchId),
    staleTime: 60_000,
  });
  return <>{batch.data ? `${batch.data.medicine_name} ${batch.data.batch_number}` : batchId}</>;
}

function DecideDialog({ approval, onClose }: { approval: Approval; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [reason, setReason] = useState('');
  const decide = useMutation({
    mutationFn: (status: 'approved' | 'rejected') => api.approvals.decide(approval.id, { status, reason }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['approvals'] });
      onClose();
    },
  });
  return (
    <Dialog title={`Variance of ${String(approval.payload.variance)} units`} onClose={onClose}>
      <ErrorNotice error={decide.error} />
      <p>
        {approval.requested_by_name} counted a variance of {String(approval.payload.variance)} units on batch{' '}
        <BatchName batchId={String(approval.payload.batch_id)} />: “{approval.reason}”.
      </p>
      <TextAreaField label="Your reason" value={reason} onChange={setReason} maxLength={500} />
      <div className="dialog-actions">
        <button
          type="button"
          disabled={decide.isPending || !reason.trim()}
          onClick={() => decide.mutate('rejected')}
        >
          Reject
        </button>
        <button
          type="button"
          className="primary"
          disabled={decide.isPending || !reason.trim()}
          onClick={() => decide.mutate('approved')}
        >
          Approve
        </button>
      </div>
    </Dialog>
  );
}
