import type { SyncConflict } from '@pharmacy/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { Pager } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { formatDateTime } from '../ui/format';

const show = (payload: unknown) =>
  payload === null || payload === undefined ? '—' : JSON.stringify(payload, null, 2);

function ConflictRow({ conflict }: { conflict: SyncConflict }) {
  const me = useUser();
  const queryClient = useQueryClient();
  const resolve = useMutation({
    mutationFn: (resolution: 'keep_central' | 'keep_till') =>
      api.sync.resolveConflict(conflict.id, { resolution }),
    onSuccess: () => {
      queryClient.invalidateQueries({ queryKey: ['sync-conflicts'] });
      queryClient.invalidateQueries({ queryKey: ['sync-status'] });
    },
  });
  const canResolve = conflict.status === 'open' && (me.role === 'admin' || me.role === 'branch_manager');
  return (
    <li className="card">
      <p>
        <strong>{conflict.entity}</strong>{' '}
        {conflict.entity_id && <span className="muted">{conflict.entity_id}</span>} · {conflict.code}:{' '}
        {conflict.message} · {formatDateTime(conflict.created_at)} ·{' '}
        {conflict.status === 'open' ? 'Open' : `Resolved (${conflict.resolution})`}
      </p>
      <div className="versions">
        <figure>
          <figcaption>Head office's version</figcaption>
          <pre>{show(conflict.central_payload)}</pre>
        </figure>
        <figure>
          <figcaption>This till's version</figcaption>
          <pre>{show(conflict.till_payload)}</pre>
        </figure>
      </div>
      <ErrorNotice error={resolve.error} />
      {canResolve && (
        <div className="toolbar">
          <button type="button" disabled={resolve.isPending} onClick={() => resolve.mutate('keep_central')}>
            Keep head office's
          </button>
          <button type="button" disabled={resolve.isPending} onClick={() => resolve.mutate('keep_till')}>
            Keep this till's
          </button>
        </div>
      )}
    </li>
  );
}

/** sync_conflicts: both versions side by side, resolved through the existing resolve route. */
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
      <h2 id="conflicts-title">Conflicts</h2>
      <div className="toolbar">
        <button type="button" aria-pressed={status === 'open'} onClick={() => setStatus('open')}>
          Open
        </button>
        <button type="button" aria-pressed={status === 'resolved'} onClick={() => setStatus('resolved')}>
          Resolved
        </button>
      </div>
      <ErrorNotice error={conflicts.error} />
      <ul className="scan-log" aria-label="Conflicts">
        {conflicts.data?.items.map((c) => (
          <ConflictRow key={c.id} conflict={c} />
        ))}
      </ul>
      {conflicts.data && conflicts.data.items.length === 0 && <p>No {status} conflicts.</p>}
      <Pager page={page} pageSize={20} total={conflicts.data?.total} noun="conflicts" onPage={setPage} />
    </section>
  );
}
