import { z } from 'zod';
import { IsoDate, OptionalText, Text } from './common';
import { MOVEMENT_TYPES } from './medicines';
import { PURCHASE_ORDER_STATUSES } from './purchase-orders';
import { RegulatorStatus } from './stock';
import {
  RowId,
  MinorAmount,
  NullableId,
  Quantity,
  Count,
  SignedQuantity,
  Notes,
} from './sync-payload-fields';

/**
 * Stock rows as a till pushes them (batches, movements, counts, reservations, purchase orders with their items
 * and receipts, transfers and their receipts): see sync-payloads.ts.
 */

/** A batch row: ReceiveRequest's batch number, expiry and cost, a known regulator status. */
export const BatchPayload = z.looseObject({
  id: RowId,
  branch_id: RowId,
  medicine_id: RowId,
  batch_number: Text(100),
  expiry_date: IsoDate,
  unit_cost: MinorAmount.optional(),
  regulator_status: RegulatorStatus.optional(),
  received_by: NullableId,
});

/** A stock movement: a known type, a whole signed quantity, a plain reason. */
export const StockMovementPayload = z.looseObject({
  id: RowId,
  batch_id: RowId,
  branch_id: RowId,
  medicine_id: RowId,
  type: z.enum(MOVEMENT_TYPES, { message: 'must be a known movement type' }),
  quantity: SignedQuantity,
  reason: OptionalText(500).optional(),
  user_id: NullableId,
});

/** A stock count with its lines: whole counted quantities, never negative. */
export const StockCountPayload = z.looseObject({
  id: RowId,
  branch_id: RowId,
  counted_by: RowId,
  notes: Notes.optional(),
  lines: z
    .array(
      z.looseObject({
        id: RowId,
        stock_count_id: RowId,
        batch_id: RowId,
        medicine_id: RowId,
        expected_qty: Count,
        counted_qty: Count,
        variance: SignedQuantity,
      }),
    )
    .max(10_000)
    .optional(),
});

/** A will-call reservation: a whole positive quantity of a batch, held until sold or released. */
export const StockReservationPayload = z.looseObject({
  id: RowId,
  branch_id: RowId,
  batch_id: RowId,
  medicine_id: RowId,
  prescription_id: RowId,
  quantity: Quantity,
  status: z.enum(['held', 'sold', 'released'], { message: 'must be held, sold or released' }),
  sale_id: NullableId,
});

/** A purchase order: a known status, plain notes. */
export const PurchaseOrderPayload = z.looseObject({
  id: RowId,
  supplier_id: RowId,
  branch_id: RowId,
  status: z.enum(PURCHASE_ORDER_STATUSES, { message: 'must be a known order status' }),
  expected_date: IsoDate.nullable().optional(),
  notes: Notes.optional(),
  cancel_reason: OptionalText(500).nullable().optional(),
});

/** A purchase order item: a whole quantity ordered, received never negative, a cost in minor units. */
export const PurchaseOrderItemPayload = z.looseObject({
  id: RowId,
  purchase_order_id: RowId,
  branch_id: RowId,
  medicine_id: RowId,
  ordered_qty: Quantity,
  received_qty: Count,
  agreed_unit_cost: MinorAmount,
});

/** A delivery line against an order: a whole positive quantity at a cost in minor units. */
export const PurchaseOrderReceiptPayload = z.looseObject({
  id: RowId,
  purchase_order_id: RowId,
  branch_id: RowId,
  item_id: RowId,
  batch_id: RowId,
  movement_id: RowId,
  quantity: Quantity,
  unit_cost: MinorAmount,
});

/** A transfer with its items: whole positive quantities of real batches. */
export const TransferPayload = z.looseObject({
  id: RowId,
  from_branch_id: RowId,
  to_branch_id: RowId,
  notes: Notes.optional(),
  cancel_reason: OptionalText(500).optional(),
  items: z
    .array(
      z.looseObject({
        id: RowId,
        transfer_id: RowId,
        medicine_id: RowId,
        from_batch_id: RowId,
        batch_number: Text(100),
        expiry_date: IsoDate,
        quantity: Quantity,
        unit_cost: MinorAmount,
      }),
    )
    .max(1000)
    .optional(),
  movements: z.array(StockMovementPayload).max(1000).optional(),
});

/** The destination's receipt of a transfer: received quantities never negative. */
export const TransferReceiptPayload = z.looseObject({
  id: RowId,
  transfer_id: RowId,
  branch_id: RowId,
  notes: Notes.optional(),
  lines: z
    .array(
      z.looseObject({
        id: RowId,
        receipt_id: RowId,
        transfer_item_id: RowId,
        received_quantity: Count,
        discrepancy_reason: z.enum(['short', 'damaged']).nullable().optional(),
      }),
    )
    .max(1000)
    .optional(),
  movements: z.array(StockMovementPayload).max(1000).optional(),
});
