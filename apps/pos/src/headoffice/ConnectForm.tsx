import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FormEvent } from 'react';
import { api } from '../api';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, SelectField, TextField } from '../ui/fields';
import { useForm } from '../ui/useForm';
import { HeldRecordsNotice } from './HeldRecordsNotice';

/**
 * "Connect to head office": sign in to central (branches listed from there), name the till, Connect. The
 * server registers it as `npm run till:register` does and starts replicating at once.
 */
export function ConnectForm() {
  const queryClient = useQueryClient();
  const { form, set, fieldsFor } = useForm({
    central_url: '',
    email: '',
    password: '',
    name: '',
    branch_id: '',
  });
  const signIn = { central_url: form.central_url.trim(), email: form.email.trim(), password: form.password };
  const branches = useMutation({ mutationFn: () => api.sync.centralBranches(signIn) });
  const held = useQuery({ queryKey: ['held-records'], queryFn: () => api.sync.heldRecords() });
  const heldBranch = branches.data?.items.find((b) => b.id === held.data?.branch_id);
  const archive = useMutation({
    mutationFn: () => api.sync.archiveHeldRecords(),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['held-records'] }),
  });
  const connect = useMutation({
    mutationFn: () =>
      api.sync.connect({
        ...signIn,
        name: form.name.trim(),
        ...(form.branch_id && { branch_id: form.branch_id }),
      }),
    onSuccess: (status) => queryClient.setQueryData(['sync-status'], status),
    onError: () => queryClient.invalidateQueries({ queryKey: ['held-records'] }),
  });
  const err = connect.error ?? branches.error;
  const field = fieldsFor(err);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    connect.mutate();
  };
  return (
    <form onSubmit={submit} noValidate aria-labelledby="connect-title" className="card">
      <h2 id="connect-title">Connect to head office</h2>
      <p className="muted">
        Sign in with a head office administrator's (or this branch manager's) account. The till is registered
        with head office, loads its data, and then everyone signs in here with their head office account.
      </p>
      <ErrorNotice error={err} title={connect.error ? 'Not connected:' : 'Head office:'} />
      <TextField
        label="Central URL"
        type="url"
        placeholder="http://head-office:8000"
        autoComplete="url"
        {...field('central_url')}
      />
      <div className="form-row">
        <TextField label="Email" type="email" autoComplete="username" {...field('email')} />
        <TextField
          label="Password"
          type="password"
          autoComplete="current-password"
          value={form.password}
          onChange={set('password')}
          error={fieldError(err, 'password')}
        />
      </div>
      <div className="toolbar">
        <button
          type="button"
          onClick={() => branches.mutate()}
          disabled={branches.isPending || !signIn.central_url || !signIn.email || !signIn.password}
        >
          {branches.isPending ? 'Signing in…' : 'Sign in and list branches'}
        </button>
      </div>
      <div className="form-row">
        <TextField label="Till name" placeholder="Front counter" {...field('name')} />
        <SelectField
          label="Branch"
          {...field('branch_id')}
          disabled={!branches.data}
          options={[
            { value: '', label: branches.data ? 'My own branch' : 'Sign in to list branches' },
            ...(branches.data?.items ?? []).map((b) => ({ value: b.id, label: `${b.name} (${b.code})` })),
          ]}
        />
      </div>
      {held.data && (held.data.total > 0 || held.data.open_session || archive.data) && (
        <HeldRecordsNotice
          held={held.data}
          branchName={heldBranch && `${heldBranch.name} (${heldBranch.code})`}
          archive={archive}
        />
      )}
      <div className="form-actions">
        <button type="submit" className="primary" disabled={connect.isPending}>
          {connect.isPending ? 'Connecting…' : 'Connect'}
        </button>
      </div>
    </form>
  );
}
