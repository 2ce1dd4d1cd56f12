import { useQuery } from '@tanstack/react-query';
import { useCallback } from 'react';
import { api } from '../api';

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A timestamp as a date and time in the given IANA time zone; "—" when absent. */
export function formatDateTimeIn(
  iso: string | null | undefined,
  timeZone: string | undefined,
  dateOnly = false,
): string {
  if (!iso) return '—';
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const key = `${timeZone ?? ''}|${dateOnly}`;
  let f = formatters.get(key);
  if (!f) {
    const style: Intl.DateTimeFormatOptions = dateOnly
      ? { dateStyle: 'medium' }
      : { dateStyle: 'medium', timeStyle: 'short' };
    try {
      f = new Intl.DateTimeFormat(undefined, { ...style, timeZone });
    } catch {
      f = new Intl.DateTimeFormat(undefined, style);
    }
    formatters.set(key, f);
  }
  return f.format(d);
}

/** Back-office dates are shown in the organisation's time zone (settings), whatever the browser's. */
/** `dateOnly`: the day without the time. */
export function useOrgDateTime(dateOnly = false): (iso: string | null | undefined) => string {
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.settings.get(),
    staleTime: 300_000,
  });
  const zone = settings.data?.timezone;
  return useCallback((iso) => formatDateTimeIn(iso, zone, dateOnly), [zone, dateOnly]);
}
