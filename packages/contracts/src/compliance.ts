import { z } from 'zod';
import { Id, IsoDate, PageQuery, Timestamp } from './common';
import { ControlledRegistryEntry, StockMovement } from './medicines';

/** Statutory books: the prescription book and the controlled (classified) drugs book. */
export const BookWindowQuery = PageQuery.extend({
  branch_id: Id.optional().describe('branch-bound roles always get their own branch'),
  medicine_id: Id.optional(),
  from: IsoDate.optional().describe('first day, YYYY-MM-DD (UTC)'),
  to: IsoDate.optional().describe('last day, YYYY-MM-DD (UTC), inclusive'),
});

export const PrescriptionBookQuery = BookWindowQuery.extend({
  format: z.enum(['json', 'csv'], { message: 'must be json or csv' }).default('json'),
});

export const PrescriptionBookRow = z.object({
  id: z.string().describe('the dispensing row'),
  dispensed_at: Timestamp,
  branch_id: z.string(),
  prescription_id: z.string(),
  patient_name: z.string(),
  patient_id_number: z.string(),
  prescriber_name: z.string(),
  prescriber_licence_no: z.string(),
  prescriber_facility: z.string(),
  medicine_id: z.string(),
  medicine_name: z.string(),
  strength: z.string(),
  form: z.string(),
  is_controlled: z.boolean(),
  quantity: z.number().int(),
  fill_number: z.number().int(),
  pharmacist_id: z.string().nullable(),
  pharmacist_name: z.string().nullable(),
  source: z.enum(['dispense', 'sale']),
  dispense_id: z.string(),
  sale_id: z.string().nullable(),
});

export const ClassifiedMovement = StockMovement.extend({
  balance_after: z.number().int(),
  prescription_id: z.string().nullable(),
  patient_name: z.string().nullable(),
  patient_id_number: z.string().nullable(),
  prescriber_name: z.string().nullable(),
  prescriber_licence_no: z.string().nullable(),
  collected_by_name: z.string().nullable(),
  collector_id_number: z.string().nullable(),
});

export const ClassifiedBookEntry = ControlledRegistryEntry.extend({
  movements: z.array(ClassifiedMovement),
});

export const FiscalPreviewParams = z.object({ saleId: Id });

export const FiscalPreview = z.object({
  sale_id: z.string(),
  branch_id: z.string(),
  invoice_number: z.string(),
  uuid: z.string(),
  icv: z.number().int().describe('the device invoice counter'),
  fiscal_status: z.string(),
  fiscal_hash: z.string().describe('SHA-256 over the canonical payload and the previous hash'),
  fiscal_xml: z.string().describe('the invoice document the fiscal authority receives'),
});
