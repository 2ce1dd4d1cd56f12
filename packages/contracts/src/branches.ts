import { z } from 'zod';
import { BoolQuery, OptionalText, PageQuery, Text, Timestamp } from './common';
import { isTimeZone } from './time';

export const TimeZone = z
  .string()
  .max(64)
  .refine(isTimeZone, { message: 'must be an IANA time zone such as Africa/Dar_es_Salaam' });

export const CurrencyCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z]{3}$/, { message: 'must be a three-letter ISO 4217 code' });

export const Branch = z.object({
  id: z.string(),
  name: z.string(),
  code: z.string(),
  address: z.string(),
  phone: z.string(),
  vat_number: z.string(),
  currency_code: z.string(),
  timezone: z.string(),
  is_active: z.boolean(),
  created_at: Timestamp,
  updated_at: Timestamp,
  drawer_currencies: z
    .array(z.string())
    .describe('foreign currencies the drawers hold: change is given in them; otherwise in the base currency'),
});
export type Branch = z.infer<typeof Branch>;

const BranchCode = z
  .string()
  .trim()
  .toUpperCase()
  .regex(/^[A-Z0-9][A-Z0-9-]{0,19}$/, { message: 'must be 1-20 letters, digits or dashes' });

export const CreateBranchRequest = z.object({
  name: Text(120),
  code: BranchCode,
  address: OptionalText(300).default(''),
  phone: OptionalText(40).default(''),
  vat_number: OptionalText(40).default(''),
  currency_code: CurrencyCode.optional(),
  timezone: TimeZone.optional(),
  is_active: z.boolean().default(true),
});

export const UpdateBranchRequest = z
  .object({
    name: Text(120),
    code: BranchCode,
    address: OptionalText(300),
    phone: OptionalText(40),
    vat_number: OptionalText(40),
    currency_code: CurrencyCode,
    timezone: TimeZone,
    is_active: z.boolean(),
    drawer_currencies: z.array(CurrencyCode).max(10),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'No fields to update' });

export const BranchListQuery = PageQuery.extend({
  is_active: BoolQuery.optional(),
  search: z.string().trim().max(100).optional(),
});
