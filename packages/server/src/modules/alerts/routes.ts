import { BranchPageQuery, ExpiryAlert, ExpiryWindowQuery, LowStockAlert, pageOf } from '@pharmacy/contracts';
import { scopeBranch } from '../../http/auth';
import type { ApiRouter } from '../../http/route';
import { expiryAlerts, lowStock } from './service';

const SCOPE =
  "Branch-bound roles see their own branch; organisation-wide roles every active branch or branch_id. Dates are each branch's local day.";

export function alertRoutes(r: ApiRouter): void {
  r.route({
    method: 'get',
    path: '/alerts/low-stock',
    tag: 'Alerts',
    summary: 'Active medicines at or below their low-stock threshold, per branch',
    description: `Sellable stock (active, unexpired batches) at or below low_stock_threshold, including none at all; emptiest first. ${SCOPE}`,
    roles: 'any',
    query: BranchPageQuery,
    responses: { 200: { description: 'A page of alerts', schema: pageOf(LowStockAlert) } },
    handler: ({ app, user, query }) =>
      lowStock(app, { ...query, branch_id: scopeBranch(user, query.branch_id) }),
  });

  r.route({
    method: 'get',
    path: '/alerts/expiry',
    tag: 'Alerts',
    summary: 'Batches with stock expiring within `days` (default 90)',
    description: `Today included; quarantined and recalled batches excluded; soonest first. ${SCOPE}`,
    roles: 'any',
    query: ExpiryWindowQuery,
    responses: { 200: { description: 'A page of alerts', schema: pageOf(ExpiryAlert) } },
    handler: ({ app, user, query }) =>
      expiryAlerts(app, { ...query, branch_id: scopeBranch(user, query.branch_id) }, { days: query.days }),
  });

  r.route({
    method: 'get',
    path: '/alerts/expired',
    tag: 'Alerts',
    summary: 'Expired batches still holding stock',
    description: `Any regulator status: expired stock must be written off. Oldest expiry first. ${SCOPE}`,
    roles: 'any',
    query: BranchPageQuery,
    responses: { 200: { description: 'A page of alerts', schema: pageOf(ExpiryAlert) } },
    handler: ({ app, user, query }) =>
      expiryAlerts(app, { ...query, branch_id: scopeBranch(user, query.branch_id) }, 'expired'),
  });
}
