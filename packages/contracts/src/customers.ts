import { z } from 'zod';
import { DecimalString, Id, MoneyInput, OptionalText, PageQuery, Text, Timestamp } from './common';

/** A phone number as compared for duplicates: its digits only ("0712 345-678" and "0712345678" are one). */
export const phoneDigits = (phone: string): string => phone.replace(/\D/g, '');

export type Customer = z.infer<typeof Customer>;
export const Customer = z.object({
  id: z.string(),
  name: z.string(),
  phone: z.string(),
  national_id: z.string(),
  notes: z.string(),
  credit_limit: DecimalString,
  is_credit_allowed: z.boolean(),
  current_balance: DecimalString,
  created_at: Timestamp,
  updated_at: Timestamp,
});
export const CreateCustomerRequest = z.object({
  name: Text(200),
  phone: OptionalText(40).default(''),
  national_id: OptionalText(40).default(''),
  notes: OptionalText(1000).default(''),
  credit_limit: MoneyInput.default(0),
  is_credit_allowed: z.boolean({ message: 'must be true or false' }).default(false),
});
export const UpdateCustomerRequest = z
  .object({
    name: Text(200),
    phone: OptionalText(40),
    national_id: OptionalText(40),
    notes: OptionalText(1000),
    credit_limit: MoneyInput,
    is_credit_allowed: z.boolean({ message: 'must be true or false' }),
  })
  .partial()
  .strict()
  .refine((v) => Object.keys(v).length > 0, { message: 'No fields to update' });
export const CustomerListQuery = PageQuery.extend({
  page_size: PageQuery.shape.page_size.default(20),
  search: z.string().trim().max(100).optional(),
});
export const CustomerParams = z.object({ customerId: Id });
export const CustomerDuplicatesQuery = z.object({
  name: z.string().trim().max(200).default(''),
  phone: z.string().trim().max(40).default(''),
  exclude_id: Id.optional().describe('the customer being edited, who is not their own duplicate'),
});
export type CustomerLedgerRow = z.infer<typeof CustomerLedgerRow>;
export const CustomerLedgerRow = z.object({
  id: z.string(),
  customer_id: z.string(),
  branch_id: z.string().nullable(),
  transaction_type: z
    .string()
    .describe('SALE (charge), PAYMENT, REFUND; amount is positive, balance_after shows the effect'),
  amount: DecimalString,
  balance_after: DecimalString,
  reference_type: z.string().nullable(),
  reference_id: z.string().nullable(),
  notes: z.string(),
  created_by: z.string().nullable(),
  created_by_name: z.string().nullable(),
  created_at: Timestamp,
});
export const CustomerLedgerQuery = z.object({
  page: PageQuery.shape.page,
  page_size: PageQuery.shape.page_size.default(20),
});
/** How a customer pays on account at the till (credit cannot pay off credit). */
export const ACCOUNT_PAYMENT_TENDERS = ['cash', 'card', 'mobile_money', 'bank_transfer'] as const;
export type AccountPaymentTender = (typeof ACCOUNT_PAYMENT_TENDERS)[number];
export const CustomerPaymentRequest = z.object({
  amount: MoneyInput,
  method: z
    .enum(ACCOUNT_PAYMENT_TENDERS)
    .default('cash')
    .describe("the tender, in the base currency; cash counts in the session's expected cash"),
  notes: OptionalText(500).default(''),
});
export const CustomerPaymentResult = z.object({
  ledger_id: z.string(),
  session_id: z.string().describe('the cash session the payment was taken in'),
  method: z.enum(ACCOUNT_PAYMENT_TENDERS),
  amount_paid: DecimalString,
  previous_balance: DecimalString,
  new_balance: DecimalString,
});
