import {
  BranchComparison,
  BranchComparisonQuery,
  DashboardQuery,
  DashboardSummary,
} from '@pharmacy/contracts';
import { scopeBranch } from '../../http/auth';
import type { ApiRouter } from '../../http/route';
import { branchComparison, dashboardSummary } from './service';

export function dashboardRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/dashboard/summary',
    tag: 'Dashboard',
    summary: "Today's sales against yesterday, a 30-day sparkline, stock and expiry counts",
    description:
      "Any signed-in user. branch_id omitted means the whole organisation; branch-bound roles (cashier, pharmacist, branch_manager) always get their own branch. Days are local days of the branch (the organisation's time zone without a branch). Revenue is VAT included in the base currency; revenue_trend is the % change against yesterday (one decimal, 0 when yesterday had no revenue). Stock is sellable stock (active, unexpired batches), summed over branches for the organisation: low_stock_count counts active medicines at or below their threshold (out of stock included, as /alerts/low-stock), out_of_stock_count those without any. Expiry counts are batches with stock: expiring_90/30 exclude quarantined and recalled batches; expired_count counts any status (it must be written off).",
    roles: 'any',
    reads: 'replica',
    query: DashboardQuery,
    responses: {
      200: { description: 'The summary', schema: DashboardSummary },
      404: { description: 'Unknown branch' },
    },
    handler: ({ app, user, query }) => dashboardSummary(app, scopeBranch(user, query.branch_id)),
  });

  r.route({
    method: 'get',
    path: '/dashboard/branch-comparison',
    tag: 'Dashboard',
    summary: 'Every active branch ranked by revenue',
    description:
      "Any signed-in user (the spec's choice: organisation-wide comparative figures). Window: from_date..to_date, local days of the organisation's time zone, default the last 30 days up to today (400 when malformed or reversed). One row per active branch, branches without sales included with zero revenue, ranked by revenue then name; share_pct is the share of the total revenue with one decimal (0 when there is no revenue at all).",
    roles: 'any',
    reads: 'replica',
    query: BranchComparisonQuery,
    responses: { 200: { description: 'The ranking', schema: BranchComparison } },
    handler: ({ app, query }) => branchComparison(app, query),
  });
}
