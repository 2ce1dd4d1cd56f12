import type { User } from '@pharmacy/contracts';
import { useQueryClient } from '@tanstack/react-query';
import { createContext, type ReactNode, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import { api, onUnauthorized } from '../api';
import { clearToken, loadToken, refreshDelay, saveToken, tokenFromResponse } from '../token-store';

export type SessionState =
  | { status: 'restoring' }
  | { status: 'signed-out'; reason?: 'expired' | 'signed-out' }
  | { status: 'signed-in'; user: User };

interface SessionApi {
  state: SessionState;
  signIn(email: string, password: string): Promise<User>;
  signOut(): void;
  changePassword(currentPassword: string, newPassword: string): Promise<void>;
}

const SessionContext = createContext<SessionApi | null>(null);

export function useSession(): SessionApi {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession outside <SessionProvider>');
  return value;
}

/** The signed-in user; only for screens rendered behind the sign-in guard. */
export function useUser(): User {
  const { state } = useSession();
  if (state.status !== 'signed-in') throw new Error('useUser without a signed-in user');
  return state.user;
}

const RETRY_REFRESH_MS = 30_000;

export function SessionProvider({ children }: { children: ReactNode }) {
  const queryClient = useQueryClient();
  const [state, setState] = useState<SessionState>(() =>
    loadToken() ? { status: 'restoring' } : { status: 'signed-out' },
  );
  const [tokenVersion, setTokenVersion] = useState(0);

  const endSession = useCallback(
    (reason: 'expired' | 'signed-out') => {
      clearToken();
      queryClient.clear();
      setState({ status: 'signed-out', reason });
    },
    [queryClient],
  );

  // A reload with a stored token: ask the server who it belongs to.
  useEffect(() => {
    if (state.status !== 'restoring') return;
    api.auth.me().then(
      (user) => setState({ status: 'signed-in', user }),
      () => endSession('expired'),
    );
  }, [state.status, endSession]);

  useEffect(() => onUnauthorized(() => endSession('expired')), [endSession]);

  // Refresh the token before it expires; timers sleep with the machine, so check again on focus.
  // biome-ignore lint/correctness/useExhaustiveDependencies: tokenVersion re-arms the timer after a refresh
  useEffect(() => {
    if (state.status !== 'signed-in') return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let cancelled = false;
    const refresh = async () => {
      try {
        saveToken(tokenFromResponse(await api.auth.refresh()));
        if (!cancelled) setTokenVersion((v) => v + 1);
      } catch {
        // A 401 has already ended the session; a network failure retries while the token lasts.
        if (!cancelled && loadToken()) timer = setTimeout(refresh, RETRY_REFRESH_MS);
      }
    };
    const arm = () => {
      clearTimeout(timer);
      const token = loadToken();
      if (!token) return endSession('expired');
      timer = setTimeout(refresh, refreshDelay(token));
    };
    arm();
    const onVisible = () => document.visibilityState === 'visible' && arm();
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      cancelled = true;
      clearTimeout(timer);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [state.status, tokenVersion, endSession]);

  const signIn = useCallback(async (email: string, password: string) => {
    const response = await api.auth.login({ email, password });
    saveToken(tokenFromResponse(response));
    const user = await api.auth.me();
    setState({ status: 'signed-in', user });
    return user;
  }, []);

  const changePassword = useCallback(async (currentPassword: string, newPassword: string) => {
    const response = await api.auth.changePassword({
      current_password: currentPassword,
      new_password: newPassword,
    });
    saveToken(tokenFromResponse(response));
    setState({ status: 'signed-in', user: await api.auth.me() });
  }, []);

  // The server ends the session first, so a token copied from this till is worthless after sign-out; a till
  // that cannot reach its server still signs out locally.
  const signOut = useCallback(() => {
    void api.auth
      .logout()
      .catch(() => undefined)
      .finally(() => endSession('signed-out'));
  }, [endSession]);

  const value = useMemo(
    () => ({ state, signIn, signOut, changePassword }),
    [state, signIn, signOut, changePassword],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
