import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../api';
import { monthStart } from './figures';

/** The dashboard refreshes on its own every minute. */
export const DASHBOARD_REFRESH_MS = 60_000;

/**
 * The dashboard's three reads: today's summary with the 30-day series and stock counts, this month's
 * sales report (from the summary's local date) for the month figures and top sellers, and the branch
 * ranking of the last 30 days. `branchId` '' is the whole organisation (branch-bound roles always get
 * their branch from the server).
 */
export function useDashboard(branchId: string) {
  const scope = branchId || undefined;
  const summary = useQuery({
    queryKey: ['dashboard', 'summary', branchId],
    queryFn: () => api.dashboard.summary({ branch_id: scope }),
    refetchInterval: DASHBOARD_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const today = summary.data?.date;
  const month = useQuery({
    queryKey: ['dashboard', 'month', branchId, today],
    queryFn: () =>
      api.reports.sales({ branch_id: scope, from_date: monthStart(today ?? ''), to_date: today }),
    enabled: Boolean(today),
    refetchInterval: DASHBOARD_REFRESH_MS,
    placeholderData: keepPreviousData,
  });
  const comparison = useQuery({
    queryKey: ['dashboard', 'branches'],
    queryFn: () => api.dashboard.branchComparison(),
    refetchInterval: DASHBOARD_REFRESH_MS,
  });
  return { summary, month, comparison };
}
