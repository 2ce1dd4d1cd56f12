import type { LedgerMovement } from '@pharmacy/contracts';

type Movement = Pick<LedgerMovement, 'reference_type' | 'reference_id' | 'batch_id' | 'medicine_id'>;

const NAMES: Record<string, string> = {
  purchase_order: 'Purchase order',
  purchase_receipt: 'Receipt',
  transfer: 'Transfer',
  write_off: 'Write-off',
  stock_count: 'Stock count',
  sale: 'Sale',
  return: 'Return',
  dispense: 'Dispensing',
};

/**
 * A movement's document: its name and, where the app has a screen for that one document, the link to it
 * (a purchase order's page, a transfer's page, or for a receipt without an order and a write-off the batch
 * they booked, in the Stock screen with that batch's ledger). Sales, returns, dispensings and stock counts
 * have no page of their own: their name only.
 */
export function ledgerDocument(m: Movement): { label: string; href?: string } | null {
  if (!m.reference_type || !m.reference_id) return null;
  const name = NAMES[m.reference_type] ?? m.reference_type.replace(/_/g, ' ');
  const label = `${name} …${m.reference_id.slice(-8)}`;
  const id = encodeURIComponent(m.reference_id);
  const batch = `~/back-office/stock/${encodeURIComponent(m.medicine_id)}?batch=${encodeURIComponent(m.batch_id)}`;
  switch (m.reference_type) {
    case 'purchase_order':
      return { label, href: `~/back-office/purchase-orders/${id}` };
    case 'transfer':
      return { label, href: `~/back-office/transfers/${id}` };
    case 'purchase_receipt':
    case 'write_off':
      return { label: m.reference_type === 'write_off' ? name : label, href: batch };
    default:
      return { label };
  }
}
