import { allows, BRANCH_MANAGERS } from '@pharmacy/contracts/roles';
import type { Db } from '../../db/connection';
import type { AuthUser } from '../../http/auth';
import { Forbidden } from '../../lib/errors';
import { formatMinor } from '../../lib/money';
import { consumeApproval } from '../approvals/service';
import type { SalesTable } from '../../db/tables/sales';

/** Roles that refund to another tender without an approval. */

/** What each tender paid for the sale, less the change (given in cash) and the refunds already made to it. */
async function refundableByTender(
  trx: Db,
  sale: Pick<SalesTable, 'id' | 'change_amount'>,
): Promise<{ paidMethods: string[]; open: Map<string, number> }> {
  const open = new Map<string, number>();
  const add = (method: string, amount: number) => open.set(method, (open.get(method) ?? 0) + amount);
  const payments = await trx
    .selectFrom('sale_payments')
    .select(['method', 'amount'])
    .where('sale_id', '=', sale.id)
    .execute();
  for (const p of payments) add(p.method, p.amount);
  add('cash', -sale.change_amount);
  const refunds = await trx
    .selectFrom('returns')
    .select(['refund_method', 'total_amount'])
    .where('sale_id', '=', sale.id)
    .execute();
  for (const r of refunds) add(r.refund_method, -r.total_amount);
  return { paidMethods: [...new Set(payments.map((p) => p.method))], open };
}

/**
 * A refund goes back to the tenders that paid the sale, up to what each paid less earlier refunds to it. More
 * (a card sale refunded in cash) needs a manager as the refunder, or a refund_tender approval that covers it,
 * consumed here: else 403 APPROVAL_REQUIRED. Runs in the return's transaction before it writes anything.
 * Returns the id of the approval it consumed, if any.
 */
export async function assertRefundTender(
  trx: Db,
  r: {
    sale: Pick<SalesTable, 'id' | 'change_amount' | 'branch_id' | 'invoice_number'>;
    user: AuthUser;
    method: string;
    amount: number;
    exponent: number;
    approvalId: string | undefined;
    requestId: string | null;
  },
): Promise<string | null> {
  const { paidMethods, open } = await refundableByTender(trx, r.sale);
  if (r.amount <= (open.get(r.method) ?? 0) || allows(BRANCH_MANAGERS, r.user.role)) return null;
  if (!r.approvalId)
    throw new Forbidden(
      `Sale ${r.sale.invoice_number} was paid by ${paidMethods.join(' and ') || 'nothing'}: a refund of ${formatMinor(r.amount, r.exponent)} by ${r.method} needs a manager's approval (a refund_tender approval_id), or refund it to the tender paid.`,
      'APPROVAL_REQUIRED',
    );
  await consumeApproval(trx, {
    approvalId: r.approvalId,
    operation: {
      kind: 'refund_tender',
      sale_id: r.sale.id,
      paid_methods: paidMethods,
      to_method: r.method,
      amount: r.amount,
      exponent: r.exponent,
    },
    branchId: r.sale.branch_id,
    userId: r.user.id,
    requestId: r.requestId,
  });
  return r.approvalId;
}
