import { z } from 'zod';
import { DecimalString, Id, IsoDate, OptionalText, PageQuery, Timestamp } from './common';
import { SaleDetail, SalePaymentMethod } from './sales';
import { MutationId, Qty } from './selling-fields';

export const RETURN_CONDITIONS = ['resaleable', 'damaged', 'expired'] as const;
export const ReturnLineInput = z.object({
  sale_line_id: Id,
  quantity: Qty,
  condition: z.enum(RETURN_CONDITIONS).default('resaleable'),
});
export const CreateReturnRequest = z.object({
  sale_id: Id,
  lines: z.array(ReturnLineInput).min(1).max(500),
  refund_method: SalePaymentMethod.optional(),
  reason: OptionalText(500).default(''),
  client_mutation_id: MutationId.optional(),
  approval_id: Id.optional().describe(
    'a refund_tender approval, needed to refund to another tender than the sale was paid with',
  ),
});
export const ReturnLine = z.object({
  id: z.string(),
  sale_line_id: z.string(),
  medicine_id: z.string(),
  medicine_name: z.string(),
  quantity: z.number().int(),
  condition: z.string(),
  net_amount: DecimalString,
  vat_amount: DecimalString,
  refund_amount: DecimalString,
  vat_rate: z.number(),
  batches: z.array(z.object({ batch_id: z.string(), quantity: z.number().int(), restocked: z.boolean() })),
});
export type SaleReturn = z.infer<typeof SaleReturn>;
export const SaleReturn = z.object({
  id: z.string(),
  sale_id: z.string(),
  invoice_number: z.string(),
  branch_id: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  session_id: z.string().nullable(),
  device_id: z.string(),
  credit_note_number: z.string(),
  uuid: z.string(),
  icv: z.number().int(),
  client_mutation_id: z.string(),
  refund_method: z.string(),
  reason: z.string(),
  subtotal_amount: DecimalString,
  vat_amount: DecimalString,
  total_amount: DecimalString,
  currency_code: z.string(),
  base_total_amount: DecimalString,
  customer_id: z.string().nullable(),
  fiscal_status: z.string(),
  fiscal_hash: z.string(),
  previous_hash: z.string(),
  fiscal_xml: z.string(),
  sync_status: z.string().describe('pending until head office has the return, then synced'),
  created_at: Timestamp,
  lines: z.array(ReturnLine),
});
export const ReturnListQuery = PageQuery.extend({
  branch_id: Id.optional(),
  sale_id: Id.optional(),
  from: IsoDate.optional(),
  to: IsoDate.optional(),
});
export const ReturnParams = z.object({ returnId: Id });
export const ReturnLookupParams = z.object({ invoiceNumber: z.string().trim().min(1).max(64) });
export const ReturnLookup = SaleDetail.extend({
  lines_returnable: z.array(
    z.object({
      sale_line_id: z.string(),
      medicine_id: z.string(),
      medicine_name: z.string(),
      quantity: z.number().int(),
      returned_quantity: z.number().int(),
      returnable_quantity: z.number().int(),
      unit_refund: DecimalString.describe('line total / quantity, for display'),
    }),
  ),
});
