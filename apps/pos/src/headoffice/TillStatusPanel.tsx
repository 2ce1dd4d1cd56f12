import type { SyncStatus } from '@pharmacy/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { Dialog } from '../ui/Dialog';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, TextField } from '../ui/fields';
import { formatDateTime } from '../ui/format';
import { bootstrapFraction, bootstrapText } from './sync-text';
import { plainWords } from '@pharmacy/contracts/plain-words';

function DisconnectDialog({ status, onClose }: { status: SyncStatus; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [password, setPassword] = useState('');
  const disconnect = useMutation({
    mutationFn: () => api.sync.disconnect({ password }),
    onSuccess: (s) => {
      queryClient.setQueryData(['sync-status'], s);
      onClose();
    },
  });
  const submit = (e: FormEvent) => {
    e.preventDefault();
    disconnect.mutate();
  };
  return (
    <Dialog title="Disconnect from head office?" onClose={onClose}>
      <p>
        This till stops sending its sales to head office and stops receiving prices and users from it. It
        keeps the data it has and sells on its own. The till stays registered at head office until an
        administrator there revokes it.
      </p>
      {status.pending > 0 ? (
        <p className="notice error">
          {status.pending} change{status.pending === 1 ? '' : 's'} (sales and other records) still wait to be
          sent. Head office would never receive them: sync first, then disconnect.
        </p>
      ) : (
        <p>Every sale made here has reached head office.</p>
      )}
      <form onSubmit={submit} noValidate>
        <TextField
          label="Your password"
          type="password"
          autoComplete="current-password"
          hint="So that you can still sign in on this till once it no longer asks head office."
          value={password}
          onChange={setPassword}
          error={fieldError(disconnect.error, 'password')}
        />
        <ErrorNotice error={disconnect.error} />
        <div className="dialog-actions">
          <button type="button" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="danger" disabled={disconnect.isPending || !password}>
            Disconnect
          </button>
        </div>
      </form>
    </Dialog>
  );
}

/** A connected till: where it sends, how sync is going, Sync now, and (admin) Disconnect. */
export function TillStatusPanel({ status }: { status: SyncStatus }) {
  const me = useUser();
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const now = useMutation({
    mutationFn: () => api.sync.syncNow(),
    onSuccess: (s) => queryClient.setQueryData(['sync-status'], s),
  });
  const fraction = bootstrapFraction(status);
  return (
    <section aria-labelledby="till-sync-title" className="card">
      <h2 id="till-sync-title">Connected to head office</h2>
      {!status.bootstrapped || status.bootstrap_progress ? (
        <div role="status" aria-live="polite">
          <p>{bootstrapText(status)}</p>
          <progress
            className="progress"
            aria-label="Loading head office data"
            max={1}
            {...(fraction !== null && { value: fraction })}
          />
        </div>
      ) : (
        <p role="status">{bootstrapText(status)}</p>
      )}
      <dl className="facts">
        <dt>Central URL</dt>
        <dd>{status.central_url}</dd>
        <dt>Till</dt>
        <dd>
          {status.device_name ?? '—'} <span className="muted">{status.device_id}</span>
        </dd>
        <dt>Branch</dt>
        <dd>{me.branch_name}</dd>
        <dt>Connection</dt>
        <dd>{status.online ? 'Online' : 'Offline'}</dd>
        <dt>Last push</dt>
        <dd>{formatDateTime(status.last_push_at)}</dd>
        <dt>Last pull</dt>
        <dd>{formatDateTime(status.last_pull_at)}</dd>
        <dt>Last attempt</dt>
        <dd>{formatDateTime(status.last_attempt_at)}</dd>
        <dt>Pending changes</dt>
        <dd>{status.pending}</dd>
        <dt>Rejected changes</dt>
        <dd>
          {status.rejected}
          {status.rejected > 0 && <span className="muted"> · each is listed under Changes to review</span>}
        </dd>
        <dt>Last error</dt>
        <dd>{status.last_error ? plainWords(status.last_error.message) : 'None'}</dd>
      </dl>
      <ErrorNotice error={now.error} />
      <div className="toolbar">
        <button type="button" className="primary" disabled={now.isPending} onClick={() => now.mutate()}>
          {now.isPending ? 'Syncing…' : 'Sync now'}
        </button>
        {me.role === 'admin' && (
          <button type="button" onClick={() => setConfirming(true)}>
            Disconnect…
          </button>
        )}
      </div>
      {confirming && <DisconnectDialog status={status} onClose={() => setConfirming(false)} />}
    </section>
  );
}
