import { z } from 'zod';
import { OptionalText, PlainText, Timestamp } from './common';
import { CurrencyCode, TimeZone } from './branches';

const Pct = z.number().finite().min(0).max(100);

export const VatCategory = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,31}$/, { message: 'must be a lowercase word such as standard, zero or exempt' });

export const TaxPolicy = z.object({
  vat_rates: z
    .record(VatCategory, Pct)
    .default({ standard: 18, zero: 0, exempt: 0 })
    .refine((r) => ['standard', 'zero', 'exempt'].every((c) => Object.hasOwn(r, c)), {
      message: 'must define the standard, zero and exempt categories',
    })
    .describe('VAT rate in percent per vat_category'),
  prices_include_vat: z.boolean().default(true),
  rounding: z.enum(['half_up_per_line']).default('half_up_per_line'),
});
export type TaxPolicy = z.infer<typeof TaxPolicy>;

export const LoginThrottle = z.object({
  max_failures_per_account: z.number().int().min(1).max(1000).default(5),
  max_failures_per_address: z
    .number()
    .int()
    .min(1)
    .max(10000)
    .default(20)
    .describe('failed sign-ins from one client address across accounts, counted on central only'),
  window_minutes: z.number().int().min(1).max(1440).default(15),
});

/** TCP ports a network printer may use besides 9100-9109, 515 and 631 (a virtual or unusual printer). */
export const PrinterExtraPorts = z
  .array(z.number().int().min(1).max(65_535), { message: 'must be a list of port numbers' })
  .max(20, { message: 'at most 20 ports' })
  .refine((ports) => new Set(ports).size === ports.length, { message: 'must not repeat a port' })
  .describe('TCP ports a network printer may use besides 9100-9109, 515 and 631');

export const Settings = z.object({
  organization_name: OptionalText(200).default('Pharmacy'),
  organization_legal_name: OptionalText(200).default(''),
  tin: OptionalText(40).default(''),
  vat_number: OptionalText(40).default(''),
  phone: OptionalText(40).default(''),
  email: OptionalText(254).default(''),
  address: OptionalText(300).default(''),
  base_currency_code: CurrencyCode.default('USD'),
  timezone: TimeZone.default('UTC'),
  tax_policy: TaxPolicy.default({
    vat_rates: { standard: 18, zero: 0, exempt: 0 },
    prices_include_vat: true,
    rounding: 'half_up_per_line',
  }),
  receipt_header: PlainText(500).default(''),
  receipt_footer: PlainText(500).default('Thank you for your visit'),
  return_policy: z
    .string()
    .max(500)
    .default(
      'Returns within 14 days with receipt. Medicines cannot be returned once dispensed unless defective.',
    ),
  fx_tolerance_pct: Pct.default(2),
  login_throttle: LoginThrottle.default({
    max_failures_per_account: 5,
    max_failures_per_address: 20,
    window_minutes: 15,
  }),
  session_max_hours: z
    .number()
    .int()
    .min(1)
    .max(168)
    .default(12)
    .describe('hours after sign-in when a session ends: refreshing tokens never goes past it'),
  negative_stock_policy: z.enum(['forbid', 'allow']).default('forbid'),
  discount_approval_threshold_pct: Pct.default(10).describe(
    'line or basket discounts above this need a manager',
  ),
  stock_variance_approval_threshold: z
    .number()
    .int()
    .min(0)
    .default(10)
    .describe('count variances larger than this many units need a manager'),
  printer_extra_ports: PrinterExtraPorts.default([]),
});
export type Settings = z.infer<typeof Settings>;

export const SettingsResponse = Settings.extend({ updated_at: Timestamp.nullable() });

/** PUT merges the given top-level fields into the current settings; nested objects are replaced whole. */
export const UpdateSettingsRequest = z
  .object({
    organization_name: OptionalText(200),
    organization_legal_name: OptionalText(200),
    tin: OptionalText(40),
    vat_number: OptionalText(40),
    phone: OptionalText(40),
    email: OptionalText(254),
    address: OptionalText(300),
    base_currency_code: CurrencyCode,
    timezone: TimeZone,
    tax_policy: TaxPolicy,
    receipt_header: PlainText(500),
    receipt_footer: PlainText(500),
    return_policy: PlainText(500),
    fx_tolerance_pct: Pct,
    login_throttle: LoginThrottle,
    session_max_hours: z.number().int().min(1).max(168),
    negative_stock_policy: z.enum(['forbid', 'allow']),
    discount_approval_threshold_pct: Pct,
    stock_variance_approval_threshold: z.number().int().min(0),
    printer_extra_ports: PrinterExtraPorts,
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'No fields to update' });
