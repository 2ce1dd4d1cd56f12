import { useQuery } from '@tanstack/react-query';
import { api } from '../api';

/** The calendar day (YYYY-MM-DD) it is now in a time zone. */
export function todayIn(timeZone: string, now = new Date()): string {
  try {
    return new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    }).format(now);
  } catch {
    return now.toISOString().slice(0, 10);
  }
}

/** Today in the organisation's time zone (due dates and expiries are its calendar days). */
export function useOrgToday(): string {
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.settings.get(),
    staleTime: 300_000,
  });
  return todayIn(settings.data?.timezone ?? 'UTC');
}
