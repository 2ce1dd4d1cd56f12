import { PASSWORD_RULE } from '@pharmacy/contracts/password';
import type { Role, User } from '@pharmacy/contracts';
import { MANAGER_GRANTS } from '@pharmacy/contracts/roles';
import { useState } from 'react';
import { api } from '../api';
import { useUser } from '../session/SessionProvider';
import { CheckboxField, fieldError, SelectField, TextField } from '../ui/fields';
import { FormDialog } from '../ui/FormDialog';
import { NewPasswordFields } from '../ui/NewPasswordFields';
import { useForm } from '../ui/useForm';
import { useSaveThenClose } from '../ui/useSaveThenClose';
import { ROLE_LABELS, ROLES } from '../ui/format';
import { useBranches } from '../branch/useBranches';

/** Roles a branch manager may give (the server enforces the same). */

export function UserDialog({ user, onClose }: { user?: User; onClose: () => void }) {
  const me = useUser();
  const branches = useBranches();
  const { form, set, fieldsFor } = useForm({
    email: user?.email ?? '',
    full_name: user?.full_name ?? '',
    phone: user?.phone ?? '',
    role: user?.role ?? ('cashier' as Role),
    branch_id: user?.branch_id ?? me.branch_id,
    is_active: user?.is_active ?? true,
    password: '',
  });
  const save = useSaveThenClose({
    save: () => {
      const { password, is_active, ...details } = form;
      return user
        ? api.users.update(user.id, { ...details, is_active })
        : api.users.create({ ...details, password });
    },
    invalidates: [['users']],
    onClose,
  });
  const roles: readonly Role[] = me.role === 'admin' ? ROLES : MANAGER_GRANTS;
  const branchOptions = (branches.data?.items ?? [])
    .filter((b) => me.role === 'admin' || b.id === me.branch_id)
    .map((b) => ({ value: b.id, label: b.name }));
  const err = save.error;
  const field = fieldsFor(err);

  return (
    <FormDialog
      title={user ? `Edit ${user.full_name}` : 'New user'}
      onClose={onClose}
      onSubmit={() => save.mutate()}
      error={err}
      pending={save.isPending}
      submitLabel={user ? 'Save changes' : 'Create user'}
    >
      <TextField label="Full name" {...field('full_name')} />
      <TextField label="Email" type="email" {...field('email')} />
      <TextField label="Phone" type="tel" {...field('phone')} />
      <SelectField
        label="Role"
        value={form.role}
        onChange={(v) => set('role')(v as Role)}
        options={(roles.includes(form.role) ? roles : [form.role, ...roles]).map((r) => ({
          value: r,
          label: ROLE_LABELS[r],
        }))}
        error={fieldError(err, 'role')}
      />
      <SelectField label="Branch" {...field('branch_id')} options={branchOptions} />
      {user ? (
        <CheckboxField label="Active" checked={form.is_active} onChange={set('is_active')} />
      ) : (
        <TextField
          label="Initial password"
          type="password"
          autoComplete="new-password"
          hint={`${PASSWORD_RULE} Give it to the person in private; they choose their own at first sign-in.`}
          {...field('password')}
        />
      )}
    </FormDialog>
  );
}

export function ResetPasswordDialog({ user, onClose }: { user: User; onClose: () => void }) {
  const [password, setPassword] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const reset = useSaveThenClose({
    save: () => api.users.resetPassword(user.id, { new_password: password, confirm_password: confirm }),
    invalidates: [['users']],
    onClose,
  });
  const err = reset.error;
  return (
    <FormDialog
      title={`Reset password of ${user.full_name}`}
      onClose={onClose}
      onSubmit={() => {
        setMismatch(password !== confirm);
        if (password === confirm) reset.mutate();
      }}
      error={err}
      pending={reset.isPending}
      submitLabel="Reset password"
      lead={<p>They will have to choose their own password when they next sign in.</p>}
    >
      <NewPasswordFields
        value={password}
        onChange={setPassword}
        confirm={confirm}
        onConfirmChange={setConfirm}
        mismatch={mismatch}
        error={err}
      />
    </FormDialog>
  );
}
