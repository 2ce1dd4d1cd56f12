import { PASSWORD_RULE } from '@pharmacy/contracts/password';
import { fieldError, TextField } from './fields';

/**
 * A new password typed twice, with the rule as its hint: the first field shows `problem` (a check made here) or
 * the server's message on new_password, the second says when the two differ (`mismatch`, set on submit).
 */
export function NewPasswordFields({
  value,
  onChange,
  confirm,
  onConfirmChange,
  mismatch,
  problem,
  error,
}: {
  value: string;
  onChange: (value: string) => void;
  confirm: string;
  onConfirmChange: (value: string) => void;
  mismatch: boolean;
  problem?: string | undefined;
  error: unknown;
}) {
  return (
    <>
      <TextField
        label="New password"
        type="password"
        autoComplete="new-password"
        hint={PASSWORD_RULE}
        value={value}
        onChange={onChange}
        error={problem ?? fieldError(error, 'new_password')}
      />
      <TextField
        label="Repeat new password"
        type="password"
        autoComplete="new-password"
        value={confirm}
        onChange={onConfirmChange}
        error={mismatch ? 'does not match the new password' : fieldError(error, 'confirm_password')}
      />
    </>
  );
}
