import { allows, BRANCH_MANAGERS } from '@pharmacy/contracts/roles';
import type { AuthUser } from '../../http/auth';
import { Forbidden } from '../../lib/errors';
import type { ApprovalOperation, SaleApprovalNeeds } from '../approvals/covers';

export const noApprovalNeeds = (currency_code: string, exponent: number): SaleApprovalNeeds => ({
  currency_code,
  exponent,
  price_overrides: [],
  discounts: [],
  global_discount: 0,
});

function firstNeed(needs: SaleApprovalNeeds, threshold: number): string | null {
  const price = needs.price_overrides[0];
  if (price) return `A price of ${price.medicine_name} below the catalogue price`;
  const discount = needs.discounts[0];
  if (discount) return `A discount on ${discount.medicine_name} above ${threshold} %`;
  return needs.global_discount > 0 ? `A global discount above ${threshold} %` : null;
}

/**
 * The approval a sale must consume in its transaction, or null when it needs none or a manager sells it; anyone
 * else without an approval_id gets 403 APPROVAL_REQUIRED. One approval covers the sale: a price_override when a
 * line is priced below the catalogue, else a discount; its bounds must cover every line that needs it.
 */
export function saleApproval(
  user: AuthUser,
  approvalId: string | null | undefined,
  needs: SaleApprovalNeeds,
  threshold: number,
): { approvalId: string; operation: ApprovalOperation } | null {
  const need = firstNeed(needs, threshold);
  // A branch manager (or admin) sells below the catalogue price or above the discount threshold unasked.
  if (!need || allows(BRANCH_MANAGERS, user.role)) return null;
  if (!approvalId)
    throw new Forbidden(`${need} needs a manager's approval (approval_id).`, 'APPROVAL_REQUIRED');
  const kind = needs.price_overrides.length > 0 ? 'price_override' : 'discount';
  return { approvalId, operation: { kind, ...needs } };
}
