import { z } from 'zod';
import { IsoDate, OptionalText, Text } from './common';
import { RowId, Quantity, Count, Notes } from './sync-payload-fields';

/**
 * Dispensing rows as a till pushes them (prescriptions and their items, dispensings, will-call entries, refill
 * reminders): see sync-payloads.ts.
 */

/** A prescription: CreatePrescriptionRequest's patient and prescriber rules, real dates. */
export const PrescriptionPayload = z.looseObject({
  id: RowId,
  branch_id: RowId,
  patient_name: Text(200),
  patient_id_number: OptionalText(60).optional(),
  patient_phone: OptionalText(40).optional(),
  prescriber_name: Text(200),
  prescriber_licence_no: OptionalText(60).optional(),
  prescriber_facility: OptionalText(200).optional(),
  issue_date: IsoDate,
  valid_until: IsoDate,
  status: z.enum(['active', 'partially_dispensed', 'ready', 'dispensed', 'cancelled'], {
    message: 'must be a known prescription status',
  }),
  notes: Notes.optional(),
});

/** A prescription item: a whole quantity per fill, refills used never above those allowed. */
export const PrescriptionItemPayload = z
  .looseObject({
    id: RowId,
    prescription_id: RowId,
    branch_id: RowId,
    medicine_id: RowId,
    quantity: Quantity,
    dosage: OptionalText(500).optional(),
    refills_allowed: Count,
    refills_used: Count,
    dispensed_quantity: Count.optional(),
    total_dispensed: Count.optional(),
  })
  .refine((i) => i.refills_used <= i.refills_allowed, {
    message: 'uses more fills than the prescription allows',
    path: ['refills_used'],
  });

/** A dispensing (a line of the prescription book): a whole positive quantity. */
export const DispensingPayload = z.looseObject({
  id: RowId,
  prescription_id: RowId,
  prescription_item_id: RowId,
  branch_id: RowId,
  medicine_id: RowId,
  quantity: Quantity,
  fill_number: Count,
  notes: OptionalText(500).optional(),
});

/** A will-call bin entry and, once picked up, who collected it. */
export const WillCallPayload = z.looseObject({
  id: RowId,
  prescription_id: RowId,
  branch_id: RowId,
  bin_location: OptionalText(60).optional(),
  notes: OptionalText(500).optional(),
  collected_by_name: OptionalText(200).nullable().optional(),
  collector_relationship: OptionalText(60).nullable().optional(),
  collector_id_number: OptionalText(60).nullable().optional(),
});

/** A refill reminder: a real due date and a plain contact. */
export const RefillReminderPayload = z.looseObject({
  id: RowId,
  branch_id: RowId,
  medicine_id: RowId,
  patient_name: OptionalText(200).optional(),
  due_date: IsoDate,
  contact: OptionalText(200).optional(),
  notes: OptionalText(500).optional(),
});
