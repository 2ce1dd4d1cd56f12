import { passwordProblem } from '@pharmacy/contracts/password';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useSession, useUser } from '../session/SessionProvider';
import { ErrorNotice } from '../ui/ErrorNotice';
import { fieldError, TextField } from '../ui/fields';
import { NewPasswordFields } from '../ui/NewPasswordFields';

/** Shown instead of the till while the account still has a seeded or reset password. */
export function ChangePasswordScreen() {
  const user = useUser();
  const { changePassword, signOut } = useSession();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const [weak, setWeak] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const firstRef = useRef<HTMLInputElement>(null);
  useEffect(() => firstRef.current?.focus(), []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    const problem = passwordProblem(next, user.email);
    setWeak(problem);
    setMismatch(next !== confirm);
    if (problem || next !== confirm) return;
    setBusy(true);
    setError(null);
    try {
      await changePassword(current, next);
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="login">
      <form className="card login-card" onSubmit={submit} aria-labelledby="change-title" noValidate>
        <h1 id="change-title">Choose a new password</h1>
        <p>
          {user.full_name}, your account still has a default or reset password. Choose your own before using
          the till.
        </p>
        <ErrorNotice error={error} />
        <TextField
          ref={firstRef}
          label="Current password"
          type="password"
          autoComplete="current-password"
          value={current}
          onChange={setCurrent}
          error={fieldError(error, 'current_password')}
        />
        <NewPasswordFields
          value={next}
          onChange={setNext}
          confirm={confirm}
          onConfirmChange={setConfirm}
          mismatch={mismatch}
          problem={weak}
          error={error}
        />
        <button type="submit" className="primary big" disabled={busy}>
          {busy ? 'Saving…' : 'Save new password'}
        </button>
        <button type="button" className="ghost" onClick={signOut}>
          Sign out
        </button>
      </form>
    </main>
  );
}
