import { z } from 'zod';
import { Id, IsoDate, OptionalText, PageQuery, Text, Timestamp } from './common';

/**
 * Prescriptions: a prescriber's order for a patient, dispensed in one or several goes, possibly refilled.
 * States (stored): active, partially_dispensed, ready, dispensed, cancelled; `expired` is derived when the
 * branch's today is past valid_until while the prescription is still active or partially dispensed.
 */
export const PRESCRIPTION_STATUSES = [
  'active',
  'partially_dispensed',
  'ready',
  'dispensed',
  'cancelled',
  'expired',
] as const;
export const PrescriptionStatus = z.enum(PRESCRIPTION_STATUSES);
export type PrescriptionStatus = z.infer<typeof PrescriptionStatus>;

/** Validity when valid_until is not given: issue date + 30 days (controlled medicines: + 14 days). */
export const PRESCRIPTION_DEFAULT_VALIDITY_DAYS = 30;
export const PRESCRIPTION_CONTROLLED_VALIDITY_DAYS = 14;
/** Longest validity accepted: 365 days from issue; 30 days when any item is controlled. */
export const PRESCRIPTION_MAX_VALIDITY_DAYS = 365;
export const PRESCRIPTION_CONTROLLED_MAX_VALIDITY_DAYS = 30;
export const PRESCRIPTION_MAX_REFILLS = 12;

const Units = z
  .number({ message: 'must be a number' })
  .int({ message: 'must be a whole number' })
  .positive({ message: 'must be positive' })
  .max(100_000, { message: 'must be at most 100000' });

export const PrescriptionItemInput = z
  .object({
    medicine_id: Id,
    quantity: Units.describe('units per fill'),
    dosage: OptionalText(500).default('').describe('directions, e.g. "1 tablet 3 times a day for 5 days"'),
    refills_allowed: z
      .number({ message: 'must be a number' })
      .int({ message: 'must be a whole number' })
      .min(0, { message: 'must not be negative' })
      .max(PRESCRIPTION_MAX_REFILLS, { message: `must be at most ${PRESCRIPTION_MAX_REFILLS}` })
      .default(0)
      .describe('further fills after the first; 0 for controlled medicines'),
  })
  .strict();

export const CreatePrescriptionRequest = z
  .object({
    branch_id: Id.optional().describe("defaults to the caller's branch; branch-bound roles: only their own"),
    customer_id: Id.optional().describe('the patient as a customer record (checked when customers exist)'),
    patient_name: Text(200),
    patient_id_number: OptionalText(60).default(''),
    patient_phone: OptionalText(40).default(''),
    prescriber_name: Text(200),
    prescriber_licence_no: Text(60),
    prescriber_facility: OptionalText(200).default(''),
    issue_date: IsoDate.describe('YYYY-MM-DD, not in the future (branch time zone)'),
    valid_until: IsoDate.optional().describe(
      'last day it may be dispensed; default issue_date + 30 days (14 when any item is controlled)',
    ),
    items: z
      .array(PrescriptionItemInput, { message: 'must be a list of items' })
      .min(1, { message: 'must have at least one item' })
      .max(50, { message: 'must have at most 50 items' }),
    notes: OptionalText(1000).default(''),
  })
  .strict();
export type CreatePrescriptionRequest = z.output<typeof CreatePrescriptionRequest>;

export const PrescriptionItem = z.object({
  id: z.string(),
  medicine_id: z.string(),
  medicine_name: z.string(),
  generic_name: z.string(),
  strength: z.string(),
  form: z.string(),
  is_controlled: z.boolean(),
  quantity: z.number().int().describe('units per fill'),
  dosage: z.string(),
  refills_allowed: z.number().int(),
  refills_used: z.number().int().describe('fills started after the first'),
  dispensed_quantity: z.number().int().describe('units dispensed in the current fill'),
  remaining_quantity: z.number().int().describe('units still to dispense in the current fill'),
  total_dispensed: z.number().int().describe('units dispensed over all fills'),
});

export const Prescription = z.object({
  id: z.string(),
  branch_id: z.string(),
  customer_id: z.string().nullable(),
  patient_name: z.string(),
  patient_id_number: z.string(),
  patient_phone: z.string(),
  prescriber_name: z.string(),
  prescriber_licence_no: z.string(),
  prescriber_facility: z.string(),
  issue_date: z.string(),
  valid_until: z.string(),
  status: PrescriptionStatus,
  notes: z.string(),
  cancel_reason: z.string().nullable(),
  cancelled_at: Timestamp.nullable(),
  created_by: z.string().nullable(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Prescription = z.infer<typeof Prescription>;

export const PrescriptionSummary = Prescription.extend({
  item_count: z.number().int(),
  remaining_quantity: z.number().int().describe('units still to dispense in the current fills'),
});

export const Dispensing = z.object({
  id: z.string(),
  dispense_id: z.string().describe('the dispensing operation (stock reference {type: dispense, id})'),
  prescription_id: z.string(),
  prescription_item_id: z.string(),
  medicine_id: z.string(),
  medicine_name: z.string(),
  quantity: z.number().int(),
  fill_number: z.number().int().describe('1 for the first fill, 2 for the first refill…'),
  source: z.enum(['dispense', 'sale']),
  sale_id: z.string().nullable(),
  pharmacist_id: z.string().nullable(),
  pharmacist_name: z.string().nullable(),
  will_call_id: z.string().nullable(),
  created_at: Timestamp,
});
export type Dispensing = z.infer<typeof Dispensing>;

export const PrescriptionDetail = Prescription.extend({
  items: z.array(PrescriptionItem),
  dispensings: z.array(Dispensing),
});
export type PrescriptionDetail = z.infer<typeof PrescriptionDetail>;

export const PrescriptionParams = z.object({ prescriptionId: Id });

export const PrescriptionListQuery = PageQuery.extend({
  branch_id: Id.optional().describe('branch-bound roles always get their own branch'),
  status: PrescriptionStatus.optional(),
  patient: z
    .string()
    .trim()
    .max(100, { message: 'must be at most 100 characters' })
    .optional()
    .describe('part of the patient name, ID number or phone'),
  customer_id: Id.optional(),
  from: IsoDate.optional().describe('issued on or after'),
  to: IsoDate.optional().describe('issued on or before'),
});

export const Collector = z
  .object({
    name: Text(200),
    relationship: Text(60).describe('self, parent, spouse, caregiver…'),
    id_number: OptionalText(60)
      .default('')
      .describe('identity document number; required when a controlled medicine is handed over'),
  })
  .strict();
export type Collector = z.output<typeof Collector>;

export const DispenseRequest = z
  .object({
    items: z
      .array(z.object({ medicine_id: Id, quantity: Units }).strict(), { message: 'must be a list of items' })
      .min(1, { message: 'must have at least one item' })
      .max(50, { message: 'must have at most 50 items' })
      .optional()
      .describe('what to dispense; omitted: everything that remains (or, when fully dispensed, a refill)'),
    collected_by: Collector.optional().describe(
      'refused (409 HANDOVER_NEEDS_SALE): a hand-over is a sale (Sell with the prescription, or the will-call pickup sale); a dispensing only prepares for the will-call shelf',
    ),
    notes: OptionalText(500).default(''),
  })
  .strict();
export type DispenseRequest = z.output<typeof DispenseRequest>;

export const DispenseResult = z.object({
  dispense_id: z.string(),
  prescription: PrescriptionDetail,
});

export const CancelPrescriptionRequest = z
  .object({
    reason: OptionalText(500).default('').describe('required once anything has been dispensed'),
  })
  .strict();
