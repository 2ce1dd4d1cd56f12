import { z } from 'zod';
import { DecimalString, Id, IsoDate, MoneyInput, OptionalText, PageQuery, Timestamp } from './common';
import { PositiveMoney } from './selling-fields';

export const SESSION_STATUSES = ['open', 'on_break', 'closed'] as const;
export const SessionStatus = z.enum(SESSION_STATUSES);

export const CashSession = z.object({
  id: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  branch_id: z.string(),
  device_id: z.string(),
  currency_code: z.string().describe('the base currency: every session figure is in it'),
  opening_float: DecimalString,
  status: SessionStatus,
  break_minutes: z.number().int(),
  break_started_at: Timestamp.nullable(),
  opened_at: Timestamp,
  closed_at: Timestamp.nullable(),
  total_sales: z.number().int(),
  total_revenue: DecimalString,
  total_vat: DecimalString,
  payment_breakdown: z
    .string()
    .describe(
      'JSON object {method: "amount"} of payments taken in the session (base currency, cash net of change)',
    ),
  expected_cash: DecimalString.nullable().describe(
    'float + cash taken - change given - cash refunds; set at close',
  ),
  counted_cash: DecimalString.nullable(),
  variance: DecimalString.nullable().describe('counted - expected; set at close'),
  z_number: z
    .number()
    .int()
    .nullable()
    .describe('sequential per branch and device (the till of the session), assigned at close'),
  notes: z.string(),
});
export type CashSession = z.infer<typeof CashSession>;

export const OpenSessionRequest = z.object({
  opening_float: MoneyInput,
  notes: OptionalText(500).default(''),
});
export const CloseSessionRequest = z
  .object({
    counted_cash: MoneyInput.optional().describe(
      'the cash counted, in the base currency: enough when the drawer holds no other currency',
    ),
    counted_by_currency: z
      .array(z.object({ currency_code: z.string().trim().toUpperCase().max(3), amount: MoneyInput }).strict())
      .min(1)
      .max(10)
      .optional()
      .describe('one counted amount per currency the drawer holds, each in its own currency (issue 27.4)'),
    notes: OptionalText(500).default(''),
  })
  .refine((b) => b.counted_cash !== undefined || b.counted_by_currency !== undefined, {
    message: 'give the cash counted (counted_cash, or counted_by_currency)',
    path: ['counted_cash'],
  });
export const Denomination = z.object({
  value: PositiveMoney,
  count: z.number().int().min(0).max(1_000_000),
});
export const TenderRequest = z
  .object({
    amount: MoneyInput.optional(),
    denominations: z.array(Denomination).max(50).optional(),
    notes: OptionalText(500).default(''),
  })
  .refine((v) => v.amount !== undefined || (v.denominations && v.denominations.length > 0), {
    message: 'give amount or denominations',
  });
export type TenderDeclaration = z.infer<typeof TenderDeclaration>;
export const TenderDeclaration = z.object({
  id: z.string(),
  session_id: z.string(),
  user_id: z.string(),
  branch_id: z.string(),
  amount: DecimalString,
  denominations: z.array(z.object({ value: DecimalString, count: z.number().int() })),
  notes: z.string(),
  declared_at: Timestamp,
});
export const TenderHistoryQuery = PageQuery.extend({ session_id: Id.optional() });
export const SessionHistoryQuery = PageQuery.extend({
  branch_id: Id.optional(),
  user_id: Id.optional(),
  from: IsoDate.optional(),
  to: IsoDate.optional(),
});
export const SessionParams = z.object({ sessionId: Id });

export const SessionSaleItem = z.object({
  id: z.string(),
  invoice_number: z.string(),
  payment_method: z.string(),
  pharmacist_name: z.string(),
  total_amount: DecimalString,
  vat_amount: DecimalString,
  sold_at: Timestamp,
});
export const SessionSales = z.object({ items: z.array(SessionSaleItem), session: CashSession });

const MoneyByKey = z.record(z.string(), DecimalString);
export type ZReport = z.infer<typeof ZReport>;
export const ZReport = z.object({
  session_id: z.string(),
  z_number: z
    .number()
    .int()
    .nullable()
    .describe('sequential per branch and device; null while the session is still open (an X-report)'),
  device_id: z.string().describe('the till (device) whose Z sequence the number belongs to'),
  is_final: z.boolean(),
  branch_id: z.string(),
  branch_name: z.string(),
  user_id: z.string(),
  user_name: z.string(),
  currency_code: z.string(),
  opened_at: Timestamp,
  closed_at: Timestamp.nullable(),
  break_minutes: z.number().int(),
  sales_count: z.number().int(),
  gross_sales: DecimalString.describe('total of sales, VAT included'),
  net_sales: DecimalString.describe('gross sales minus refunds'),
  vat_total: DecimalString.describe(
    "VAT of the session's sales minus the VAT of the credit notes refunded in it",
  ),
  gross_vat: DecimalString.describe("VAT of the session's sales, before refunds"),
  by_payment: z.array(z.object({ method: z.string(), count: z.number().int(), amount: DecimalString })),
  vat_by_rate: z.array(
    z.object({ rate: z.number(), taxable_amount: DecimalString, vat_amount: DecimalString }),
  ),
  discounts: z.object({
    line: DecimalString,
    global: DecimalString,
    coupon: DecimalString,
    total: DecimalString,
  }),
  returns: z.object({
    count: z.number().int(),
    total: DecimalString,
    vat: DecimalString,
    by_method: MoneyByKey,
  }),
  account_payments: z
    .object({
      count: z.number().int(),
      total: DecimalString,
      by_method: z.array(z.object({ method: z.string(), count: z.number().int(), amount: DecimalString })),
    })
    .describe("payments on customers' accounts taken in the session, by tender (not sales: no VAT)"),
  tenders_by_currency: z
    .array(
      z.object({
        currency_code: z.string(),
        method: z.string(),
        rate: z.string().describe('the rate to the base currency the amounts were converted at'),
        count: z.number().int(),
        amount: DecimalString.describe("in the tender's currency: taken, minus change and refunds"),
        base_amount: DecimalString.describe('the same in the base currency'),
      }),
    )
    .describe('what the session kept per currency, rate and tender (sales, refunds, payments on account)'),
  cash_by_currency: z
    .array(
      z.object({
        currency_code: z.string(),
        rate: z.string(),
        expected: DecimalString.describe(
          "the cash the drawer should hold in this currency (the base's includes the float)",
        ),
        expected_base: DecimalString,
      }),
    )
    .describe('expected cash per currency; the base equivalents add up to expected_cash'),
  opening_float: DecimalString,
  cash_sales: DecimalString.describe('cash tendered minus change given'),
  cash_account_payments: DecimalString.describe("cash paid on customers' accounts (in expected_cash)"),
  cash_refunds: DecimalString,
  expected_cash: DecimalString,
  counted_cash: DecimalString.nullable(),
  variance: DecimalString.nullable(),
  counted_by_currency: z
    .array(
      z.object({
        currency_code: z.string(),
        rate: z
          .string()
          .describe('the rate the variance converts at (the session’s latest for the currency)'),
        expected: DecimalString,
        counted: DecimalString,
        variance: DecimalString,
        expected_base: DecimalString,
        counted_base: DecimalString,
        variance_base: DecimalString,
      }),
    )
    .nullable()
    .describe('the close’s count per currency, expected against counted (null while open)'),
  tender_declarations: z.number().int(),
  generated_at: Timestamp,
});
