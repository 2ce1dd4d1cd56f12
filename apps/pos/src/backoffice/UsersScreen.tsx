import { allows, BRANCH_MANAGERS, ORGANISATION_READERS } from '@pharmacy/contracts/roles';
import { BranchFilter } from '../branch/BranchFilter';
import type { Role, User } from '@pharmacy/contracts';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { Pager } from '../ui/DataTable';
import { ErrorNotice } from '../ui/ErrorNotice';
import { SelectField, TextField } from '../ui/fields';
import { formatDateTime, ROLE_LABELS, ROLES } from '../ui/format';
import { ResetPasswordDialog, UserDialog } from './UserDialogs';

type Editing = { kind: 'create' } | { kind: 'edit'; user: User } | { kind: 'reset'; user: User } | null;

export function UsersScreen() {
  const me = useUser();
  const [search, setSearch] = useState('');
  const [role, setRole] = useState('');
  const [branchId, setBranchId] = useState('');
  const [page, setPage] = useState(1);
  const [editing, setEditing] = useState<Editing>(null);
  const deferredSearch = useDeferredValue(search.trim());
  const query = { search: deferredSearch, role: role as Role | '', branch_id: branchId, page, page_size: 50 };
  const users = useQuery({
    queryKey: ['users', query],
    queryFn: () =>
      api.users.list({
        ...query,
        role: query.role || undefined,
        branch_id: query.branch_id || undefined,
      }),
    placeholderData: keepPreviousData,
  });
  const canManage = allows(BRANCH_MANAGERS, me.role);
  // Lets a user locked out by wrong passwords (429 at sign-in) sign in again before the window ends.
  const unlock = useMutation({ mutationFn: (u: User) => api.users.unlock(u.id) });

  return (
    <section aria-labelledby="users-title">
      <div className="screen-header">
        <h1 id="users-title">Users</h1>
        {canManage && (
          <button type="button" className="primary" onClick={() => setEditing({ kind: 'create' })}>
            New user
          </button>
        )}
      </div>
      <search className="filters">
        <TextField
          label="Search users"
          type="search"
          value={search}
          onChange={(v) => {
            setSearch(v);
            setPage(1);
          }}
          placeholder="Name or email"
        />
        <SelectField
          label="Role"
          value={role}
          onChange={(v) => {
            setRole(v);
            setPage(1);
          }}
          options={[
            { value: '', label: 'All roles' },
            ...ROLES.map((r) => ({ value: r, label: ROLE_LABELS[r] })),
          ]}
        />
        {allows(ORGANISATION_READERS, me.role) ? (
          <BranchFilter
            value={branchId}
            onChange={(v) => {
              setBranchId(v);
              setPage(1);
            }}
          />
        ) : null}
      </search>
      <ErrorNotice error={users.error ?? unlock.error} />
      {unlock.isSuccess && <p role="status">{unlock.data.full_name} can sign in again.</p>}
      <table aria-label="Users">
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Email</th>
            <th scope="col">Role</th>
            <th scope="col">Branch</th>
            <th scope="col" className="secondary">
              Status
            </th>
            <th scope="col" className="secondary">
              Last sign-in
            </th>
            {canManage && <th scope="col">Actions</th>}
          </tr>
        </thead>
        <tbody>
          {users.data?.items.map((u) => (
            <tr key={u.id}>
              <td>{u.full_name}</td>
              <td className="breakable">{u.email}</td>
              <td>{ROLE_LABELS[u.role]}</td>
              <td>{u.branch_name}</td>
              <td className="secondary">{u.is_active ? 'Active' : 'Inactive'}</td>
              <td className="secondary">{formatDateTime(u.last_login_at)}</td>
              {canManage && (
                <td className="actions">
                  <button
                    type="button"
                    aria-label={`Edit ${u.full_name}`}
                    onClick={() => setEditing({ kind: 'edit', user: u })}
                  >
                    Edit
                  </button>
                  <button
                    type="button"
                    aria-label={`Unlock sign-in of ${u.full_name}`}
                    disabled={unlock.isPending}
                    onClick={() => unlock.mutate(u)}
                  >
                    Unlock
                  </button>
                  {me.role === 'admin' && (
                    <button
                      type="button"
                      aria-label={`Reset password of ${u.full_name}`}
                      onClick={() => setEditing({ kind: 'reset', user: u })}
                    >
                      Reset password
                    </button>
                  )}
                </td>
              )}
            </tr>
          ))}
        </tbody>
      </table>
      {users.data && users.data.items.length === 0 && <p>No users match.</p>}
      <Pager page={page} pageSize={50} total={users.data?.total} noun="users" onPage={setPage} />
      {editing?.kind === 'create' && <UserDialog onClose={() => setEditing(null)} />}
      {editing?.kind === 'edit' && <UserDialog user={editing.user} onClose={() => setEditing(null)} />}
      {editing?.kind === 'reset' && (
        <ResetPasswordDialog user={editing.user} onClose={() => setEditing(null)} />
      )}
    </section>
  );
}
