import type { CashSession } from '@pharmacy/contracts';
import { ApiError } from '@pharmacy/contracts/client';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';

export const CASH_SESSION_KEY = ['cash-session'] as const;

/** The signed-in user's open (or on-break) cash session; null when there is none. */
export function useCashSession() {
  return useQuery<CashSession | null>({
    queryKey: CASH_SESSION_KEY,
    queryFn: async () => {
      try {
        return await api.sessions.current();
      } catch (error) {
        if (error instanceof ApiError && error.status === 404) return null;
        throw error;
      }
    },
    staleTime: 30_000,
  });
}

export function sessionText(session: CashSession | null | undefined): string {
  if (session === undefined) return 'Checking…';
  if (session === null) return 'No cash session';
  return session.status === 'on_break' ? 'On break' : 'Open';
}
