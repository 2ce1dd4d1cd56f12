import { z } from 'zod';
import { BoolQuery, DecimalString, Id, PageQuery, Text, Timestamp } from './common';
import { CurrencyCode } from './branches';

export const Currency = z.object({
  code: z.string(),
  name: z.string(),
  symbol: z.string(),
  exponent: z.number().int(),
  is_active: z.boolean(),
});
export type Currency = z.infer<typeof Currency>;

export const CurrencyListQuery = z.object({ include_inactive: BoolQuery.optional() });
export const CurrencyList = z.object({ items: z.array(Currency) });

export const CreateCurrencyRequest = z.object({
  code: CurrencyCode,
  name: Text(80),
  symbol: Text(8),
  exponent: z.number().int().min(0).max(4, { message: 'must be between 0 and 4' }),
  is_active: z.boolean().default(true),
});

export const UpdateCurrencyRequest = z
  .object({
    name: Text(80),
    symbol: Text(8),
    exponent: z.number().int().min(0).max(4, { message: 'must be between 0 and 4' }),
    is_active: z.boolean(),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'No fields to update' });

/** A positive decimal rate with at most 10 decimals, sent as a number or a string. */
export const RateInput = z
  .union([z.number(), z.string().trim()])
  .transform((v) => (typeof v === 'number' ? v.toString() : v))
  .pipe(
    z
      .string()
      .regex(/^\d{1,12}(\.\d{1,10})?$/, { message: 'must be a positive decimal with at most 10 decimals' })
      .refine((s) => Number(s) > 0, { message: 'must be greater than zero' }),
  );

export const ExchangeRate = z.object({
  id: z.string(),
  from_code: z.string(),
  to_code: z.string(),
  rate: DecimalString.describe('1 unit of from_code = rate units of to_code'),
  effective_at: Timestamp,
  source: z.string(),
  created_by: z.string(),
  created_at: Timestamp,
});
export type ExchangeRate = z.infer<typeof ExchangeRate>;

export const CreateExchangeRateRequest = z.object({
  from_code: CurrencyCode,
  to_code: CurrencyCode.optional().describe('defaults to the base currency'),
  rate: RateInput,
  effective_at: z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' }).optional(),
  source: z.string().trim().max(80).default('manual'),
});

export const ExchangeRateListQuery = PageQuery.extend({
  from_code: CurrencyCode.optional(),
  to_code: CurrencyCode.optional(),
});

export const EffectiveRateQuery = z.object({
  from: CurrencyCode,
  to: CurrencyCode.optional(),
  at: z.iso.datetime({ offset: true, message: 'must be an ISO-8601 date-time' }).optional(),
});

export const EffectiveRate = z.object({
  from_code: z.string(),
  to_code: z.string(),
  rate: DecimalString,
  effective_at: Timestamp.nullable(),
  rate_id: z.string().nullable(),
  derived: z.enum(['identity', 'direct', 'inverse']),
});

export const RateCheckRequest = z.object({
  from_code: CurrencyCode,
  to_code: CurrencyCode.optional(),
  rate: RateInput,
  at: z.iso.datetime({ offset: true }).optional(),
});

export const RateCheckResult = z.object({
  within_tolerance: z.boolean(),
  proposed_rate: DecimalString,
  effective_rate: DecimalString,
  deviation_pct: DecimalString,
  tolerance_pct: DecimalString,
  from_code: z.string(),
  to_code: z.string(),
});

export const BranchCurrency = z.object({
  branch_id: z.string(),
  branch_name: z.string(),
  currency: Currency,
});

export const CurrencyOverview = z.object({
  base_currency: Currency,
  active_currencies: z.array(Currency),
  branches: z.array(z.object({ branch_id: z.string(), branch_name: z.string(), currency_code: z.string() })),
  latest_rates: z.array(ExchangeRate),
});

export const CurrencyCodeParam = z.object({ code: CurrencyCode });
export const IdParam = z.object({ id: Id });
