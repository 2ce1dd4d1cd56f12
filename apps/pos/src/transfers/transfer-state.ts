import type { Transfer } from '@pharmacy/contracts';

/** A transfer's state in words, as the branch looking at it sees it. */
export function transferState(t: Transfer): string {
  if (t.status === 'in_transit') return 'In transit';
  if (t.status === 'cancelled') return `Cancelled${t.cancel_reason ? `: ${t.cancel_reason}` : ''}`;
  const short = t.items.some((i) => i.received_quantity !== null && i.received_quantity < i.quantity);
  return short ? 'Received with discrepancy' : 'Received';
}
