import { ApiError } from '@pharmacy/contracts/client';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useSession } from '../session/SessionProvider';
import { describeError } from '../ui/ErrorNotice';
import { TextField } from '../ui/fields';
import { LOGIN_INTERACTIVE_MARK } from './marks';

function useCountdown(): [number, (seconds: number) => void] {
  const [left, setLeft] = useState(0);
  useEffect(() => {
    if (left <= 0) return;
    const timer = setTimeout(() => setLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [left]);
  return [left, setLeft];
}

export function LoginScreen({ expired }: { expired: boolean }) {
  const { signIn } = useSession();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [wait, setWait] = useCountdown();
  const emailRef = useRef<HTMLInputElement>(null);
  const passwordRef = useRef<HTMLInputElement>(null);

  useEffect(() => {
    emailRef.current?.focus();
    performance.mark(LOGIN_INTERACTIVE_MARK);
  }, []);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (busy || wait > 0) return;
    if (!email.trim() || !password) {
      setError(new Error('Enter your email and password.'));
      (email.trim() ? passwordRef : emailRef).current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await signIn(email, password);
    } catch (err) {
      setError(err);
      if (err instanceof ApiError && err.status === 429) setWait(err.retryAfterSeconds ?? 60);
      setPassword('');
      passwordRef.current?.focus();
    } finally {
      setBusy(false);
    }
  }

  let message: string | null = null;
  if (wait > 0) message = `Too many failed sign-in attempts. Try again in ${wait} s.`;
  else if (error instanceof ApiError && error.status === 401) message = 'Wrong email or password.';
  else if (error instanceof ApiError && error.status === 403) message = error.detail;
  else if (error instanceof ApiError && error.status === 429) message = null;
  else if (error) message = describeError(error);

  return (
    <main className="login">
      <form className="card login-card" onSubmit={submit} aria-labelledby="login-title" noValidate>
        <h1 id="login-title">Sign in to the till</h1>
        {expired && (
          <p className="notice info" role="status">
            Your session has ended. Sign in again to carry on where you were.
          </p>
        )}
        {message && (
          <p role="alert" className="notice error">
            {message}
          </p>
        )}
        <TextField
          ref={emailRef}
          label="Email"
          type="email"
          autoComplete="username"
          value={email}
          onChange={setEmail}
          required
        />
        <TextField
          ref={passwordRef}
          label="Password"
          type="password"
          autoComplete="current-password"
          value={password}
          onChange={setPassword}
          required
        />
        <button type="submit" className="primary big" disabled={busy || wait > 0}>
          {busy ? 'Signing in…' : 'Sign in'}
        </button>
      </form>
    </main>
  );
}
