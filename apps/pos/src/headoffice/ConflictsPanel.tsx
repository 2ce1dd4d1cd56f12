import { allows, BRANCH_MANAGERS } from '@pharmacy/contracts/roles';
import type { ConflictAction, SyncConflict } from '@pharmacy/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { Pager } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, TextField } from '../ui/fields';
import { FormDialog } from '../ui/FormDialog';
import { formatDateTime } from '../ui/format';
import { useSaveThenClose } from '../ui/useSaveThenClose';
import { actionLabel, resolutionText } from './sync-text';

const show = (payload: unknown) =>
  payload === null || payload === undefined ? '—' : JSON.stringify(payload, null, 2);

function DismissDialog({ item, onClose }: { item: SyncConflict; onClose: () => void }) {
  const [reason, setReason] = useState('');
  const dismiss = useSaveThenClose({
    save: () => api.sync.resolveConflict(item.id, { resolution: 'dismiss', reason: reason.trim() }),
    invalidates: [['sync-conflicts'], ['sync-status']],
    onClose,
  });
  return (
    <FormDialog
      title={`Dismiss: ${item.title}`}
      onClose={onClose}
      onSubmit={() => dismiss.mutate()}
      error={dismiss.error}
      pending={dismiss.isPending}
      submitLabel="Dismiss"
      danger
      lead={
        <p>
          {item.side === 'till'
            ? 'The change is never sent to head office again. Say why, for whoever reads this later.'
            : 'Head office never applies this change. Say why, for whoever reads this later.'}
        </p>
      }
    >
      <TextField
        label="Reason"
        value={reason}
        onChange={setReason}
        maxLength={300}
        data-autofocus
        error={fieldError(dismiss.error, 'reason')}
      />
    </FormDialog>
  );
}

function ReviewItem({ item }: { item: SyncConflict }) {
  const me = useUser();
  const queryClient = useQueryClient();
  const [dismissing, setDismissing] = useState(false);
  const resolve = useMutation({
    mutationFn: (resolution: Exclude<ConflictAction, 'dismiss'>) =>
      api.sync.resolveConflict(item.id, { resolution }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['sync-conflicts'] });
      queryClient.invalidateQueries({ queryKey: ['sync-status'] });
      queryClient.invalidateQueries({ queryKey: ['books'] });
    },
  });
  const canResolve = allows(BRANCH_MANAGERS, me.role);
  const titleId = `review-${item.id}`;
  return (
    <li className="card" aria-labelledby={titleId}>
      <h3 id={titleId}>{item.title}</h3>
      <p>
        {item.reason.charAt(0).toUpperCase() + item.reason.slice(1)}.{' '}
        <span className="muted">{formatDateTime(item.created_at)}</span>
      </p>
      {item.status === 'resolved' && <p className="muted">{resolutionText(item)}</p>}
      <ErrorNotice error={resolve.error} />
      {canResolve && item.actions.length > 0 && (
        <div className="toolbar">
          {item.actions.map((action) =>
            action === 'dismiss' ? (
              <button key={action} type="button" onClick={() => setDismissing(true)}>
                {actionLabel(action, item.side)}
              </button>
            ) : (
              <button
                key={action}
                type="button"
                disabled={resolve.isPending}
                onClick={() => resolve.mutate(action)}
              >
                {actionLabel(action, item.side)}
              </button>
            ),
          )}
        </div>
      )}
      <details>
        <summary>Details</summary>
        <p className="muted">
          {item.entity} {item.entity_id} · {item.code}: {item.message}
        </p>
        <div className="versions">
          <figure>
            <figcaption>Head office's version</figcaption>
            <pre>{show(item.central_payload)}</pre>
          </figure>
          <figure>
            <figcaption>This till's version</figcaption>
            <pre>{show(item.till_payload)}</pre>
          </figure>
        </div>
      </details>
      {dismissing && <DismissDialog item={item} onClose={() => setDismissing(false)} />}
    </li>
  );
}

/** Changes to review: every rejected change and edit conflict in words, with the actions that fit it. */
export function ConflictsPanel() {
  const [page, setPage] = useState(1);
  const [status, setStatus] = useState<'open' | 'resolved'>('open');
  const conflicts = useQuery({
    queryKey: ['sync-conflicts', status, page],
    queryFn: () => api.sync.conflicts({ status, page, page_size: 20 }),
    placeholderData: keepPreviousData,
  });
  return (
    <section aria-labelledby="conflicts-title">
      <h2 id="conflicts-title">Changes to review</h2>
      <div className="toolbar">
        <button type="button" aria-pressed={status === 'open'} onClick={() => setStatus('open')}>
          Open
        </button>
        <button type="button" aria-pressed={status === 'resolved'} onClick={() => setStatus('resolved')}>
          Resolved
        </button>
      </div>
      <ErrorNotice error={conflicts.error} />
      <ul className="scan-log" aria-label="Changes to review">
        {conflicts.data?.items.map((c) => (
          <ReviewItem key={c.id} item={c} />
        ))}
      </ul>
      {conflicts.data && conflicts.data.items.length === 0 && (
        <p>{status === 'open' ? 'Nothing to review.' : 'Nothing resolved yet.'}</p>
      )}
      <Pager page={page} pageSize={20} total={conflicts.data?.total} noun="changes" onPage={setPage} />
    </section>
  );
}
