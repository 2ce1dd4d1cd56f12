import { localDate } from '@pharmacy/contracts/time';
import { useQuery } from '@tanstack/react-query';
import { api } from '../api';

/** Today in the organisation's time zone (due dates and expiries are its calendar days). */
export function useOrgToday(): string {
  const settings = useQuery({
    queryKey: ['settings'],
    queryFn: () => api.settings.get(),
    staleTime: 300_000,
  });
  return localDate(settings.data?.timezone);
}
