import { buildZReport } from '@pharmacy/hardware';
import type { AuthUser } from '../../http/auth';
import { branchTimeZone } from '../branches/time-zone';
import { assertJobBranch, type DocumentSource } from '../printing/sources';
import { getSettings } from '../settings/service';
import { zReport } from './reports';

/** A cash session as its Z-report (X-report while open). */
export const zReportSource: DocumentSource = async (app, job) => {
  // The worker reads as the system; the branch check below keeps a job to its own branch's sessions.
  const reader: AuthUser = {
    id: job.created_by,
    role: 'admin',
    branchId: job.branch_id,
    email: '',
    fullName: '',
  };
  const z = await zReport(app, reader, job.reference_id);
  assertJobBranch(job, z.branch_id, 'Session');
  const { organization_name } = await getSettings(app);
  return buildZReport(
    {
      organization_name,
      branch_name: z.branch_name,
      z_number: z.z_number ?? 'X',
      cashier_name: z.user_name,
      opened_at: z.opened_at,
      closed_at: z.closed_at ?? z.generated_at,
      currency_code: z.currency_code,
      sale_count: z.sales_count,
      return_count: z.returns.count,
      payment_totals: z.by_payment.map((p) => ({ method: p.method, count: p.count, amount: p.amount })),
      vat_breakdown: z.vat_by_rate,
      gross_sales: z.gross_sales,
      discount_total: z.discounts.total,
      returns_total: z.returns.total,
      net_sales: z.net_sales,
      opening_float: z.opening_float,
      expected_cash: z.expected_cash,
      cash_refunds: z.cash_refunds,
      counted_cash: z.counted_cash ?? '0',
      variance: z.variance,
      account_payments: z.account_payments.by_method,
      cash_by_currency: z.cash_by_currency,
      // Each tender and the close's count per currency, with base equivalents: the figures GET z-report gives.
      tenders_by_currency: z.tenders_by_currency,
      counted_by_currency: z.counted_by_currency,
    },
    { timeZone: await branchTimeZone(app.db, z.branch_id) },
  );
};
