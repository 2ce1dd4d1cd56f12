import type { PurchaseOrderDetail, PurchaseOrderStatus, Role } from '@pharmacy/contracts';
import { allows, BRANCH_MANAGERS, STOCK_MANAGERS } from '@pharmacy/contracts/roles';

export const STATUS_LABELS: Record<PurchaseOrderStatus, string> = {
  DRAFT: 'Draft',
  SENT: 'Sent to supplier',
  PARTIALLY_RECEIVED: 'Partly received',
  RECEIVED: 'Received',
  CANCELLED: 'Cancelled',
};

export const PO_STATUSES = Object.keys(STATUS_LABELS) as PurchaseOrderStatus[];

export type OrderAction = 'send' | 'receive' | 'cancel';

/** Who raises, sends and cancels an order (PO_CREATORS), and who receives (PO_RECEIVERS); admin always. */

export const canCreateOrders = (role: Role) => allows(BRANCH_MANAGERS, role);

/**
 * The moves the API allows from each state (PUT /purchase-orders/{id}/status: SENT from DRAFT,
 * CANCELLED from DRAFT or SENT; POST …/receive on SENT or PARTIALLY_RECEIVED), narrowed to what the
 * role may do. RECEIVED and CANCELLED are final.
 */
export function allowedActions(status: PurchaseOrderStatus, role: Role): OrderAction[] {
  const out: OrderAction[] = [];
  const creator = allows(BRANCH_MANAGERS, role);
  if (status === 'DRAFT' && creator) out.push('send');
  if ((status === 'SENT' || status === 'PARTIALLY_RECEIVED') && allows(STOCK_MANAGERS, role))
    out.push('receive');
  if ((status === 'DRAFT' || status === 'SENT') && creator) out.push('cancel');
  return out;
}

/** A CSV field: quoted when it holds a comma, quote or line break; a leading = + - @ is defused for spreadsheets. */
export function csvField(value: string | number | null | undefined): string {
  let text = value === null || value === undefined ? '' : String(value);
  if (/^[=+\-@\t\r]/.test(text) && typeof value === 'string') text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/** The order as a CSV a supplier or a spreadsheet reads: a header block, then one row per item. */
export function orderCsv(order: PurchaseOrderDetail): string {
  const rows: (string | number | null)[][] = [
    ['Purchase order', order.id],
    ['Supplier', order.supplier_name],
    ['Branch', order.branch_name],
    ['Status', STATUS_LABELS[order.status]],
    ['Expected', order.expected_date],
    ['Notes', order.notes],
    [],
    ['Medicine', 'Ordered', 'Received', 'Outstanding', 'Unit cost', 'Line total'],
    ...order.items.map((i) => [
      i.medicine_name,
      i.ordered_qty,
      i.received_qty,
      i.outstanding_qty,
      i.agreed_unit_cost,
      i.line_total,
    ]),
    ['Total', '', '', '', '', order.total_amount],
  ];
  return `${rows.map((r) => r.map(csvField).join(',')).join('\r\n')}\r\n`;
}
