import { z } from 'zod';
import { DecimalString, Id, IsoDate, MoneyInput, OptionalText, PageQuery, Timestamp } from './common';
import { BatchNumber } from './stock';

export const PURCHASE_ORDER_STATUSES = [
  'DRAFT',
  'SENT',
  'PARTIALLY_RECEIVED',
  'RECEIVED',
  'CANCELLED',
] as const;
export const PurchaseOrderStatus = z.enum(PURCHASE_ORDER_STATUSES);
export type PurchaseOrderStatus = z.infer<typeof PurchaseOrderStatus>;

const OrderQty = z
  .number({ message: 'must be a number' })
  .int({ message: 'must be a whole number' })
  .positive({ message: 'must be positive' })
  .max(1_000_000, { message: 'must be at most 1000000' });

export const PurchaseOrderItemInput = z
  .object({
    medicine_id: Id,
    ordered_qty: OrderQty,
    agreed_unit_cost: MoneyInput,
  })
  .strict();

export const CreatePurchaseOrderRequest = z
  .object({
    supplier_id: Id,
    branch_id: Id,
    expected_date: IsoDate.nullable().default(null),
    notes: OptionalText(1000).default(''),
    items: z
      .array(PurchaseOrderItemInput, { message: 'must be an array of items' })
      .min(1, { message: 'must hold at least one item' })
      .max(500, { message: 'must hold at most 500 items' }),
  })
  .strict();
export type CreatePurchaseOrderRequest = z.output<typeof CreatePurchaseOrderRequest>;

export const PurchaseOrderCreated = z.object({
  id: z.string(),
  status: PurchaseOrderStatus,
  created_at: Timestamp,
});

export const PurchaseOrderSummary = z.object({
  id: z.string(),
  supplier_id: z.string(),
  supplier_name: z.string(),
  branch_id: z.string(),
  branch_name: z.string(),
  status: PurchaseOrderStatus,
  expected_date: z.string().nullable(),
  notes: z.string(),
  item_count: z.number().int(),
  total_amount: DecimalString.describe('sum of ordered_qty x agreed_unit_cost'),
  created_by: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
  sent_at: Timestamp.nullable(),
  cancelled_at: Timestamp.nullable(),
  cancel_reason: z.string().nullable(),
  received_at: Timestamp.nullable().describe('when the order became fully received'),
});
export type PurchaseOrderSummary = z.infer<typeof PurchaseOrderSummary>;

export const PurchaseOrderItem = z.object({
  id: z.string(),
  medicine_id: z.string(),
  medicine_name: z.string(),
  ordered_qty: z.number().int(),
  received_qty: z.number().int(),
  outstanding_qty: z.number().int().describe('ordered minus received, never below 0'),
  agreed_unit_cost: DecimalString,
  line_total: DecimalString,
});

export const PurchaseOrderReceiptLine = z.object({
  id: z.string(),
  item_id: z.string(),
  medicine_id: z.string(),
  batch_id: z.string(),
  batch_number: z.string(),
  expiry_date: z.string(),
  quantity: z.number().int(),
  unit_cost: DecimalString,
  received_by: z.string().nullable(),
  received_at: Timestamp,
});

export const PurchaseOrderDetail = PurchaseOrderSummary.extend({
  items: z.array(PurchaseOrderItem),
  receipts: z.array(PurchaseOrderReceiptLine),
});
export type PurchaseOrderDetail = z.infer<typeof PurchaseOrderDetail>;

export const PurchaseOrderParams = z.object({ purchaseOrderId: Id });

export const PURCHASE_ORDER_SORTS = [
  'created_at',
  'expected_date',
  'supplier_name',
  'status',
  'total_amount',
] as const;

export const PurchaseOrderListQuery = PageQuery.extend({
  status: PurchaseOrderStatus.optional(),
  supplier_id: Id.optional(),
  branch_id: Id.optional(),
  sort: z
    .enum(PURCHASE_ORDER_SORTS, { message: `must be one of ${PURCHASE_ORDER_SORTS.join(', ')}` })
    .default('created_at'),
  order: z.enum(['asc', 'desc'], { message: 'must be asc or desc' }).default('desc'),
});
export type PurchaseOrderListQuery = z.input<typeof PurchaseOrderListQuery>;

export const UpdatePurchaseOrderStatusRequest = z
  .object({
    status: z.enum(['SENT', 'CANCELLED'], { message: 'must be SENT or CANCELLED' }),
    reason: OptionalText(500).optional(),
  })
  .strict();

export const ReceivePurchaseOrderLine = z
  .object({
    item_id: Id.optional(),
    medicine_id: Id.optional(),
    received_qty: OrderQty,
    batch_number: BatchNumber,
    expiry_date: IsoDate,
    unit_cost: MoneyInput.optional().describe("defaults to the item's agreed_unit_cost"),
  })
  .strict()
  .refine((l) => l.item_id !== undefined || l.medicine_id !== undefined, {
    message: 'needs item_id or medicine_id',
    path: ['item_id'],
  });

export const ReceivePurchaseOrderRequest = z
  .object({
    items: z
      .array(ReceivePurchaseOrderLine, { message: 'must be an array of lines' })
      .min(1, { message: 'must hold at least one line' })
      .max(500, { message: 'must hold at most 500 lines' }),
    allow_over_receipt: z.boolean({ message: 'must be true or false' }).default(false),
    notes: OptionalText(500).default(''),
  })
  .strict();
export type ReceivePurchaseOrderRequest = z.output<typeof ReceivePurchaseOrderRequest>;

export const SuggestedOrderQuery = z.object({
  branch_id: Id.optional(),
  days: z.coerce
    .number({ message: 'must be a number' })
    .int({ message: 'must be a whole number of days' })
    .min(1, { message: 'must be at least 1' })
    .max(365, { message: 'must be at most 365' })
    .default(30)
    .describe('window of sales history for the average daily sales'),
});

export const SuggestedOrderLine = z.object({
  medicine_id: z.string(),
  medicine_name: z.string(),
  stock_quantity: z.number().int(),
  low_stock_threshold: z.number().int(),
  avg_daily_sales: z.number().describe('units sold per day over the window, 2 decimals'),
  on_order_qty: z.number().int().describe('outstanding units on DRAFT, SENT or PARTIALLY_RECEIVED orders'),
  supplier_id: z.string().nullable(),
  supplier_name: z.string().nullable(),
  lead_time_days: z.number().int(),
  last_unit_cost: DecimalString.nullable(),
  suggested_qty: z.number().int(),
});

export const SuggestedOrderResponse = z.object({
  branch_id: z.string(),
  window_days: z.number().int(),
  items: z.array(SuggestedOrderLine),
});
