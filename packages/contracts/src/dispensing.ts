import { z } from 'zod';
import { DecimalString, Id, IsoDate, OptionalText, PageQuery, Text, Timestamp } from './common';
import { Collector } from './prescriptions';

/** Will-call: a prepared prescription on the shelf, waiting for the patient (or someone for them). */
export const WILL_CALL_STATUSES = ['waiting', 'picked_up', 'returned'] as const;

export const WillCall = z.object({
  id: z.string(),
  prescription_id: z.string(),
  branch_id: z.string(),
  patient_name: z.string(),
  patient_phone: z.string(),
  bin_location: z.string(),
  notes: z.string(),
  status: z.enum(WILL_CALL_STATUSES),
  has_controlled: z.boolean().describe('a controlled medicine is in it: the collector must show an ID'),
  items: z.array(
    z.object({ medicine_id: z.string(), medicine_name: z.string(), quantity: z.number().int() }),
  ),
  placed_by: z.string().nullable(),
  placed_at: Timestamp,
  collected_by_name: z.string().nullable(),
  collector_relationship: z.string().nullable(),
  collector_id_number: z.string().nullable(),
  picked_up_by: z.string().nullable().describe('the user who handed it over'),
  picked_up_at: Timestamp.nullable(),
  sale_id: z.string().nullable().describe('the sale that paid for the pickup'),
  returned_at: Timestamp.nullable().describe('when it went back to stock, not collected'),
  return_reason: z.string().nullable(),
});
export type WillCall = z.infer<typeof WillCall>;

export const WillCallListQuery = PageQuery.extend({
  branch_id: Id.optional().describe('branch-bound roles always get their own branch'),
  status: z
    .enum(['waiting', 'picked_up', 'returned', 'all'], {
      message: 'must be waiting, picked_up, returned or all',
    })
    .default('waiting'),
});

export const CreateWillCallRequest = z
  .object({
    prescription_id: Id,
    bin_location: Text(60).describe('shelf, bin or bag label'),
    notes: OptionalText(500).default(''),
  })
  .strict();

export const WillCallParams = z.object({ willCallId: Id });

export const PickupRequest = Collector;

export const ReturnWillCallRequest = z
  .object({ reason: Text(500).describe('why it goes back to stock (not collected…)') })
  .strict();

export const GenericSearchQuery = z
  .object({
    medicine_id: Id.optional().describe('find substitutes of this medicine'),
    generic_name: z.string().trim().min(1).max(200).optional(),
    strength: z.string().trim().max(60).optional(),
    form: z.string().trim().max(60).optional(),
    branch_id: Id.optional().describe('whose stock; branch-bound roles always get their own branch'),
    limit: z.coerce.number().int().min(1).max(200).default(50),
  })
  .refine((q) => q.medicine_id !== undefined || q.generic_name !== undefined, {
    message: 'give medicine_id or generic_name',
    path: ['medicine_id'],
  });

export const GenericSubstitute = z.object({
  medicine_id: z.string(),
  name: z.string(),
  generic_name: z.string(),
  strength: z.string(),
  form: z.string(),
  selling_price: DecimalString,
  stock_quantity: z.number().int().describe('sellable units in the branch'),
  requires_prescription: z.boolean(),
  is_controlled: z.boolean(),
});

export const GenericSearchResult = z.object({
  branch_id: z.string(),
  generic_name: z.string(),
  strength: z.string().nullable(),
  form: z.string().nullable(),
  items: z.array(GenericSubstitute),
});

export const RefillReminder = z.object({
  id: z.string(),
  branch_id: z.string(),
  customer_id: z.string().nullable(),
  prescription_id: z.string().nullable(),
  patient_name: z.string(),
  medicine_id: z.string(),
  medicine_name: z.string(),
  due_date: z.string(),
  contact: z.string(),
  notes: z.string(),
  created_by: z.string().nullable(),
  created_at: Timestamp,
});
export type RefillReminder = z.infer<typeof RefillReminder>;

export const CreateRefillReminderRequest = z
  .object({
    branch_id: Id.optional().describe("defaults to the caller's branch; branch-bound roles: only their own"),
    customer_id: Id.optional(),
    prescription_id: Id.optional().describe('patient and branch must match it'),
    patient_name: Text(200),
    medicine_id: Id,
    due_date: IsoDate,
    contact: Text(200).describe('phone or e-mail to reach the patient'),
    notes: OptionalText(500).default(''),
  })
  .strict();

export const RefillListQuery = PageQuery.extend({
  branch_id: Id.optional().describe('branch-bound roles always get their own branch'),
  due_before: IsoDate.optional().describe('due on or before this day'),
  medicine_id: Id.optional(),
});
