import { z } from 'zod';
import { Id, OptionalText, Text, Timestamp } from './common';

export const Supplier = z.object({
  id: z.string(),
  name: z.string(),
  tax_number: z.string(),
  supplier_type: z.string(),
  lead_time_days: z.number().int(),
  reliability_score: z.number().int(),
  contact_person: z.string(),
  phone: z.string(),
  email: z.string(),
  address: z.string(),
  notes: z.string(),
  is_active: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
});
export type Supplier = z.infer<typeof Supplier>;

const SupplierType = z
  .string()
  .trim()
  .toLowerCase()
  .regex(/^[a-z][a-z0-9_ -]{0,39}$/, { message: 'must be a word such as distributor or manufacturer' });

const SupplierFields = {
  name: Text(200),
  tax_number: OptionalText(40),
  supplier_type: SupplierType,
  lead_time_days: z
    .number({ message: 'must be a number' })
    .int({ message: 'must be a whole number of days' })
    .min(0, { message: 'must not be negative' })
    .max(365, { message: 'must be at most 365' }),
  reliability_score: z
    .number({ message: 'must be a number' })
    .int({ message: 'must be a whole number' })
    .min(0, { message: 'must be 0 to 100' })
    .max(100, { message: 'must be 0 to 100' }),
  contact_person: OptionalText(120),
  phone: OptionalText(40),
  email: z.union([
    z.literal(''),
    z.string().trim().toLowerCase().max(254).email({ message: 'must be an email address' }),
  ]),
  address: OptionalText(300),
  notes: OptionalText(1000),
};

export const CreateSupplierRequest = z
  .object({
    ...SupplierFields,
    tax_number: SupplierFields.tax_number.default(''),
    supplier_type: SupplierType.default('distributor'),
    lead_time_days: SupplierFields.lead_time_days.default(7),
    reliability_score: SupplierFields.reliability_score.default(100),
    contact_person: SupplierFields.contact_person.default(''),
    phone: SupplierFields.phone.default(''),
    email: SupplierFields.email.default(''),
    address: SupplierFields.address.default(''),
    notes: SupplierFields.notes.default(''),
  })
  .strict();

/** The allow-list of updatable fields: anything else is refused with 400. */
export const UpdateSupplierRequest = z
  .object({ ...SupplierFields, is_active: z.boolean({ message: 'must be true or false' }) })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'No fields to update' });

export const SupplierParams = z.object({ supplierId: Id });

export const SUPPLIER_SORTS = ['name', 'lead_time_days', 'reliability_score', 'created_at'] as const;

export const SupplierListQuery = z.object({
  page: z.coerce.number().int().min(1, { message: 'must be at least 1' }).max(1_000_000).default(1),
  page_size: z.coerce
    .number()
    .int()
    .min(1, { message: 'must be at least 1' })
    .max(200, { message: 'must be at most 200' })
    .default(20),
  search: z.string().trim().max(100).optional().describe('part of the name or the tax number'),
  is_active: z.enum(['true', 'false', 'all'], { message: 'must be true, false or all' }).default('true'),
  sort: z.enum(SUPPLIER_SORTS, { message: `must be one of ${SUPPLIER_SORTS.join(', ')}` }).default('name'),
  order: z.enum(['asc', 'desc'], { message: 'must be asc or desc' }).default('asc'),
});
