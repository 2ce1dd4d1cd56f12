import { z } from 'zod';
import { Id, MoneyInput, OptionalText, PageQuery, Text, Timestamp } from './common';
import { Qty } from './selling-fields';

export const ParkedItem = z.object({
  medicine_id: Id,
  quantity: Qty,
  unit_price: MoneyInput.optional(),
  discount: MoneyInput.optional(),
  name: OptionalText(200).optional(),
});
export const ParkCartRequest = z.object({
  label: Text(100),
  items: z.array(ParkedItem).min(1).max(500),
  customer_id: Id.nullish(),
  notes: OptionalText(500).default(''),
});
export type ParkedCart = z.infer<typeof ParkedCart>;
export const ParkedCart = z.object({
  id: z.string(),
  branch_id: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  label: z.string(),
  customer_id: z.string().nullable(),
  items: z.array(ParkedItem),
  notes: z.string(),
  status: z.enum(['parked', 'recalled', 'voided']),
  recalled_by: z.string().nullable(),
  recalled_at: Timestamp.nullable(),
  voided_by: z.string().nullable(),
  voided_at: Timestamp.nullable(),
  void_reason: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const ParkedListQuery = PageQuery.extend({
  status: z.enum(['parked', 'recalled', 'voided', 'all']).default('parked'),
  branch_id: Id.optional(),
});
export const ParkedParams = z.object({ parkedId: Id });
export const VoidParkedRequest = z.object({ reason: Text(300) });
