import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../api';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A timestamp as a date and time in the given IANA time zone; "—" when absent. */
export function formatDateTimeIn(iso: string | null | undefined, timeZone: string | undefined): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const key = timeZone ?? '';
  let f = formatters.get(key);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone });
    } catch {
      f = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    }
    formatters.set(key, f);
  }
  return f.format(d);
}

/** Back-office dates are shown in the organisation's time zone (settings), whatever the browser's. */
export function useOrgDateTime(): (iso: string | null | undefined) => string {
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.settings.get(),
    staleTime: 300_000,
  });
  const zone = settings.data?.timezone;
  return useCallback((iso) => formatDateTimeIn(iso, zone), [zone]);
}
